// The status tests' checks by real outside tools: the JSON Schema validator of
// python3-jsonschema and the Prometheus text parser of python3-prometheus-client.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::worker::testing {

// ValidateAgainstSchema writes each document to the directory and runs the validator on all of
// them; it gives the validator's outcome (code 0 when every document is valid).
inline probe::ChildOutcome ValidateAgainstSchema(const mc::testing::TempDir& dir,
                                                 const std::vector<std::string>& documents) {
  std::vector<std::string> argv = {WORKER_PYTHON, WORKER_VALIDATE_STATUS, WORKER_STATUS_SCHEMA};
  for (std::size_t i = 0; i < documents.size(); ++i) {
    argv.push_back(dir.Write("status-" + std::to_string(i) + ".json", documents[i]).string());
  }
  return mc::testing::RunCommand(argv);
}

// ParseMetrics gives the families the Prometheus parser read from the text, or a discarded
// value with the parser's error in `error`.
inline nlohmann::json ParseMetrics(const mc::testing::TempDir& dir, const std::string& text,
                                   std::string& error) {
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {WORKER_PYTHON, WORKER_PARSE_METRICS, dir.Write("metrics.txt", text).string()});
  error = run.err;
  if (run.kind != probe::ChildOutcome::Kind::kExited || run.code != 0)
    return nlohmann::json::value_t::discarded;
  return nlohmann::json::parse(run.out, nullptr, false);
}

}  // namespace mc::worker::testing
