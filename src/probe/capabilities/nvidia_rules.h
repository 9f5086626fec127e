// The NVIDIA column of the capability table, applied: from what CUDA, NVDEC and NVENC
// stated to the value of every capability. Pure; it reads facts and nothing else, and it
// never infers a capability from the GPU's model or generation.
#pragma once

#include <string>

#include "probe/capabilities/capability_table.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

bool NvRuleHolds(const NvRule& rule, const NvidiaFacts& facts);

CapabilityValues EvaluateNvidiaFacts(const NvidiaFacts& facts);

// CanEncode says whether any capability of an NVENC rule holds: a GPU that can encode
// nothing uses no encode sessions and gets no encodeSessions capacity.
bool CanEncode(const CapabilityValues& values);

// NvRuleText says in words what a rule asks of the driver, for the attribute reference,
// such as "`cuvidGetDecoderCaps` supports HEVC 4:2:0 10-bit".
std::string NvRuleText(const NvRule& rule);

}  // namespace mc::probe
