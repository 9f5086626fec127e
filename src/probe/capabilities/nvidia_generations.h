// NVIDIA's NVENC and NVDEC support by generation (docs/probe/nvidia.md). It is data for one use
// only: a warning in the log. The warning comes when what the driver states disagrees. The table
// never sets a capability. A disagreement means one of these:
// - the table is stale;
// - the board is cut down;
// - the driver is wrong for that board.
//
// An operator should look. The published value stays the driver's own statement.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probe/capabilities/capability_table.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

// NvidiaGeneration names the architecture of a CUDA compute capability: "8.6" is "Ampere". It
// returns empty for one the tables do not cover. The compute-class dies have names apart from their
// consumer siblings. They are A100, H100/H200, B100/B200, and have no NVENC at all.
std::string_view NvidiaGeneration(std::string_view compute_capability);

// GenerationTableWarnings compares the driver's capabilities with the tables for the GPU's
// generation. One warning per disagreement.
std::vector<std::string> GenerationTableWarnings(const NvidiaFacts& facts,
                                                 const CapabilityValues& values);

// NvidiaWarnings: all the log should say of one GPU's answer beyond its capabilities:
// - the query's own warnings;
// - why the encoder is unavailable, when it is;
// - the generation table's disagreements.
std::vector<std::string> NvidiaWarnings(const NvidiaFacts& facts);

}  // namespace mc::probe
