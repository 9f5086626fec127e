#include "probe/facts/va_facts_json.h"

#include <gtest/gtest.h>

namespace mc::probe {
namespace {

TEST(VaFactsJson, ARoundTripKeepsEveryFact) {
  VaFacts facts;
  facts.vendor = "Intel iHD driver for Intel(R) Gen Graphics - 23.1.1 ()";
  facts.configs = {{7, 1, 0x1}, {32, 1, 0x101}, {-1, 10, 0x1 | 0x100}, {7, 6, 0x1, 4096, 2304}};
  facts.video_proc_formats = {"NV12", "P010"};
  facts.warnings = {"vaGetConfigAttributes(VAProfileH264High/VAEntrypointEncSlice) failed"};
  Result<VaFacts> parsed = ParseVaFacts(VaFactsToJson(facts));
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(*parsed, facts);
}

TEST(VaFactsJson, AReportWithoutPictureSizesReadsAsNoneStated) {
  Result<VaFacts> parsed = ParseVaFacts(
      R"({"vendor":"v","configs":[{"profile":7,"entrypoint":6,"rtFormats":1}],"videoProcFormats":[]})");
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(parsed->configs[0].max_width, 0u);
  EXPECT_EQ(parsed->configs[0].max_height, 0u);
}

TEST(VaFactsJson, AVendorStringThatIsNotUtf8StillMakesAReport) {
  VaFacts facts;
  facts.vendor = "broken \xff vendor";
  Result<VaFacts> parsed = ParseVaFacts(VaFactsToJson(facts));
  ASSERT_TRUE(parsed) << parsed.error_message();
  EXPECT_EQ(parsed->vendor, "broken \xEF\xBF\xBD vendor");
}

TEST(VaFactsJson, TextThatIsNotJsonIsRejected) {
  Result<VaFacts> parsed = ParseVaFacts("libva info: VA-API version 1.17.0\n{");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "the report is not JSON");
}

TEST(VaFactsJson, AnErrorNamesThePlaceOfTheBadValue) {
  Result<VaFacts> parsed =
      ParseVaFacts(R"({"vendor":"v","configs":[{"profile":7,"entrypoint":1,"rtFormats":1},)"
                   R"({"profile":7,"entrypoint":"VLD","rtFormats":1}],"videoProcFormats":[]})");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "configs[1].entrypoint: expected an integer");
}

TEST(VaFactsJson, AMissingMemberIsNamed) {
  Result<VaFacts> parsed = ParseVaFacts(R"({"vendor":"v","configs":[]})");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "videoProcFormats: missing");
}

TEST(VaFactsJson, ARenderTargetMaskOutsideThirtyTwoBitsIsRejected) {
  Result<VaFacts> parsed = ParseVaFacts(
      R"({"vendor":"v","configs":[{"profile":7,"entrypoint":1,"rtFormats":4294967296}],"videoProcFormats":[]})");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "configs[0].rtFormats: value 4294967296 is out of range");
}

TEST(VaFactsJson, AReportThatIsNotAnObjectIsRejected) {
  Result<VaFacts> parsed = ParseVaFacts("[1,2]");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error_message(), "the report is not a JSON object");
}

}  // namespace
}  // namespace mc::probe
