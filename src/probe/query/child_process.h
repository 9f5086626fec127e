// Children run with a deadline. The agent asks drivers its questions in child processes. A driver
// may hang or crash. This module starts the children, collects what they write, and kills any past
// the deadline. All children of one call run at once. A single poll loop watches them. So N render
// nodes cost the time of the slowest, not the sum. No thread is needed.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace mc::probe {

struct ChildOutcome {
  enum class Kind { kExited, kSignalled, kTimedOut, kNotStarted };
  Kind kind = Kind::kNotStarted;
  // Exit status for kExited, signal for kSignalled, errno for kNotStarted.
  int code = 0;
  std::string out;
  std::string err;
};

// ChildSpec is one child. It is either:
// - a program to start, argv[0] being its path; or
// - a function to run in a forked copy of this process, returning the child's exit status.
//
// A forked child costs a fraction of a started one: no exec, no dynamic linking. But it is safe
// only from a process with a single thread. The query batch (query_batch.h) is one.
struct ChildSpec {
  std::vector<std::string> argv;
  std::function<int()> run;
};

// RunChildren runs each child with the caller's environment. It returns the outcomes in the same
// order. A child still running at the deadline is killed with its whole process group. Output past
// max_output bytes per stream is dropped. So a runaway child cannot exhaust the parent's memory.
std::vector<ChildOutcome> RunChildren(const std::vector<ChildSpec>& children,
                                      std::chrono::milliseconds timeout,
                                      std::size_t max_output = 1 << 20);

// RunChildren runs each argv with the caller's environment; argv[0] is the program's path. It
// returns the outcomes in the same order. A child still running at the deadline is killed with its
// whole process group. Output past max_output bytes per stream is dropped. So a runaway child
// cannot exhaust the parent's memory.
std::vector<ChildOutcome> RunChildren(const std::vector<std::vector<std::string>>& commands,
                                      std::chrono::milliseconds timeout,
                                      std::size_t max_output = 1 << 20);

}  // namespace mc::probe
