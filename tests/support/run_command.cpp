#include "support/run_command.h"

namespace mc::testing {

probe::ChildOutcome RunCommand(const std::vector<std::string>& argv,
                               const std::vector<std::string>& env,
                               std::chrono::milliseconds timeout) {
  std::vector<std::string> command = {"/usr/bin/env"};
  command.insert(command.end(), env.begin(), env.end());
  command.insert(command.end(), argv.begin(), argv.end());
  return probe::RunChildren({command}, timeout)[0];
}

std::vector<std::string> CommandLine(std::initializer_list<std::vector<std::string>> pieces) {
  std::vector<std::string> argv;
  for (const std::vector<std::string>& piece : pieces)
    argv.insert(argv.end(), piece.begin(), piece.end());
  return argv;
}

}  // namespace mc::testing
