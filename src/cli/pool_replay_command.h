// `pool replay`: a `pool run`'s record played again in the simulator, its promotions and
// demotions compared with the real ones; with --strict, the recorded cycles fed to the policy
// alone, compared decision for decision (docs/pool/simulator.md, "The replay").
#pragma once

#include <string>

namespace mc {

struct ReplayOptions {
  std::string record_file;
  std::string config_file;  // the policy's YAML; empty: the record's own
  bool strict = false;
  bool json = false;
  bool reasons = false;  // the simulation's reasons, with their times, on stderr
};

// 0 when the replay agrees with the record, 1 when it does not (the first disagreement is
// named), 2 when the record or the configuration cannot be read.
int RunReplay(const ReplayOptions& options);

}  // namespace mc
