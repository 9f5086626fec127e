// The evidence sampler's CPU cost while a real transcode runs: Debian's ffmpeg encodes a test
// clip with libx264 for about twenty seconds while the sampler reads the tree's /proc, DRM
// fdinfo and (where there is one) NVML once a second, as a job's sampler does. The sampler's
// own CPU time is measured on its thread, and printed as a share of one core (target: at most
// 0.5 %) and against the transcode's CPU time measured in the same run.
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "worker/evidence/evidence_sampler.h"

extern char** environ;

namespace {

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string seconds = argc > 1 ? argv[1] : "20";
  std::vector<std::string> command = {"ffmpeg",  "-hide_banner", "-loglevel",
                                      "error",   "-nostdin",     "-f",
                                      "lavfi",   "-i",           "testsrc2=size=1280x720:rate=30",
                                      "-t",      seconds,        "-c:v",
                                      "libx264", "-preset",      "veryfast",
                                      "-f",      "null",         "-"};
  std::vector<char*> args;
  for (std::string& arg : command) args.push_back(arg.data());
  args.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, "ffmpeg", nullptr, nullptr, args.data(), environ) != 0) {
    std::fprintf(stderr, "worker_sampler_cost: cannot start ffmpeg\n");
    return 1;
  }
  mc::worker::EvidenceSampler sampler({});
  const auto start = std::chrono::steady_clock::now();
  double sampler_cpu = 0;
  int samples = 0;
  siginfo_t info{};
  for (;;) {
    info = {};
    if (waitid(P_PID, pid, &info, WEXITED | WNOWAIT | WNOHANG) == 0 && info.si_pid == pid) break;
    const double before = ThreadCpuSeconds();
    sampler.Sample(pid);
    sampler_cpu += ThreadCpuSeconds() - before;
    ++samples;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  const double ffmpeg_cpu =
      static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
      static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "worker_sampler_cost: ffmpeg failed\n");
    return 1;
  }
  std::printf("sampler: %d samples at 1 Hz over %.1f s of transcode, %.3f ms of CPU per sample\n",
              samples, wall, sampler_cpu * 1000 / samples);
  std::printf("sampler CPU / wall time: %.4f %% of one core (target <= 0.5 %%)\n",
              100 * sampler_cpu / wall);
  std::printf("sampler CPU / transcode CPU (%.1f s): %.5f\n", ffmpeg_cpu, sampler_cpu / ffmpeg_cpu);
  return sampler_cpu / wall <= 0.005 ? 0 : 1;
}
