// The NVENC session cap, as a DRA capacity named `encodeSessions`. Claims can consume sessions. The
// scheduler keeps a GPU at or under its cap.
//
// No API reports the cap (HandBrake #1666). So it comes from a documented table by driver version
// and board class. The cap is the driver's licensing rule, not the silicon's. NVIDIA's consumer
// boards are capped; professional and datacenter boards are not. The table and its sources are in
// docs/probe/nvidia.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

// The capacity name under which the cap is published.
inline constexpr char kEncodeSessionsCapacity[] = "encodeSessions";

enum class BoardClass {
  // GeForce and TITAN: the driver caps concurrent encode sessions.
  kConsumer,
  // Everything else has no driver cap: RTX/Quadro workstation, Tesla, datacenter.
  kProfessional,
};

// BoardClassOf reads the class from CUDA's device name. Example: "NVIDIA GeForce RTX 4090".
BoardClass BoardClassOf(std::string_view cuda_name);

// DriverBranch gives the major number of a driver version such as "580.159.04". nullopt when the
// text does not start with one.
std::optional<int> DriverBranch(std::string_view driver_version);

// EncodeSessionCap: how many encode sessions the driver allows at once on the system. nullopt where
// the driver sets no cap. An unknown branch on a consumer board gives the smallest cap any driver
// has set. Too large a capacity would let the scheduler place sessions the driver then refuses.
std::optional<int> EncodeSessionCap(std::optional<int> driver_branch, BoardClass board);

// ShareOfSystemCap divides a cap that holds for the whole system among one node's capped GPUs. The
// consumer cap counts the sessions of all consumer boards together. So the capacities of all of
// them add up to no more than the cap.
int ShareOfSystemCap(int cap, std::size_t capped_gpus);

// SessionCappedGpus counts the GPUs of one node that share the consumer cap. Those are the GPUs
// that:
// - answered their query;
// - are consumer boards;
// - can encode.
//
// BuildNvidiaDevice divides the cap by this count.
std::size_t SessionCappedGpus(const std::vector<Result<NvidiaFacts>>& facts);

}  // namespace mc::probe
