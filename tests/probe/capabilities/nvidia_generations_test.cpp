#include "probe/capabilities/nvidia_generations.h"

#include <gtest/gtest.h>

#include "probe/capabilities/nvidia_rules.h"

namespace mc::probe {
namespace {

NvidiaFacts ComputeClassWithAnEncoder() {
  NvidiaFacts facts;
  facts.compute_capability = "9.0";
  facts.encoder.available = true;
  facts.encoder.codecs = {{"H264", {"High"}, false, 4096, 4096}};
  return facts;
}

TEST(NvidiaGenerations, ComputeCapabilitiesNameNvidiasGenerations) {
  EXPECT_EQ(NvidiaGeneration("8.6"), "Ampere");
  EXPECT_EQ(NvidiaGeneration("8.9"), "Ada");
  EXPECT_EQ(NvidiaGeneration("9.0"), "Hopper (compute-class, H100/H200)");
  EXPECT_EQ(NvidiaGeneration("7.0"), "");
}

TEST(NvidiaGenerations, AnEncoderOnAComputeClassDieIsAWarningButStaysPublished) {
  const NvidiaFacts facts = ComputeClassWithAnEncoder();
  const CapabilityValues values = EvaluateNvidiaFacts(facts);
  const std::vector<std::string> warnings = GenerationTableWarnings(facts, values);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("expects encodeH264=false on Hopper"), std::string::npos)
      << warnings[0];
  EXPECT_TRUE(CanEncode(values));
}

TEST(NvidiaGenerations, AGenerationTheTablesDoNotCoverRaisesNoWarning) {
  NvidiaFacts facts = ComputeClassWithAnEncoder();
  facts.compute_capability = "7.0";
  EXPECT_TRUE(GenerationTableWarnings(facts, EvaluateNvidiaFacts(facts)).empty());
}

TEST(NvidiaGenerations, AFailedTuringStatementOfEverythingIsAWarningPerCell) {
  NvidiaFacts facts;
  facts.compute_capability = "7.5";
  // Turing is expected to decode and encode H.264 and HEVC and VP9; stating nothing
  // disagrees in seven cells, and agrees in the two AV1 ones.
  EXPECT_EQ(GenerationTableWarnings(facts, EvaluateNvidiaFacts(facts)).size(), 7u);
}

TEST(NvidiaGenerations, TheLogHearsOfTheQuerysWarningsTheMissingEncoderAndTheTable) {
  NvidiaFacts facts = ComputeClassWithAnEncoder();
  facts.warnings = {"the driver version is unknown: cannot load libnvidia-ml.so.1"};
  const std::vector<std::string> warnings = NvidiaWarnings(facts);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], facts.warnings[0]);
  EXPECT_NE(warnings[1].find("expects encodeH264=false"), std::string::npos);

  facts.encoder = {};
  facts.encoder.unavailable_reason =
      "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)";
  EXPECT_EQ(NvidiaWarnings(facts),
            (std::vector<std::string>{facts.warnings[0],
                                      "the encoder is unavailable: NvEncOpenEncodeSessionEx "
                                      "failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)"}));
}

}  // namespace
}  // namespace mc::probe
