// The ffmpeg wrapper's start-up cost: `ffprobe -version` through the wrapper (a link named
// ffprobe to the binary, as `worker run` makes for the runner) against the real ffprobe
// directly, interleaved in one run so that both see the same machine. Target: at most
// 1.05 times the direct median plus 2 ms (the wrapper: docs/worker/worker.md).
//
//   wrapper_startup [ROUNDS]
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace {

double RunOnceMs(const std::string& program) {
  const char* argv[] = {program.c_str(), "-version", nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawn(&pid, program.c_str(), &actions, nullptr, const_cast<char**>(argv), environ) !=
      0) {
    std::fprintf(stderr, "cannot run %s\n", program.c_str());
    std::exit(1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  posix_spawn_file_actions_destroy(&actions);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "%s -version failed\n", program.c_str());
    std::exit(1);
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("wrapper-startup-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path link = dir / "ffprobe";
  std::filesystem::create_symlink(MEDIA_CAP_BINARY, link);
  setenv("PT_WORKER_FFPROBE", "/usr/bin/ffprobe", 1);
  std::vector<double> direct, wrapped;
  for (int i = 0; i < rounds; ++i) {
    direct.push_back(RunOnceMs("/usr/bin/ffprobe"));
    wrapped.push_back(RunOnceMs(link.string()));
  }
  std::filesystem::remove_all(dir);
  const double d = Median(direct), w = Median(wrapped);
  const double target = 1.05 * d + 2.0;
  std::printf(
      "ffprobe -version, median of %d: direct %.2f ms, through the wrapper %.2f ms "
      "(+%.2f ms, %.3fx); target at most %.2f ms: %s\n",
      rounds, d, w, w - d, w / d, target, w <= target ? "met" : "MISSED");
  return 0;
}
