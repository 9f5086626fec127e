// The NVIDIA column of the capability table, applied. It maps what CUDA, NVDEC and NVENC stated to
// every capability's value. Pure: it reads facts and nothing else. It never infers a capability
// from the GPU's model or generation.
#pragma once

#include <string>

#include "probe/capabilities/capability_table.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

bool NvRuleHolds(const NvRule& rule, const NvidiaFacts& facts);

CapabilityValues EvaluateNvidiaFacts(const NvidiaFacts& facts);

// CanEncode: whether any capability of an NVENC rule holds. A GPU that can encode nothing uses no
// encode sessions. It gets no encodeSessions capacity.
bool CanEncode(const CapabilityValues& values);

// NvRuleText says what a rule asks of the driver, for the attribute reference. Example:
// "`cuvidGetDecoderCaps` supports HEVC 4:2:0 10-bit".
std::string NvRuleText(const NvRule& rule);

}  // namespace mc::probe
