// The NVENC session cap, as a DRA capacity named `encodeSessions`, so that claims can
// consume sessions and the scheduler keeps a GPU at or under its cap.
//
// No API reports the cap (HandBrake #1666), so it comes from a documented
// table by driver version and board class. The cap is the driver's licensing rule, not the
// silicon's: NVIDIA's consumer boards are capped, professional and datacenter boards are
// not. The table and its sources are in docs/probe/nvidia.md.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

// The name under which the cap is published as a capacity.
inline constexpr char kEncodeSessionsCapacity[] = "encodeSessions";

enum class BoardClass {
  // GeForce and TITAN boards: the driver caps concurrent encode sessions.
  kConsumer,
  // Everything else (RTX/Quadro workstation, Tesla and datacenter boards): no driver cap.
  kProfessional,
};

// BoardClassOf reads the class from CUDA's device name, such as "NVIDIA GeForce RTX 4090".
BoardClass BoardClassOf(std::string_view cuda_name);

// DriverBranch gives the major number of a driver version such as "580.159.04", or nullopt
// when the text does not start with one.
std::optional<int> DriverBranch(std::string_view driver_version);

// EncodeSessionCap gives the number of encode sessions the driver allows at once on the
// system, or nullopt where the driver sets no cap. An unknown driver branch on a consumer
// board gives the smallest cap any driver has set, because publishing too large a capacity
// would let the scheduler place sessions that the driver then refuses.
std::optional<int> EncodeSessionCap(std::optional<int> driver_branch, BoardClass board);

// ShareOfSystemCap divides a cap that holds for the whole system (the consumer cap counts
// the sessions of every consumer board together) among the capped GPUs of one node, so that
// the capacities of all of them add up to no more than the cap.
int ShareOfSystemCap(int cap, std::size_t capped_gpus);

// SessionCappedGpus counts the GPUs of one node that share the consumer cap: those whose
// query succeeded, that are consumer boards, and that can encode. It is the count
// BuildNvidiaDevice divides the cap by.
std::size_t SessionCappedGpus(const std::vector<Result<NvidiaFacts>>& facts);

}  // namespace mc::probe
