// NVIDIA's NVENC and NVDEC support by generation (docs/probe/nvidia.md), kept as data for one use
// only: a warning in the log when what the driver states disagrees with them. They never
// set a capability. A disagreement means the table is stale, the board is cut down, or
// the driver is wrong for that board; an operator should look, and the published value
// stays the driver's own statement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/capabilities/capability_table.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

// NvidiaGeneration names the architecture of a CUDA compute capability ("8.6" is
// "Ampere"), or returns empty for one the tables do not cover. The compute-class
// dies (A100, H100/H200, B100/B200) are named apart from their consumer siblings because
// they have no NVENC at all.
std::string_view NvidiaGeneration(std::string_view compute_capability);

// GenerationTableWarnings compares the capabilities the driver's facts gave with what the
// tables expect of the GPU's generation, one warning per disagreement.
std::vector<std::string> GenerationTableWarnings(const NvidiaFacts& facts,
                                                 const CapabilityValues& values);

// NvidiaWarnings is everything the log should say about one GPU's answer beyond its
// capabilities: the query's own warnings, why the encoder is unavailable when it is, and the
// generation table's disagreements.
std::vector<std::string> NvidiaWarnings(const NvidiaFacts& facts);

}  // namespace mc::probe
