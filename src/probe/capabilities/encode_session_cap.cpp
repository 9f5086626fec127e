#include "probe/capabilities/encode_session_cap.h"

#include <array>
#include <charconv>

#include "probe/capabilities/nvidia_rules.h"

namespace mc::probe {
namespace {

// kConsumerCaps: the consumer cap by the first driver branch that set it, oldest first.
// docs/probe/nvidia.md has the reasoning. Sources:
// - jellyfin.org's hardware-acceleration known-issues page;
// - gz-common #125;
// - nvidia-container-toolkit #180;
// - the 530.41.03 release, for the step to 5.
//
// Some sources date the 5-to-8 step to branch 536, others to 550. The smaller number is kept
// between the two. A capacity too large is the one wrong answer the scheduler cannot recover from.
struct BranchCap {
  int first_branch;
  int sessions;
};
constexpr std::array<BranchCap, 4> kConsumerCaps{{
    {0, 3},
    {530, 5},
    {550, 8},
    {590, 12},
}};

}  // namespace

BoardClass BoardClassOf(std::string_view cuda_name) {
  // CUDA names consumer boards "NVIDIA GeForce ..." (older drivers "GeForce ...") and "NVIDIA TITAN
  // ...". Workstation and datacenter boards never carry either word.
  const bool consumer = cuda_name.find("GeForce") != std::string_view::npos ||
                        cuda_name.find("TITAN") != std::string_view::npos;
  return consumer ? BoardClass::kConsumer : BoardClass::kProfessional;
}

std::optional<int> DriverBranch(std::string_view driver_version) {
  int branch = 0;
  const char* first = driver_version.data();
  const char* last = first + driver_version.size();
  auto [end, error] = std::from_chars(first, last, branch);
  if (error != std::errc() || end == first || branch <= 0) return std::nullopt;
  if (end != last && *end != '.') return std::nullopt;
  return branch;
}

std::optional<int> EncodeSessionCap(std::optional<int> driver_branch, BoardClass board) {
  if (board == BoardClass::kProfessional) return std::nullopt;
  if (!driver_branch) return kConsumerCaps.front().sessions;
  int sessions = kConsumerCaps.front().sessions;
  for (const BranchCap& step : kConsumerCaps) {
    if (*driver_branch >= step.first_branch) sessions = step.sessions;
  }
  return sessions;
}

int ShareOfSystemCap(int cap, std::size_t capped_gpus) {
  if (capped_gpus <= 1) return cap;
  return cap / static_cast<int>(capped_gpus);
}

std::size_t SessionCappedGpus(const std::vector<Result<NvidiaFacts>>& facts) {
  std::size_t count = 0;
  for (const Result<NvidiaFacts>& gpu : facts) {
    if (!gpu || BoardClassOf(gpu->name) != BoardClass::kConsumer) continue;
    if (CanEncode(EvaluateNvidiaFacts(*gpu))) ++count;
  }
  return count;
}

}  // namespace mc::probe
