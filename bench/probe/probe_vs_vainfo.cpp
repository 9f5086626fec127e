// The probe against Debian's `vainfo -a`, in the same run on the same dump, through the
// same real libva and fake VA driver: one render node, and eight. It prints medians and
// the ratios that the targets are stated in, so that figures from different machines can
// be compared:
//   probe of 1 node / vainfo -a once      target <= 1.5
//   probe of 8 nodes / probe of 1 node    target <= 2
// and the peak RSS of the probe's parent process and of one query child.
//
// usage: probe_vs_vainfo [DUMP] [REPETITIONS]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "spawn_program.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A `vainfo -a` dump, so that vainfo asks every attribute of every pair: the most work
// the baseline can be given.
constexpr char kDefaultDump[] = "amd-radeonsi-navi22-rx6750xt-vainfo-a.txt";

struct Run {
  double seconds = 0;
  long peak_rss_kib = 0;
};

// RunOnce runs argv with the extra environment and waits, measuring its wall time and
// its own peak RSS (wait4 reports the child's, not its descendants').
Run RunOnce(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env) {
  const auto start = Clock::now();
  const pid_t pid = bench::Spawn(argv, extra_env, "/dev/null");
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Run run{std::chrono::duration<double>(Clock::now() - start).count(), usage.ru_maxrss};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench: %s failed (status %d)\n", argv[0].c_str(), status);
    std::exit(1);
  }
  return run;
}

struct Figure {
  double median_seconds;
  long peak_rss_kib;
};

// Measure runs `step` `repetitions` times after one warm-up and keeps the median.
template <typename Step>
Figure Measure(int repetitions, Step step) {
  step();
  std::vector<double> times;
  long rss = 0;
  for (int i = 0; i < repetitions; ++i) {
    Run run = step();
    times.push_back(run.seconds);
    rss = std::max(rss, run.peak_rss_kib);
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], rss};
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path source = MEDIA_CAP_SOURCE_DIR;
  const fs::path build = MEDIA_CAP_BUILD_DIR;
  const std::string dump =
      argc > 1 ? argv[1] : (source / "tests/fakeva/dumps" / kDefaultDump).string();
  const int repetitions = argc > 2 ? std::atoi(argv[2]) : 20;

  const fs::path machine1 =
      fs::temp_directory_path() / ("media-capabilities-bench-1-" + std::to_string(getpid()));
  const fs::path machine8 =
      fs::temp_directory_path() / ("media-capabilities-bench-8-" + std::to_string(getpid()));
  const std::string fake_machine = (source / "tests/fakeva/fake-machine").string();
  RunOnce({fake_machine, machine1.string(), dump}, {});
  std::vector<std::string> eight = {fake_machine, machine8.string()};
  for (int i = 0; i < 8; ++i) eight.push_back(dump);
  RunOnce(eight, {});

  const std::string driver_dir = (build / "tests/fakeva").string();
  const std::vector<std::string> env = {"LD_PRELOAD=" + driver_dir + "/libfakeva_drm_shim.so",
                                        "LIBVA_DRIVERS_PATH=" + driver_dir,
                                        "LIBVA_DRIVER_NAME=fakeva", "FAKEVA_DUMP=" + dump};
  const std::string binary = (build / "media-capabilities").string();
  const std::string node = (machine1 / "dev/dri/renderD128").string();

  auto vainfo = [&] {
    return RunOnce({"vainfo", "-a", "--display", "drm", "--device", node}, env);
  };
  auto vainfo8 = [&] {
    Run total;
    for (int i = 0; i < 8; ++i) total.seconds += vainfo().seconds;
    return total;
  };
  auto probe = [&](const fs::path& machine) {
    return [&, machine] {
      return RunOnce({binary, "probe", "--output", "json", "--sysfs-root",
                      (machine / "sys").string(), "--dev-root", (machine / "dev").string()},
                     env);
    };
  };
  auto query_child = [&] { return RunOnce({binary, "query-va", node}, env); };

  const Figure v1 = Measure(repetitions, vainfo);
  const Figure v8 = Measure(repetitions, vainfo8);
  const Figure p1 = Measure(repetitions, probe(machine1));
  const Figure p8 = Measure(repetitions, probe(machine8));
  const Figure child = Measure(repetitions, query_child);
  fs::remove_all(machine1);
  fs::remove_all(machine8);

  std::printf("dump: %s, %d repetitions each, medians\n", dump.c_str(), repetitions);
  std::printf("vainfo -a, once:            %8.2f ms\n", v1.median_seconds * 1e3);
  std::printf("vainfo -a, 8 in sequence:   %8.2f ms\n", v8.median_seconds * 1e3);
  std::printf("probe, 1 render node:       %8.2f ms\n", p1.median_seconds * 1e3);
  std::printf("probe, 8 render nodes:      %8.2f ms\n", p8.median_seconds * 1e3);
  std::printf("ratio probe(1) / vainfo(1):   %.2f  (target <= 1.5)\n",
              p1.median_seconds / v1.median_seconds);
  std::printf("ratio probe(8) / probe(1):    %.2f  (target <= 2)\n",
              p8.median_seconds / p1.median_seconds);
  std::printf("ratio probe(8) / vainfo(x8):  %.2f\n", p8.median_seconds / v8.median_seconds);
  std::printf("peak RSS, probe parent (8 nodes): %ld KiB\n", p8.peak_rss_kib);
  std::printf("peak RSS, one query-va child:     %ld KiB\n", child.peak_rss_kib);
  std::printf("peak RSS, vainfo -a:              %ld KiB\n", v1.peak_rss_kib);
  return 0;
}
