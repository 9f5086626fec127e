// The self-test's wall time against the same ffmpeg commands run bare, one step after another
// (the session-slot step's encodes at once, as the self-test runs them), on the fake
// NVIDIA GPU of a recorded board. The self-test's own cost is its probe, its samplers and its
// bookkeeping; the target is at most 1.1 times the bare commands.
//
//   worker_self_test_vs_bare BINARY STAGE RECORD [ROUNDS]
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "spawn_program.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

struct Command {
  std::string step;
  std::vector<std::string> argv;
};

int Wait(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

std::vector<Command> ReadCommands(const fs::path& log, const fs::path& scratch) {
  std::vector<Command> commands;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) {
    Command command;
    command.step = line.substr(0, line.find('\t'));
    std::istringstream args(line.substr(line.find('\t') + 1));
    for (std::string arg; std::getline(args, arg, '\x1f');) {
      // The self-test's scratch directory is gone; the bare run writes into its own.
      const std::size_t at = arg.find("media-capabilities-self-test.");
      if (at != std::string::npos) {
        const std::size_t end = arg.find('/', at);
        arg = scratch.string() + (end == std::string::npos ? "" : arg.substr(end));
      }
      command.argv.push_back(arg);
    }
    commands.push_back(command);
  }
  return commands;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s BINARY STAGE RECORD [ROUNDS]\n", argv[0]);
    return 2;
  }
  const std::string binary = argv[1];
  const std::string record = argv[3];
  const int rounds = argc > 4 ? std::atoi(argv[4]) : 3;
  const fs::path dir =
      fs::temp_directory_path() / ("worker_self_test_vs_bare." + std::to_string(getpid()));
  fs::create_directories(dir / "scratch");
  const fs::path machine = dir / "machine";
  if (Wait(bench::Spawn({argv[2], record, machine.string()}, {}, (dir / "stage.log").string())) !=
      0)
    return 1;
  std::ofstream(machine / "dev/nvidiactl").put('\n');
  const std::vector<std::string> env = {"LD_LIBRARY_PATH=" + (machine / "lib").string(),
                                        "FAKENV_RECORD=" + record,
                                        "FAKENV_STATE_DIR=" + (machine / "state").string()};
  std::ifstream identity(record);
  std::string text((std::istreambuf_iterator<char>(identity)), std::istreambuf_iterator<char>());
  const std::size_t key = text.find("\"pciAddress\"");
  const std::size_t open = text.find('"', text.find(':', key) + 1);
  const std::string gpu = text.substr(open + 1, text.find('"', open + 1) - open - 1);

  double best_test = 1e9;
  double best_bare = 1e9;
  for (int round = 0; round < rounds; ++round) {
    const fs::path log = dir / ("commands-" + std::to_string(round) + ".txt");
    const auto started = Clock::now();
    const int code = Wait(bench::Spawn(
        {binary, "worker", "self-test", "--gpu", gpu, "--sysfs-root", (machine / "sys").string(),
         "--dev-root", (machine / "dev").string(), "--nvml-library",
         (machine / "lib/libnvidia-ml.so.1").string(), "--state-dir", (dir / "state").string(),
         "--step-deadline", "300", "--command-log", log.string()},
        env, (dir / "self-test.log").string()));
    const double test_seconds = Seconds(started);
    if (code != 0) {
      std::fprintf(stderr, "the self-test failed (%d); see %s\n", code,
                   (dir / "self-test.log").c_str());
      return 1;
    }
    const std::vector<Command> commands = ReadCommands(log, dir / "scratch");
    const auto bare_started = Clock::now();
    for (std::size_t i = 0; i < commands.size();) {
      std::vector<pid_t> running;
      std::size_t j = i;
      // The session-slot step's encodes run at once, as in the self-test.
      do {
        running.push_back(bench::Spawn(commands[j].argv, env,
                                       (dir / ("bare-" + std::to_string(j) + ".log")).string()));
        ++j;
      } while (commands[i].step == "session_slots" && j < commands.size() &&
               commands[j].step == "session_slots");
      for (pid_t pid : running) Wait(pid);
      i = j;
    }
    const double bare_seconds = Seconds(bare_started);
    std::printf("round %d: self-test %.2f s, %zu bare ffmpeg commands %.2f s, ratio %.3f\n", round,
                test_seconds, commands.size(), bare_seconds, test_seconds / bare_seconds);
    best_test = std::min(best_test, test_seconds);
    best_bare = std::min(best_bare, bare_seconds);
  }
  std::printf("best of %d: self-test %.2f s, bare %.2f s, ratio %.3f (target <= 1.1)\n", rounds,
              best_test, best_bare, best_test / best_bare);
  fs::remove_all(dir);
  return 0;
}
