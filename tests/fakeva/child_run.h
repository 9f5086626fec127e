// RunChild runs a program the way the fake-driver tests need:
//  - with a chosen environment;
//  - its stdout and stderr captured;
//  - no core dump;
//  - a deadline after which it is killed.
// The tests run Debian's vainfo against the fake driver with it.
// That includes the runs that hang or crash on purpose.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace mc::fakeva::testing {

struct ChildRun {
  std::vector<std::string> argv;
  // Set in the child's environment, replacing the inherited value.
  std::map<std::string, std::string> environment;
  // Inherited variables left out of the child's environment.
  // So the caller's own LD_PRELOAD or LIBVA_* settings do not leak into a test's run.
  // A name ending in '*' leaves out every variable it is a prefix of.
  std::vector<std::string> unset;
  std::chrono::milliseconds deadline{10'000};
};

struct ChildOutcome {
  bool started = false;    // false when fork or exec failed (see error)
  bool timed_out = false;  // killed with SIGKILL at the deadline
  bool exited = false;
  int exit_code = -1;
  int signal = 0;  // the signal that ended it, when it did not exit
  std::string out;
  std::string err;
  std::string error;
};

ChildOutcome RunChild(const ChildRun& run);

// Describe is an outcome in one line, for test failure messages.
std::string Describe(const ChildOutcome& outcome);

}  // namespace mc::fakeva::testing
