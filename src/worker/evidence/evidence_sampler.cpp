#include "worker/evidence/evidence_sampler.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "worker/evidence/process_tree.h"

extern char** environ;

namespace mc::worker {
namespace {

void KeepLarger(std::uint64_t& kept, std::uint64_t seen) { kept = std::max(kept, seen); }

// ClientKey names one open DRM file by (pdev, client id), as the usage-stats specification asks. A
// file shared by descriptors or processes then counts once.
std::string ClientKey(const DrmClient& client) {
  if (client.fdinfo.client_id)
    return client.fdinfo.pdev + "/" + std::to_string(*client.fdinfo.client_id);
  return "pid " + std::to_string(client.pid) + " fd " + std::to_string(client.fd);
}

}  // namespace

EvidenceSampler::EvidenceSampler(SamplerOptions options)
    : options_(std::move(options)), started_(std::chrono::steady_clock::now()) {
  if (options_.read_drm) record_.drm = DrmEvidence{};
  if (options_.nvidia_pci_address.empty()) return;
  Result<std::unique_ptr<NvmlLibrary>> nvml = NvmlLibrary::Load(options_.nvml_library);
  if (!nvml) {
    record_.problems.push_back("NVML: " + nvml.error_message());
    return;
  }
  Result<void*> device = (*nvml)->Device(options_.nvidia_pci_address);
  if (!device) {
    record_.problems.push_back("NVML: " + device.error_message());
    return;
  }
  nvml_ = std::move(*nvml);
  nvml_device_ = *device;
  record_.nvml = NvmlEvidence{};
}

EvidenceSampler::~EvidenceSampler() = default;

void EvidenceSampler::Sample(int root_pid) {
  Result<std::vector<int>> tree = TreePids(options_.proc_root, root_pid);
  if (!tree) return;
  last_tree_ = *tree;
  ++record_.samples;
  record_.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  record_.cpu_seconds = std::max(record_.cpu_seconds, TreeCpuSeconds(options_.proc_root, *tree));

  auto in_tree = [&](std::uint32_t pid) {
    return std::find(tree->begin(), tree->end(), static_cast<int>(pid)) != tree->end();
  };
  if (nvml_) {
    NvmlEvidence& nvml = *record_.nvml;
    Result<std::vector<NvmlProcessSample>> samples =
        nvml_->ProcessSamples(nvml_device_, nvml_last_seen_us_);
    if (samples) {
      for (const NvmlProcessSample& sample : *samples) {
        nvml_last_seen_us_ = std::max(nvml_last_seen_us_, sample.timestamp_us);
        if (!in_tree(sample.pid)) continue;
        ++nvml.samples_of_tree;
        nvml.max_enc_util = std::max(nvml.max_enc_util, sample.enc_util);
        nvml.max_dec_util = std::max(nvml.max_dec_util, sample.dec_util);
      }
    } else if (std::find(record_.problems.begin(), record_.problems.end(),
                         "NVML: " + samples.error_message()) == record_.problems.end()) {
      record_.problems.push_back("NVML: " + samples.error_message());
    }
    Result<std::vector<NvmlEncoderSession>> sessions = nvml_->EncoderSessions(nvml_device_);
    if (sessions) {
      std::int64_t of_tree = 0;
      for (const NvmlEncoderSession& session : *sessions) {
        if (!in_tree(session.pid)) continue;
        ++of_tree;
        nvml.session_ids.insert(session.session_id);
      }
      nvml.max_sessions_of_tree = std::max(nvml.max_sessions_of_tree, of_tree);
    } else if (std::find(record_.problems.begin(), record_.problems.end(),
                         "NVML: " + sessions.error_message()) == record_.problems.end()) {
      record_.problems.push_back("NVML: " + sessions.error_message());
    }
  }
  if (options_.read_drm) {
    for (const DrmClient& client : DrmClients(options_.proc_root, *tree)) {
      MediaEngineTime& kept = drm_clients_[ClientKey(client)];
      const MediaEngineTime seen = MediaEngineTimeOf(client.fdinfo);
      // The specification allows a counter to go back briefly. The larger value stands.
      KeepLarger(kept.encode_ns, seen.encode_ns);
      KeepLarger(kept.decode_ns, seen.decode_ns);
      KeepLarger(kept.codec_ns, seen.codec_ns);
      KeepLarger(kept.enhance_ns, seen.enhance_ns);
      KeepLarger(kept.codec_cycles, seen.codec_cycles);
      KeepLarger(kept.codec_total_cycles, seen.codec_total_cycles);
      KeepLarger(kept.enhance_cycles, seen.enhance_cycles);
      record_.drm->drivers.insert(client.fdinfo.driver);
    }
  }
}

void EvidenceSampler::SampleCpu(int root_pid) {
  std::vector<int> pids = last_tree_;
  if (std::find(pids.begin(), pids.end(), root_pid) == pids.end()) pids.push_back(root_pid);
  record_.cpu_seconds = std::max(record_.cpu_seconds, TreeCpuSeconds(options_.proc_root, pids));
  record_.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

EvidenceRecord EvidenceSampler::Record() const {
  EvidenceRecord record = record_;
  if (record.drm) {
    record.drm->clients = static_cast<std::int64_t>(drm_clients_.size());
    for (const auto& [key, time] : drm_clients_) {
      record.drm->time.encode_ns += time.encode_ns;
      record.drm->time.decode_ns += time.decode_ns;
      record.drm->time.codec_ns += time.codec_ns;
      record.drm->time.enhance_ns += time.enhance_ns;
      record.drm->time.codec_cycles += time.codec_cycles;
      record.drm->time.codec_total_cycles += time.codec_total_cycles;
      record.drm->time.enhance_cycles += time.enhance_cycles;
    }
  }
  return record;
}

SampledRun RunSampled(const std::vector<std::string>& argv, const SamplerOptions& options,
                      std::chrono::milliseconds deadline, const std::string& log_path,
                      const EnoughEvidence& enough) {
  SampledRun run;
  if (argv.empty()) {
    run.failure = "no command to run";
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string log = log_path.empty() ? "/dev/null" : log_path;
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group, so the deadline kills the whole tree.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = EPERM;
  const auto spawn = [&] {
    spawned = posix_spawnp(&pid, args[0], &actions, &attributes, args.data(), environ);
  };
  // A boxed command starts from a thread that entered the sandbox. The sampler stays outside.
  if (options.sandbox == nullptr) {
    spawn();
  } else if (!options.sandbox->RunEntered(spawn)) {
    spawned = EPERM;
  }
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) {
    run.failure = "cannot start " + argv[0] + ": " + std::strerror(spawned);
    return run;
  }

  EvidenceSampler sampler(options);
  std::mutex mutex;
  std::condition_variable wake;
  bool exited = false;
  std::thread sampling([&] {
    std::unique_lock lock(mutex);
    while (!exited) {
      lock.unlock();
      sampler.Sample(pid);
      // The wait below leaves the root unreaped. So its PID is still its own.
      if (enough && !run.stopped && enough(sampler.Record())) {
        run.stopped = true;
        kill(pid, SIGINT);
      }
      lock.lock();
      wake.wait_for(lock, options.interval, [&] { return exited; });
    }
  });

  // Wait for the exit without reaping. The final CPU times can then still be read.
  const auto until = std::chrono::steady_clock::now() + deadline;
  siginfo_t info{};
  for (;;) {
    info = {};
    if (waitid(P_PID, pid, &info, WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid == pid) break;
    if (options.stop != nullptr && options.stop->load()) {
      run.cancelled = true;
      kill(-pid, SIGKILL);
      waitid(P_PID, pid, &info, WEXITED | WNOWAIT);
      break;
    }
    if (std::chrono::steady_clock::now() >= until) {
      run.timed_out = true;
      kill(-pid, SIGKILL);
      waitid(P_PID, pid, &info, WEXITED | WNOWAIT);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  {
    std::lock_guard lock(mutex);
    exited = true;
  }
  wake.notify_all();
  sampling.join();
  sampler.SampleCpu(pid);
  int status = 0;
  waitpid(pid, &status, 0);
  run.record = sampler.Record();
  if (run.cancelled) {
    run.failure = argv[0] + " was stopped, since the worker is stopping";
  } else if (run.timed_out) {
    run.failure = argv[0] + " ran past its deadline of " + std::to_string(deadline.count()) +
                  " ms and was killed";
  } else if (WIFEXITED(status)) {
    run.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    run.failure = argv[0] + " was killed by signal " + std::to_string(WTERMSIG(status));
  }
  return run;
}

}  // namespace mc::worker
