// QueryTarget names one driver query:
// - a render node, asked through VA-API;
// - an NVIDIA GPU, asked through CUDA, NVDEC and NVENC.
//
// It crosses from the parent to the query batch as one command-line argument. Examples:
// "va=/dev/dri/renderD128", "nvidia=0000:01:00.0". The session-slot test adds "nvidia+sessions=".
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::probe {

struct QueryTarget {
  enum class Api { kVa, kNvidia };
  Api api = Api::kVa;
  // The render node's path, or the GPU's canonical PCI address.
  std::string where;
  bool measure_sessions = false;

  bool operator==(const QueryTarget&) const = default;
};

std::string TargetArgument(const QueryTarget& target);
Result<QueryTarget> ParseTargetArgument(std::string_view argument);

}  // namespace mc::probe
