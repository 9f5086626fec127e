// `pool replay` plays a `pool run`'s record again in the simulator. It compares its promotions
// and demotions with the real ones. With --strict, it feeds the recorded cycles to the policy
// alone and compares decision for decision (docs/pool/simulator.md, "The replay").
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

// The exit status:
//  - 0 when the replay agrees with the record;
//  - 1 when it does not (the first disagreement is named);
//  - 2 when the record or the configuration cannot be read.
int RunReplay(const ReplayOptions& options);

}  // namespace mc
