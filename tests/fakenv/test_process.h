// Processes for the tests of the fake GPU with real ffmpeg:
//  - started with extra environment variables;
//  - their output in files;
//  - waited for with wait4.
// wait4's rusage is the process's own CPU time, with its waited-for children's.
// The detached engine is never one of those children.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace fakenv::testing {

struct Finished {
  int exit_code = -1;  // -1 when killed by a signal
  // True when Wait's timeout ran out and it killed the process.
  bool timed_out = false;
  double cpu_seconds = 0;
  std::string out;
  std::string err;
};

class Process {
 public:
  // Start runs argv[0] (looked up on PATH) with the environment plus `env` ("NAME=value").
  Process(const std::vector<std::string>& argv, const std::vector<std::string>& env,
          const std::string& output_dir);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  // Wait waits at most `timeout`, then kills the process; either way it reports how it ended.
  Finished Wait(std::chrono::seconds timeout = std::chrono::seconds(120));

 private:
  pid_t pid_ = -1;
  std::string out_path_;
  std::string err_path_;
  bool waited_ = false;
};

// Run starts a process and waits for it.
Finished Run(const std::vector<std::string>& argv, const std::vector<std::string>& env,
             const std::string& output_dir);

}  // namespace fakenv::testing
