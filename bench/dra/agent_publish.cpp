// The agent against the real control plane (tests/cluster). Each figure is
// printed with the baseline it is a ratio of, measured in the same run:
//   requests and bytes per publish     the agent's repair of a deleted slice, and its
//                                      rewrite of an edited one, against one bare POST of
//                                      the same slice (the least any publisher must send)
//   time from start to slice visible   the agent's process, against `probe --output json`
//                                      of the same GPUs plus one bare POST: the queries and
//                                      one write, with nothing of the agent's own
//   idle minute                        requests sent while nothing changes (target: none
//                                      but the open watches); the agent's RSS (target:
//                                      at most 16 MiB), where its pages are, per mapping
//                                      (bench/smaps-summary), and its CPU time
// One agent runs in this process, so that its API client's counters can be read; a second
// runs as the real binary, whose RSS and CPU time /proc gives.
//
// usage: agent_publish CLUSTER_DIR   (made by tests/cluster/start-control-plane)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/kube_client.h"
#include "common/kube/kube_config.h"
#include "dra/agent/agent.h"
#include "spawn_program.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr char kSlices[] = "/apis/resource.k8s.io/v1/resourceslices";

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "bench: %s\n", why.c_str());
  std::exit(1);
}

void Shell(const std::string& command) {
  if (std::system(command.c_str()) != 0) Fail("`" + command + "` failed");
}

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// The fake VA driver's environment, as the probe tests set it: only the kernel is faked.
std::vector<std::string> FakeVaEnvironment() {
  return {"LD_PRELOAD=" MEDIA_CAP_BUILD_DIR "/tests/fakeva/libfakeva_drm_shim.so",
          "LIBVA_DRIVERS_PATH=" MEDIA_CAP_BUILD_DIR "/tests/fakeva", "LIBVA_DRIVER_NAME=fakeva"};
}

bool SliceVisible(mc::kube::KubeClient& admin, const std::string& name) {
  auto got = admin.Send({.target = std::string(kSlices) + "/" + name});
  return got && got->status == 200;
}

Clock::duration WaitForSlice(mc::kube::KubeClient& admin, const std::string& name,
                             Clock::time_point since) {
  while (!SliceVisible(admin, name)) {
    if (Clock::now() - since > std::chrono::seconds(60))
      Fail("slice " + name + " did not appear within 60 s");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return Clock::now() - since;
}

// The kib of a /proc/PID/status line such as VmHWM.
long StatusKib(pid_t pid, const std::string& key) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind(key + ":", 0) == 0)
      return std::strtol(line.c_str() + key.size() + 1, nullptr, 10);
  }
  return -1;
}

// User and system CPU time of a process, in seconds, from /proc/PID/stat.
double CpuSeconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  long ticks = 0;
  for (int i = 3; fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stol(field);
    if (i == 15) break;
  }
  return static_cast<double>(ticks) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

struct Delta {
  std::uint64_t requests = 0;
  std::uint64_t bytes = 0;
};

Delta Since(const mc::kube::Traffic& before, const mc::kube::Traffic& after) {
  return {after.requests - before.requests,
          (after.bytes_sent + after.bytes_received) - (before.bytes_sent + before.bytes_received)};
}

std::string SliceName(const std::string& node) { return node + "-media.liken.sh"; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) Fail("usage: agent_publish CLUSTER_DIR");
  const std::string dir = argv[1];
  const std::string binary = MEDIA_CAP_BUILD_DIR "/media-capabilities";
  auto admin_config = mc::kube::LoadKubeconfig(dir + "/admin.kubeconfig");
  if (!admin_config) Fail(admin_config.error_message());
  auto admin = mc::kube::KubeClient::Create(*admin_config);
  if (!admin) Fail(admin.error_message());

  const std::string machine = dir + "/bench-machine";
  const std::string dumps = MEDIA_CAP_SOURCE_DIR "/tests/fakeva/dumps/";
  Shell(MEDIA_CAP_SOURCE_DIR "/tests/fakeva/fake-machine " + machine + " " + dumps +
        "intel-ihd-dg1-gen12-24.1.txt " + dumps + "amd-radeonsi-navi22-rx6750xt.txt");
  for (const char* node : {"bench-1", "bench-2"}) {
    Shell(MEDIA_CAP_SOURCE_DIR "/tests/cluster/create-node " + dir + " " + node + " >/dev/null");
  }
  for (const std::string& variable : FakeVaEnvironment()) {
    putenv(const_cast<char*>((new std::string(variable))->c_str()));
  }

  // Baseline: `probe` of the same GPUs, and one bare POST of the slice the agent publishes.
  auto probe_start = Clock::now();
  Shell(binary + " probe --output json --sysfs-root " + machine + "/sys --dev-root " + machine +
        "/dev > " + dir + "/bench-probe.json 2>/dev/null");
  const Clock::duration probe_time = Clock::now() - probe_start;

  // The in-process agent, on bench-1, in sysfs mode.
  mc::dra::AgentOptions options{.node_name = "bench-1",
                                .source = mc::dra::RenderNodeSource::kSysfs,
                                .roots = {.sysfs = machine + "/sys", .dev = machine + "/dev"},
                                .query = {.program = binary},
                                .plugins_dir = dir + "/bench-1/plugins",
                                .registry_dir = dir + "/bench-1/registry",
                                .health_address = "127.0.0.1:0"};
  auto agent_config = mc::kube::LoadKubeconfig(dir + "/admin.kubeconfig");
  auto agent_client = mc::kube::KubeClient::Create(*agent_config);
  if (!agent_client) Fail(agent_client.error_message());
  std::ofstream agent_log(dir + "/bench-1.log");
  mc::dra::Agent agent(options, **agent_client,
                       [&agent_log](const std::string& line) { agent_log << line << '\n'; });
  std::thread agent_thread([&agent] { agent.Run(); });
  WaitForSlice(**admin, SliceName("bench-1"), Clock::now());
  std::this_thread::sleep_for(std::chrono::seconds(1));

  // The bare POST: the same slice, under another name, sent once.
  auto held = (*admin)->Send({.target = std::string(kSlices) + "/" + SliceName("bench-1")});
  nlohmann::json bare = nlohmann::json::parse(held->body);
  bare["metadata"] = {{"name", "bench-bare"}};
  const std::string bare_body = bare.dump();
  const auto bare_start = Clock::now();
  auto posted = (*admin)->Send({.method = "POST", .target = kSlices, .body = bare_body});
  const Clock::duration bare_post_time = Clock::now() - bare_start;
  if (!posted || posted->status != 201) Fail("the bare POST failed");
  const Delta bare_publish{1, bare_body.size() + posted->body.size()};

  // One repair of a deleted slice (the agent reads the Node, then creates), and one rewrite
  // of an edited one, each counted from the agent's own client.
  // Averaged over several repairs, after the start-up's requests have settled.
  constexpr int kRepairs = 5;
  std::this_thread::sleep_for(std::chrono::seconds(2));
  auto before = (*agent_client)->traffic();
  for (int i = 0; i < kRepairs; ++i) {
    auto deleted = (*admin)->Send(
        {.method = "DELETE", .target = std::string(kSlices) + "/" + SliceName("bench-1")});
    if (!deleted || deleted->status != 200) Fail("deleting the agent's slice failed");
    WaitForSlice(**admin, SliceName("bench-1"), Clock::now());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  Delta repair = Since(before, (*agent_client)->traffic());
  repair.requests /= kRepairs;
  repair.bytes /= kRepairs;

  before = (*agent_client)->traffic();
  Shell("set -a; . " + dir +
        "/cluster.env; \"$KUBECTL\" --kubeconfig \"$ADMIN_KUBECONFIG\" label resourceslice " +
        SliceName("bench-1") +
        " bench=edited >/dev/null && \"$KUBECTL\" --kubeconfig \"$ADMIN_KUBECONFIG\" patch "
        "resourceslice " +
        SliceName("bench-1") +
        " --type=json -p "
        "'[{\"op\":\"replace\",\"path\":\"/spec/devices/0/attributes/decodeH264/"
        "bool\",\"value\":false}]' >/dev/null");
  std::this_thread::sleep_for(std::chrono::seconds(2));
  const Delta rewrite = Since(before, (*agent_client)->traffic());

  // The real binary on bench-2: from its start to its slice.
  const auto spawn_start = Clock::now();
  const pid_t process =
      bench::Spawn({binary, "agent", "--kubeconfig", dir + "/admin.kubeconfig", "--node-name",
                    "bench-2", "--render-nodes", "sysfs", "--sysfs-root", machine + "/sys",
                    "--dev-root", machine + "/dev", "--plugins-dir", dir + "/bench-2/plugins",
                    "--registry-dir", dir + "/bench-2/registry", "--health-address", "127.0.0.1:0"},
                   {}, dir + "/bench-2.log");
  const Clock::duration to_visible = WaitForSlice(**admin, SliceName("bench-2"), spawn_start);

  // The idle minute, both agents at once.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  before = (*agent_client)->traffic();
  const double cpu_before = CpuSeconds(process);
  std::this_thread::sleep_for(std::chrono::seconds(60));
  const Delta idle = Since(before, (*agent_client)->traffic());
  const double idle_cpu = CpuSeconds(process) - cpu_before;
  const long rss = StatusKib(process, "VmRSS");
  const long peak_rss = StatusKib(process, "VmHWM");
  // Where the idle binary's resident pages are, per mapped file (bench/smaps-summary).
  std::printf("the idle binary's resident pages, per mapping:\n");
  std::fflush(stdout);
  Shell(MEDIA_CAP_SOURCE_DIR "/bench/smaps-summary " + std::to_string(process));

  kill(process, SIGTERM);
  int status = 0;
  waitpid(process, &status, 0);
  agent.Stop();
  agent_thread.join();

  std::printf(
      "requests per publish: repair of a deleted slice %llu, rewrite of an edited one %llu; bare "
      "POST %llu: "
      "ratios %.2f and %.2f\n",
      static_cast<unsigned long long>(repair.requests),
      static_cast<unsigned long long>(rewrite.requests),
      static_cast<unsigned long long>(bare_publish.requests),
      static_cast<double>(repair.requests) / static_cast<double>(bare_publish.requests),
      static_cast<double>(rewrite.requests) / static_cast<double>(bare_publish.requests));
  std::printf(
      "bytes per publish (both directions): repair %llu, rewrite %llu; bare POST %llu: ratios %.2f "
      "and %.2f\n",
      static_cast<unsigned long long>(repair.bytes), static_cast<unsigned long long>(rewrite.bytes),
      static_cast<unsigned long long>(bare_publish.bytes),
      static_cast<double>(repair.bytes) / static_cast<double>(bare_publish.bytes),
      static_cast<double>(rewrite.bytes) / static_cast<double>(bare_publish.bytes));
  const double baseline = Seconds(probe_time) + Seconds(bare_post_time);
  std::printf(
      "start to slice visible: agent %.1f ms; probe %.1f ms + bare POST %.1f ms = %.1f ms: ratio "
      "%.2f\n",
      Seconds(to_visible) * 1e3, Seconds(probe_time) * 1e3, Seconds(bare_post_time) * 1e3,
      baseline * 1e3, Seconds(to_visible) / baseline);
  std::printf(
      "idle minute: %llu requests (target 0), %llu bytes; the binary's CPU %.3f s, RSS %.1f MiB, "
      "peak RSS "
      "%.1f MiB (target <= 16 MiB)\n",
      static_cast<unsigned long long>(idle.requests), static_cast<unsigned long long>(idle.bytes),
      idle_cpu, static_cast<double>(rss) / 1024.0, static_cast<double>(peak_rss) / 1024.0);
  std::printf("the agent exited with status %d after SIGTERM\n",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}
