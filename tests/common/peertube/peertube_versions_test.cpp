// The versions of the server and the runner, read from what the real ones answered
// (tests/peertube/data/admin-api/config.json, data/runner-version.txt), and the verdict of
// each kind of pair.
#include "common/peertube/peertube_versions.h"

#include <gtest/gtest.h>

#include "common/base/read_file.h"

namespace mc::peertube {
namespace {

Version V(const char* text) {
  Result<Version> version = ParseVersion(text);
  EXPECT_TRUE(version) << text << ": " << version.error_message();
  return version ? *version : Version{};
}

TEST(ParseVersion, ReadsThreeNumbersWithAPrefixOrAPreReleaseAndRefusesTheRest) {
  EXPECT_EQ(V("7.2.1").Key(), V("v7.2.1").Key());
  EXPECT_EQ(V("9.0.0-rc.1").major, 9);
  EXPECT_EQ(V("9.0.0-rc.1").text, "9.0.0-rc.1");
  EXPECT_LT(V("0.1.3").Key(), V("0.10.0").Key());
  for (const char* text : {"", "7", "7.2", "7.2.1.4", "7.x.1", "-1.0.0", "1000.0.0", "7..1"})
    EXPECT_FALSE(ParseVersion(text)) << text;
}

TEST(ParseServerVersion, ReadsTheRecordedConfigAndNamesWhatIsWrong) {
  Result<std::string> config = ReadFileText(PEERTUBE_DATA_DIR "/admin-api/config.json");
  ASSERT_TRUE(config) << config.error_message();
  Result<Version> version = ParseServerVersion(*config);
  ASSERT_TRUE(version) << version.error_message();
  EXPECT_EQ(version->text, "7.2.1");
  EXPECT_EQ(ParseServerVersion(R"({"serverVersion":7})").error_message(),
            "PeerTube's config: serverVersion: expected a string");
  EXPECT_EQ(ParseServerVersion("<html>").error_message(), "PeerTube's config: not JSON");
}

TEST(ParseRunnerVersion, ReadsTheRecordedOutputOfTheRunner) {
  Result<std::string> output = ReadFileText(PEERTUBE_DATA_DIR "/runner-version.txt");
  ASSERT_TRUE(output) << output.error_message();
  Result<Version> version = ParseRunnerVersion(*output);
  ASSERT_TRUE(version) << version.error_message();
  EXPECT_EQ(version->text, "0.1.3");
  EXPECT_FALSE(ParseRunnerVersion("Usage: peertube-runner [options]\n"));
}

TEST(JudgeVersions, TellsTheTestedTheContractedTheUnknownAndTheBrokenPairsApart) {
  EXPECT_EQ(JudgeVersions(V("7.2.1"), V("0.1.3")).support, Support::kTested);
  EXPECT_EQ(JudgeVersions(V("8.2.3"), V("0.6.0")).support, Support::kByContract);
  EXPECT_EQ(JudgeVersions(V("9.0.0-rc.1"), V("0.1.3")).support, Support::kByContract);
  EXPECT_EQ(JudgeVersions(V("9.1.0"), V("0.6.0")).support, Support::kUnknown);
  EXPECT_EQ(JudgeVersions(V("8.0.0"), V("0.7.0")).support, Support::kUnknown);
  const SupportVerdict old = JudgeVersions(V("5.1.2"), std::nullopt);
  EXPECT_EQ(old.support, Support::kBreaks);
  EXPECT_NE(old.advice.find("upgrade PeerTube"), std::string::npos);
  const SupportVerdict unread = JudgeVersions(V("7.2.1"), std::nullopt);
  EXPECT_EQ(unread.support, Support::kUnknown);
  EXPECT_EQ(unread.advice, "the runner's version could not be read");
  EXPECT_EQ(SupportName(Support::kByContract), "by-contract");
}

}  // namespace
}  // namespace mc::peertube
