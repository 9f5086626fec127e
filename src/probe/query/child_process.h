// Children run with a deadline. The agent asks drivers its questions in child processes,
// because a driver may hang or crash; this module starts them, collects what they write,
// and kills any that outlive the deadline. All children of one call run at once and are
// watched by a single poll loop, so N render nodes cost the time of the slowest, not the
// sum, and no thread is needed.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace mc::probe {

struct ChildOutcome {
  enum class Kind { kExited, kSignalled, kTimedOut, kNotStarted };
  Kind kind = Kind::kNotStarted;
  // The exit status for kExited, the signal for kSignalled, errno for kNotStarted.
  int code = 0;
  std::string out;
  std::string err;
};

// ChildSpec is one child: a program to start (argv[0] is its path), or a function to run
// in a forked copy of this process, whose return value is the child's exit status. A
// forked child costs a fraction of a started one (no exec, no dynamic linking), but it is
// safe only from a process with a single thread; the query batch (query_batch.h) is one.
struct ChildSpec {
  std::vector<std::string> argv;
  std::function<int()> run;
};

// RunChildren runs each child with the caller's environment and returns the outcomes in
// the same order. A child still running at the deadline is killed with its whole process
// group. Output beyond max_output bytes per stream is dropped, so a runaway child cannot
// exhaust the parent's memory.
std::vector<ChildOutcome> RunChildren(const std::vector<ChildSpec>& children,
                                      std::chrono::milliseconds timeout,
                                      std::size_t max_output = 1 << 20);

// RunChildren runs each argv (argv[0] is the program's path) with the caller's
// environment and returns the outcomes in the same order. A child still running at the
// deadline is killed with its whole process group. Output beyond max_output bytes per
// stream is dropped, so a runaway child cannot exhaust the parent's memory.
std::vector<ChildOutcome> RunChildren(const std::vector<std::vector<std::string>>& commands,
                                      std::chrono::milliseconds timeout,
                                      std::size_t max_output = 1 << 20);

}  // namespace mc::probe
