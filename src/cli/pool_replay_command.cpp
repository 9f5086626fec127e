#include "cli/pool_replay_command.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "common/base/json_text.h"
#include "common/base/read_file.h"
#include "pool/policy/config_yaml.h"
#include "pool/replay/comparison.h"
#include "pool/replay/replay_inputs.h"
#include "pool/replay/strict_replay.h"
#include "pool/service/run_record.h"

namespace mc {

namespace {

constexpr int kCannotRead = 2;

int CannotReplay(const std::string& message) {
  std::cerr << "pool replay: " << message << "\n";
  return kCannotRead;
}

int Strict(const pool::RunRecord& record, const pool::PoolConfig& policy, bool json) {
  Result<pool::StrictResult> result = pool::StrictReplay(record, policy);
  if (!result) return CannotReplay(result.error_message());
  if (json) {
    nlohmann::json out{{"mode", "strict"},
                       {"agree", result->agrees},
                       {"cycles", result->cycles},
                       {"actions", result->actions},
                       {"reasons", result->reasons}};
    if (!result->agrees) out["first_disagreement"] = result->first_disagreement;
    std::cout << JsonText(out, 2) << "\n";
  } else {
    std::cout << pool::StrictTable(*result);
  }
  std::cout.flush();
  return result->agrees ? 0 : 1;
}

}  // namespace

int RunReplay(const ReplayOptions& options) {
  Result<std::string> text = ReadFileText(options.record_file);
  if (!text) return CannotReplay(text.error_message());
  Result<pool::RunRecord> record = pool::ParseRunRecord(*text, options.record_file);
  if (!record) return CannotReplay(record.error_message());
  if (!options.config_file.empty()) {
    Result<std::string> config_text = ReadFileText(options.config_file);
    if (!config_text) return CannotReplay(config_text.error_message());
    Result<pool::PoolConfig> config = pool::ParsePoolConfig(*config_text, options.config_file);
    if (!config) return CannotReplay(config.error_message());
    record->policy = std::move(*config);
  }
  if (options.strict) return Strict(*record, record->policy, options.json);

  Result<pool::ReplayInputs> inputs = pool::DeriveInputs(*record);
  if (!inputs) return CannotReplay(options.record_file + ": " + inputs.error_message());
  const pool::SimResult result = pool::Simulate(inputs->trace, inputs->workers, inputs->options);
  if (options.reasons) {
    for (const std::string& line : result.log) std::cerr << line << "\n";
  }
  const pool::Comparison comparison = pool::Compare(
      pool::RecordedEvents(*record), pool::SimulatedEvents(result), record->policy.cycle.count());
  if (options.json) {
    nlohmann::json out = nlohmann::json::parse(pool::ComparisonJson(comparison));
    out["mode"] = "simulator";
    out["notes"] = inputs->notes;
    out["simulated"] = {{"jobs", result.jobs},
                        {"completed", result.completed},
                        {"errored", result.errored},
                        {"unservable", result.unservable},
                        {"unfinished", result.unfinished},
                        {"retries", result.retries},
                        {"makespan", result.makespan_s}};
    std::cout << JsonText(out, 2) << "\n";
  } else {
    for (const std::string& note : inputs->notes) std::cout << "note: " << note << "\n";
    std::cout << pool::ComparisonTable(comparison);
  }
  std::cout.flush();
  return comparison.agrees ? 0 : 1;
}

}  // namespace mc
