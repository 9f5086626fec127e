// `worker serve` as a test runs it: started in the background (through a run-on script or
// not) with its stderr in a file, its listening address read from its log, and stopped by a
// signal whose exit status the test checks.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace mc::worker::testing {

class ServeProcess {
 public:
  // Start runs argv with the environment plus `env` ("NAME=value"), stderr to `log_file`.
  ServeProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env,
               const std::string& log_file);
  ~ServeProcess();
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  // ListeningOn waits for the log's "worker serve: listening on HOST:PORT (" and gives
  // HOST:PORT. It gives nothing when the process ended first or the time ran out.
  std::optional<std::string> ListeningOn(std::chrono::seconds timeout);
  // Log is what the process has written to stderr so far.
  std::string Log() const;
  // Stop sends `signal` to the server (the child of a run-on script, when one started it) and
  // gives its exit status, -1 when it did not exit by itself within `timeout`.
  int Stop(int signal, std::chrono::seconds timeout);

 private:
  pid_t pid_ = -1;
  std::string log_file_;
  bool reaped_ = false;
};

// ServedAddress is HOST:PORT from a log line "worker serve: listening on HOST:PORT (...)".
// A failure to listen ("listening on HOST:PORT: Address already in use") gives nothing.
std::optional<std::string> ServedAddress(const std::string& log);

// Get asks `path` of HOST:PORT (IPv4) and gives the status and the body; status 0 when no
// answer came.
struct Answer {
  int status = 0;
  std::string content_type;
  std::string body;
};
Answer Get(const std::string& address, const std::string& path);

// GetWhenGathered asks until the answer is no longer the 503 of a server that has not
// finished its first gathering.
Answer GetWhenGathered(const std::string& address, const std::string& path,
                       std::chrono::seconds timeout);

}  // namespace mc::worker::testing
