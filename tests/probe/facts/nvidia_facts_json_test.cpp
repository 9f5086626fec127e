#include "probe/facts/nvidia_facts_json.h"

#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/dynlink_cuviddec.h>
#include <gtest/gtest.h>

#include "probe/facts/cuvid_names.h"

namespace mc::probe {
namespace {

NvidiaFacts SomeFacts() {
  NvidiaFacts facts;
  facts.driver_version = "580.159.04";
  facts.cuda_driver_version = 13000;
  facts.name = "NVIDIA H200";
  facts.pci_address = "0000:00:06.0";
  facts.cuda_ordinal = 1;
  facts.compute_capability = "9.0";
  facts.cuda_context = true;
  facts.decoders = {{cudaVideoCodec_HEVC, cudaVideoChromaFormat_420, 10, true, 7, 8192, 8192, 0x3},
                    {cudaVideoCodec_AV1, cudaVideoChromaFormat_420, 8, false, 0, 0, 0, 0}};
  facts.encoder.available = true;
  facts.encoder.max_api_version = "13.0";
  facts.encoder.codecs = {{"HEVC", {"AutoSelect", "Main", "Main10"}, true, 8192, 8192},
                          {"{01234567-89ab-cdef-0123-456789abcdef}", {}, false, 0, 0}};
  facts.sessions =
      NvSessionCount{8, "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_OUT_OF_MEMORY (10)"};
  facts.warnings = {"libcuda.so.1 has no cuDriverGetVersion"};
  return facts;
}

TEST(NvidiaFactsJson, ARoundTripKeepsEveryFact) {
  const NvidiaFacts facts = SomeFacts();
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(NvidiaFactsToJson(facts));
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(*parsed, facts);
}

TEST(NvidiaFactsJson, AnUnavailableEncoderKeepsItsReasonAndStatus) {
  NvidiaFacts facts = SomeFacts();
  facts.encoder = {};
  facts.encoder.unavailable_reason =
      "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)";
  facts.encoder.open_status = 2;
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(NvidiaFactsToJson(facts));
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(parsed->encoder, facts.encoder);
}

TEST(NvidiaFactsJson, CodecsAndFormatsAreWrittenByName) {
  const std::string json = NvidiaFactsToJson(SomeFacts());
  EXPECT_NE(json.find(R"("codec": "HEVC")"), std::string::npos);
  EXPECT_NE(json.find(R"("chroma": "420")"), std::string::npos);
  EXPECT_NE(json.find(R"("P016")"), std::string::npos);
}

TEST(NvidiaFactsJson, ANumberWithoutANameSurvivesARoundTrip) {
  NvidiaFacts facts = SomeFacts();
  facts.decoders[0].codec = 42;
  facts.decoders[0].output_formats = 1u << 9;
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(NvidiaFactsToJson(facts));
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(parsed->decoders[0].codec, 42);
  EXPECT_EQ(parsed->decoders[0].output_formats, 1u << 9);
  EXPECT_EQ(CuvidCodecName(42), "#42");
}

TEST(NvidiaFactsJson, ANamedNumberWrittenAsANumberIsRejected) {
  // One value has one spelling, so that a round trip always gives back the same text.
  EXPECT_EQ(CuvidCodecFromName("#8"), std::nullopt);
  EXPECT_EQ(CuvidCodecFromName("HEVC"), cudaVideoCodec_HEVC);
}

TEST(NvidiaFactsJson, AnErrorNamesThePlaceOfTheBadValue) {
  std::string json = NvidiaFactsToJson(SomeFacts());
  json.replace(json.find(R"("chroma": "420")"), 15, R"("chroma": "4:2:1")");
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(json);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "decoders[0].chroma: unknown chroma format \"4:2:1\"");
}

TEST(NvidiaFactsJson, ACudaOrdinalMayBeAbsentButNeverNegative) {
  NvidiaFacts facts = SomeFacts();
  facts.cuda_ordinal.reset();
  const std::string json = NvidiaFactsToJson(facts);
  EXPECT_EQ(json.find("cudaOrdinal"), std::string::npos);
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(json);
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(parsed->cuda_ordinal, std::nullopt);

  std::string negative = NvidiaFactsToJson(SomeFacts());
  negative.replace(negative.find(R"("cudaOrdinal": 1)"), 16, R"("cudaOrdinal": -1)");
  parsed = ParseNvidiaFacts(negative);
  ASSERT_FALSE(parsed);
  EXPECT_NE(parsed.error_message().find("cudaOrdinal"), std::string::npos)
      << parsed.error_message();
}

TEST(NvidiaFactsJson, AMissingMemberIsNamed) {
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(
      R"({"driverVersion":"","cudaDriverVersion":0,"name":"","pciAddress":"","computeCapability":"",)"
      R"("cudaContext":true,"decoders":[]})");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "encoder: missing");
}

TEST(NvidiaFactsJson, AnAvailableEncoderWithAReasonIsRejected) {
  NvidiaFacts facts = SomeFacts();
  facts.encoder.unavailable_reason = "contradiction";
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(NvidiaFactsToJson(facts));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "encoder: an available encoder has an unavailableReason");
}

TEST(NvidiaFactsJson, ASurfaceFormatListedTwiceIsRejected) {
  std::string json = NvidiaFactsToJson(SomeFacts());
  const std::size_t at = json.find(R"("P016")");
  json.replace(at, 6, R"("NV12")");
  Result<NvidiaFacts> parsed = ParseNvidiaFacts(json);
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "decoders[0].outputFormats[1]: \"NV12\" is listed twice");
}

TEST(NvidiaFactsJson, TextThatIsNotJsonIsRejected) {
  Result<NvidiaFacts> parsed = ParseNvidiaFacts("Cannot load libcuda.so.1\n{");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "the report is not JSON");
}

TEST(NvidiaFactsJson, DecoderCapsLabelsReadAsTheTablesWriteThem) {
  EXPECT_EQ(DecoderCapsLabel(cudaVideoCodec_HEVC, cudaVideoChromaFormat_420, 10),
            "HEVC 4:2:0 10-bit");
  EXPECT_EQ(DecoderCapsLabel(cudaVideoCodec_H264, cudaVideoChromaFormat_Monochrome, 8),
            "H264 monochrome 8-bit");
}

}  // namespace
}  // namespace mc::probe
