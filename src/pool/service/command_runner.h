// One bare-metal command, run without a shell under a deadline: `systemctl start
// media-worker@0`, `wakeonlan MAC`, `ssh HOST systemctl suspend`. The pool service has
// threads (its HTTP servers, its readers), so the command is started with posix_spawnp, never
// a fork that runs code of ours.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace mc::pool {

struct CommandSpec {
  // argv[0] is looked up on PATH when it has no slash, as a shell would.
  std::vector<std::string> argv;
  // Set in the command's environment on top of the service's own, replacing a variable of
  // the same name: NAME, value.
  std::vector<std::pair<std::string, std::string>> environment;
  std::chrono::milliseconds deadline{60000};
  // Only the last this many bytes of the output are kept.
  // A command that prints a lot is still logged by its end.
  // The end is where the reason for a failure is.
  std::size_t max_output = 4096;
};

struct CommandOutcome {
  enum class Kind {
    kExited,      // it ended by itself: `code` is its exit status
    kSignalled,   // a signal ended it: `code` is the signal
    kTimedOut,    // it was killed, with its process group, at the deadline
    kNotStarted,  // it could not be started: `code` is errno (ENOENT: no such program)
  };
  Kind kind = Kind::kNotStarted;
  int code = 0;
  // Its stdout and stderr together, in the order it wrote them (one pipe), the last
  // max_output bytes; `truncated` when more came before them.
  std::string output;
  bool truncated = false;
  std::chrono::milliseconds wall{0};

  bool Succeeded() const { return kind == Kind::kExited && code == 0; }
};

// RunCommand starts `spec.argv` in a process group of its own, with stdin from /dev/null.
// It returns once the command has ended: by itself, or killed at the deadline.
// Whatever it left running in its process group is killed when it ends.
// So nothing a command started outlives it, unless it left the group on purpose.
// A daemon's setsid does that.
CommandOutcome RunCommand(const CommandSpec& spec);

// DescribeOutcome says in words how a command ended, such as:
//  - "exited 1";
//  - "killed by signal 9";
//  - "killed after its deadline of 60 s";
//  - "not started: No such file or directory".
std::string DescribeOutcome(const CommandOutcome& outcome, const CommandSpec& spec);

}  // namespace mc::pool
