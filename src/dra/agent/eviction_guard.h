// The guard on the agent's request for a new pod of itself.
//
// A render node may appear in liken's slices after the agent's pod was made.
// That node is not in the pod's /dev: its claim was allocated before the node existed.
// Only a new pod, with a new claim, brings it in, so the agent evicts its own pod.
//
// The new pod may still lack the node, e.g. when liken's plugin left it out.
// Then a second eviction would not help either.
// An agent that kept evicting itself would never serve.
// So the guard allows a few evictions per render node, further and further apart.
// Then it gives up and says so.
// Its record lives in a file on the node.
// Each eviction ends the process that would remember it.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc::dra {

using WallClock = std::chrono::system_clock;

struct EvictionRecord {
  int evictions = 0;
  WallClock::time_point last;
  bool operator==(const EvictionRecord&) const = default;
};

// By liken device name, such as "pci-0000-03-00-0".
using EvictionRecords = std::map<std::string, EvictionRecord>;

struct EvictionDecision {
  // The render nodes to evict the pod for now; empty when the pod stays.
  std::vector<std::string> evict_for;
  // Missing render nodes for which the guard has used every eviction it allows.
  std::vector<std::string> given_up;
  // When the next eviction becomes due, for a missing node still waiting.
  // The epoch when none is.
  WallClock::time_point next_due;
};

// The wait before each eviction for one render node.
// It is indexed by how many were made for it before.
// The first is at once, since nothing else brings the node in.
// Then the waits grow longer.
// The number of entries is the most evictions made for one node.
inline constexpr std::chrono::minutes kEvictionWaits[] = {
    std::chrono::minutes(0), std::chrono::minutes(15), std::chrono::minutes(120)};

// DecideSelfEviction is the guard as a pure function of:
//  - the render nodes missing from the pod;
//  - what was done before;
//  - the time.
EvictionDecision DecideSelfEviction(const std::vector<std::string>& missing,
                                    const EvictionRecords& records, WallClock::time_point now);

// AfterEviction is the record once the pod was evicted for `nodes` at `now`.
// Their counts go up.
// Records of nodes no longer missing are dropped, so the file never grows.
EvictionRecords AfterEviction(const EvictionRecords& records,
                              const std::vector<std::string>& missing,
                              const std::vector<std::string>& nodes, WallClock::time_point now);

// The record as a JSON document, and read back.
// It is outside input: anything with root on the node may edit the file.
// So a malformed one is an error naming the place.
std::string EvictionRecordsJson(const EvictionRecords& records);
Result<EvictionRecords> ParseEvictionRecords(const std::string& text);

// Load gives an empty record for a file that does not exist.
// Save writes a new file and renames it over the old.
// So a crash mid-write leaves the old record whole.
Result<EvictionRecords> LoadEvictionRecords(const std::filesystem::path& file);
Result<void> SaveEvictionRecords(const std::filesystem::path& file, const EvictionRecords& records);

}  // namespace mc::dra
