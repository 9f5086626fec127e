#include "probe/capabilities/nvidia_rules.h"

#include <algorithm>

#include "probe/facts/cuvid_names.h"

namespace mc::probe {
namespace {

bool DecoderSupports(const NvidiaFacts& facts, const NvRule& rule) {
  return std::ranges::any_of(facts.decoders, [&](const NvDecoderCaps& caps) {
    return caps.supported && caps.codec == rule.codec && caps.chroma == rule.chroma &&
           caps.bit_depth == rule.bit_depth;
  });
}

bool EncoderSupports(const NvidiaFacts& facts, const NvRule& rule) {
  if (!facts.encoder.available) return false;
  return std::ranges::any_of(facts.encoder.codecs, [&](const NvEncoderCodec& codec) {
    if (codec.codec != rule.nvenc_codec) return false;
    if (!rule.nvenc_profile.empty() &&
        std::ranges::find(codec.profiles, rule.nvenc_profile) == codec.profiles.end()) {
      return false;
    }
    return !rule.needs_10bit || codec.supports_10bit;
  });
}

bool ScalerSupports(const NvidiaFacts& facts, const NvRule& rule) {
  if (!facts.cuda_context) return false;
  const std::uint32_t flag = 1u << static_cast<unsigned>(rule.surface_format);
  return std::ranges::any_of(facts.decoders, [&](const NvDecoderCaps& caps) {
    return caps.supported && (caps.output_formats & flag) != 0;
  });
}

}  // namespace

bool NvRuleHolds(const NvRule& rule, const NvidiaFacts& facts) {
  switch (rule.kind) {
    case NvRule::Kind::kNever:
      return false;
    case NvRule::Kind::kDecoder:
      return DecoderSupports(facts, rule);
    case NvRule::Kind::kEncoder:
      return EncoderSupports(facts, rule);
    case NvRule::Kind::kScaler:
      return ScalerSupports(facts, rule);
  }
  return false;
}

CapabilityValues EvaluateNvidiaFacts(const NvidiaFacts& facts) {
  CapabilityValues values{};
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    values[i] = NvRuleHolds(kCapabilities[i].nvidia, facts);
  }
  return values;
}

bool CanEncode(const CapabilityValues& values) {
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    if (values[i] && kCapabilities[i].nvidia.kind == NvRule::Kind::kEncoder) return true;
  }
  return false;
}

std::string NvRuleText(const NvRule& rule) {
  switch (rule.kind) {
    case NvRule::Kind::kNever:
      return "never: NVENC has no low-power entry point";
    case NvRule::Kind::kDecoder:
      return "`cuvidGetDecoderCaps` supports " +
             DecoderCapsLabel(rule.codec, rule.chroma, rule.bit_depth);
    case NvRule::Kind::kEncoder: {
      std::string text =
          "an NVENC session lists the `" + std::string(rule.nvenc_codec) + "` codec GUID";
      if (!rule.nvenc_profile.empty())
        text += " with the `" + std::string(rule.nvenc_profile) + "` profile GUID";
      if (rule.needs_10bit) text += " and `NV_ENC_CAPS_SUPPORT_10BIT_ENCODE`";
      return text;
    }
    case NvRule::Kind::kScaler:
      return "a CUDA context and a supported decoder whose output formats hold `" +
             CuvidSurfaceFormatName(rule.surface_format) + "`";
  }
  return "";
}

}  // namespace mc::probe
