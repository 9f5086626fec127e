#include "support/cluster_suite.h"

#include <fstream>

namespace mc::testing {

Result<std::map<std::string, std::string>> ReadClusterEnv(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "cluster.env";
  std::ifstream in(file);
  if (!in) return NotFound("cannot read " + file.string());
  std::map<std::string, std::string> env;
  for (std::string line; std::getline(in, line);) {
    const std::size_t equals = line.find('=');
    if (line.empty() || line[0] == '#' || equals == std::string::npos) continue;
    std::string value = line.substr(equals + 1);
    if (value.size() >= 2 && value.front() == '\'' && value.back() == '\'')
      value = value.substr(1, value.size() - 2);
    env[line.substr(0, equals)] = value;
  }
  return env;
}

}  // namespace mc::testing
