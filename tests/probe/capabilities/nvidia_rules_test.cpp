#include "probe/capabilities/nvidia_rules.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "probe/nvidia/nvdec_caps.h"

namespace mc::probe {
namespace {

std::size_t Index(std::string_view name) {
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    if (kCapabilities[i].name == name) return i;
  }
  ADD_FAILURE() << "no capability " << name;
  return 0;
}

bool Holds(const NvidiaFacts& facts, std::string_view name) {
  return EvaluateNvidiaFacts(facts)[Index(name)];
}

NvDecoderCaps Decodes(cudaVideoCodec codec, int bit_depth, std::uint32_t formats) {
  return {codec, cudaVideoChromaFormat_420, bit_depth, true, 1, 4096, 4096, formats};
}

NvidiaFacts EncodesHevc(std::vector<std::string> profiles, bool ten_bit) {
  NvidiaFacts facts;
  facts.cuda_context = true;
  facts.encoder.available = true;
  facts.encoder.codecs = {{"HEVC", std::move(profiles), ten_bit, 8192, 8192}};
  return facts;
}

TEST(NvidiaRules, NoFactsMakeNoCapabilityTrue) {
  const CapabilityValues values = EvaluateNvidiaFacts(NvidiaFacts{});
  EXPECT_TRUE(std::none_of(values.begin(), values.end(), [](bool v) { return v; }));
}

TEST(NvidiaRules, ADecoderCountsOnlyWhenTheDriverSaysItIsSupported) {
  NvidiaFacts facts;
  facts.decoders = {Decodes(cudaVideoCodec_HEVC, 10, 0x3)};
  EXPECT_TRUE(Holds(facts, "decodeHEVCMain10"));
  EXPECT_FALSE(Holds(facts, "decodeHEVCMain"));
  facts.decoders[0].supported = false;
  EXPECT_FALSE(Holds(facts, "decodeHEVCMain10"));
}

TEST(NvidiaRules, AnotherChromaFormatIsNotTheOneTheRuleAsks) {
  NvidiaFacts facts;
  facts.decoders = {Decodes(cudaVideoCodec_HEVC, 8, 0x4)};
  facts.decoders[0].chroma = cudaVideoChromaFormat_444;
  EXPECT_FALSE(Holds(facts, "decodeHEVCMain"));
}

TEST(NvidiaRules, Vp9Profile2IsTenBitVp9) {
  NvidiaFacts facts;
  facts.decoders = {Decodes(cudaVideoCodec_VP9, 10, 0x3)};
  EXPECT_TRUE(Holds(facts, "decodeVP9Profile2"));
  EXPECT_FALSE(Holds(facts, "decodeVP9"));
}

TEST(NvidiaRules, Main10EncodeNeedsTheProfileAndTheTenBitCap) {
  EXPECT_TRUE(Holds(EncodesHevc({"Main", "Main10"}, true), "encodeHEVCMain10"));
  EXPECT_FALSE(Holds(EncodesHevc({"Main", "Main10"}, false), "encodeHEVCMain10"));
  EXPECT_FALSE(Holds(EncodesHevc({"Main"}, true), "encodeHEVCMain10"));
  EXPECT_TRUE(Holds(EncodesHevc({"Main"}, false), "encodeHEVCMain"));
}

TEST(NvidiaRules, H264EncodeNeedsTheHighProfile) {
  NvidiaFacts facts = EncodesHevc({}, false);
  facts.encoder.codecs = {{"H264", {"Baseline", "Main"}, false, 4096, 4096}};
  EXPECT_FALSE(Holds(facts, "encodeH264"));
  facts.encoder.codecs[0].profiles.push_back("High");
  EXPECT_TRUE(Holds(facts, "encodeH264"));
}

TEST(NvidiaRules, Av1EncodeNeedsTheCodecAndForTenBitsTheCap) {
  NvidiaFacts facts = EncodesHevc({}, false);
  facts.encoder.codecs = {{"AV1", {"AutoSelect", "Main"}, false, 8192, 8192}};
  EXPECT_TRUE(Holds(facts, "encodeAV1Main"));
  EXPECT_FALSE(Holds(facts, "encodeAV1Main10"));
  facts.encoder.codecs[0].supports_10bit = true;
  EXPECT_TRUE(Holds(facts, "encodeAV1Main10"));
}

TEST(NvidiaRules, AnUnavailableEncoderEncodesNothingWhateverItListed) {
  NvidiaFacts facts = EncodesHevc({"Main", "Main10"}, true);
  facts.encoder.available = false;
  facts.encoder.unavailable_reason = "NvEncGetEncodeCaps failed";
  EXPECT_FALSE(CanEncode(EvaluateNvidiaFacts(facts)));
}

TEST(NvidiaRules, LowPowerEncodersAreNeverTrue) {
  NvidiaFacts facts = EncodesHevc({"Main", "Main10"}, true);
  facts.encoder.codecs.push_back({"H264", {"High"}, false, 4096, 4096});
  EXPECT_FALSE(Holds(facts, "encodeH264LowPower"));
  EXPECT_FALSE(Holds(facts, "encodeHEVCMainLowPower"));
  EXPECT_FALSE(Holds(facts, "encodeHEVCMain10LowPower"));
}

TEST(NvidiaRules, ScalingNeedsTheOutputFormatAndAWorkingContext) {
  NvidiaFacts facts;
  facts.cuda_context = true;
  facts.decoders = {Decodes(cudaVideoCodec_H264, 8, 0x1)};
  EXPECT_TRUE(Holds(facts, "scale8bit"));
  EXPECT_FALSE(Holds(facts, "scale10bit"));
  facts.decoders.push_back(Decodes(cudaVideoCodec_HEVC, 10, 0x3));
  EXPECT_TRUE(Holds(facts, "scale10bit"));
  facts.cuda_context = false;
  EXPECT_FALSE(Holds(facts, "scale8bit"));
  EXPECT_FALSE(Holds(facts, "scale10bit"));
}

TEST(NvidiaRules, TheChildAsksEveryQuestionTheTablesDecoderRulesNeed) {
  for (const Capability& capability : kCapabilities) {
    const NvRule& rule = capability.nvidia;
    if (rule.kind != NvRule::Kind::kDecoder) continue;
    const bool asked = std::ranges::any_of(kDecodeQuestions, [&](const DecodeQuestion& q) {
      return q.codec == rule.codec && q.chroma == rule.chroma && q.bit_depth == rule.bit_depth;
    });
    EXPECT_TRUE(asked) << capability.name;
  }
}

TEST(NvidiaRules, EveryQuestionTheChildAsksServesARule) {
  for (const DecodeQuestion& q : kDecodeQuestions) {
    const bool used = std::ranges::any_of(kCapabilities, [&](const Capability& capability) {
      const NvRule& rule = capability.nvidia;
      return rule.kind == NvRule::Kind::kDecoder && q.codec == rule.codec &&
             q.chroma == rule.chroma && q.bit_depth == rule.bit_depth;
    });
    EXPECT_TRUE(used) << q.codec << "/" << q.bit_depth;
  }
}

TEST(NvidiaRules, EveryRowHasAnNvidiaRuleInWords) {
  for (const Capability& capability : kCapabilities) {
    EXPECT_FALSE(NvRuleText(capability.nvidia).empty()) << capability.name;
  }
  EXPECT_EQ(NvRuleText(kCapabilities[Index("decodeHEVCMain10")].nvidia),
            "`cuvidGetDecoderCaps` supports HEVC 4:2:0 10-bit");
  EXPECT_EQ(NvRuleText(kCapabilities[Index("encodeHEVCMain10")].nvidia),
            "an NVENC session lists the `HEVC` codec GUID with the `Main10` profile GUID and "
            "`NV_ENC_CAPS_SUPPORT_10BIT_ENCODE`");
}

}  // namespace
}  // namespace mc::probe
