#include "probe/capabilities/va_rules.h"

#include <gtest/gtest.h>
#include <va/va_str.h>

#include <set>
#include <string>

namespace mc::probe {
namespace {

// TrueNames lists the capabilities the facts make true, by name.
std::set<std::string> TrueNames(const VaFacts& facts) {
  const CapabilityValues values = EvaluateVaFacts(facts);
  std::set<std::string> names;
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    if (values[i]) names.insert(std::string(kCapabilities[i].name));
  }
  return names;
}

VaFacts OneConfig(VAProfile profile, VAEntrypoint entrypoint,
                  std::uint32_t rt = VA_RT_FORMAT_YUV420) {
  VaFacts facts;
  facts.configs.push_back({profile, entrypoint, rt});
  return facts;
}

struct RuleCase {
  VAProfile profile;
  VAEntrypoint entrypoint;
  std::uint32_t rt_formats;
  std::set<std::string> expected;
};

// Each row is one listed pair and, written by hand from the capability table in
// docs/reference/attributes.md, the capabilities that pair alone makes true.
const RuleCase kRuleCases[] = {
    {VAProfileH264High, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeH264"}},
    {VAProfileH264Main, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {}},
    {VAProfileH264ConstrainedBaseline, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {}},
    {VAProfileHEVCMain, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeHEVCMain"}},
    {VAProfileHEVCMain10, VAEntrypointVLD, VA_RT_FORMAT_YUV420_10, {"decodeHEVCMain10"}},
    {VAProfileAV1Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeAV1Main"}},
    {VAProfileAV1Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420_10, {"decodeAV1Main10"}},
    {VAProfileAV1Profile0,
     VAEntrypointVLD,
     VA_RT_FORMAT_YUV420 | VA_RT_FORMAT_YUV420_10,
     {"decodeAV1Main", "decodeAV1Main10"}},
    {VAProfileAV1Profile0, VAEntrypointVLD, 0, {}},
    {VAProfileVP9Profile0, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeVP9"}},
    {VAProfileVP9Profile2, VAEntrypointVLD, VA_RT_FORMAT_YUV420_10, {"decodeVP9Profile2"}},
    {VAProfileVP8Version0_3, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeVP8"}},
    {VAProfileVC1Advanced, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeVC1"}},
    {VAProfileVC1Main, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {}},
    {VAProfileMPEG2Main, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {"decodeMPEG2"}},
    {VAProfileMPEG2Simple, VAEntrypointVLD, VA_RT_FORMAT_YUV420, {}},
    {VAProfileH264High, VAEntrypointEncSlice, VA_RT_FORMAT_YUV420, {"encodeH264"}},
    {VAProfileHEVCMain, VAEntrypointEncSlice, VA_RT_FORMAT_YUV420, {"encodeHEVCMain"}},
    {VAProfileHEVCMain10, VAEntrypointEncSlice, VA_RT_FORMAT_YUV420_10, {"encodeHEVCMain10"}},
    {VAProfileH264High, VAEntrypointEncSliceLP, VA_RT_FORMAT_YUV420, {"encodeH264LowPower"}},
    {VAProfileHEVCMain, VAEntrypointEncSliceLP, VA_RT_FORMAT_YUV420, {"encodeHEVCMainLowPower"}},
    {VAProfileHEVCMain10,
     VAEntrypointEncSliceLP,
     VA_RT_FORMAT_YUV420_10,
     {"encodeHEVCMain10LowPower"}},
    {VAProfileH264High, VAEntrypointEncPicture, VA_RT_FORMAT_YUV420, {}},
    {VAProfileAV1Profile0,
     VAEntrypointEncSliceLP,
     VA_RT_FORMAT_YUV420 | VA_RT_FORMAT_YUV420_10,
     {"encodeAV1Main", "encodeAV1Main10"}},
    {VAProfileAV1Profile0, VAEntrypointEncSlice, VA_RT_FORMAT_YUV420, {"encodeAV1Main"}},
    // The video processor's capabilities come from its surface formats, never from its
    // render-target mask.
    {VAProfileNone, VAEntrypointVideoProc, VA_RT_FORMAT_YUV420 | VA_RT_FORMAT_YUV420_10, {}},
};

TEST(VaRules, EachListedPairMakesExactlyItsCapabilitiesTrue) {
  for (const RuleCase& c : kRuleCases) {
    EXPECT_EQ(TrueNames(OneConfig(c.profile, c.entrypoint, c.rt_formats)), c.expected)
        << vaProfileStr(c.profile) << "/" << vaEntrypointStr(c.entrypoint)
        << " rt=" << c.rt_formats;
  }
}

TEST(VaRules, TheVideoProcessorScalesTheFormatsItAccepts) {
  VaFacts facts;
  facts.video_proc_formats = {"NV12"};
  EXPECT_EQ(TrueNames(facts), (std::set<std::string>{"scale8bit"}));
  facts.video_proc_formats = {"YUY2", "P010", "NV12"};
  EXPECT_EQ(TrueNames(facts), (std::set<std::string>{"scale8bit", "scale10bit"}));
  facts.video_proc_formats = {"P016", "RGBA"};
  EXPECT_EQ(TrueNames(facts), (std::set<std::string>{}));
}

TEST(VaRules, ADriverThatListsNothingPublishesEveryCapabilityFalse) {
  EXPECT_EQ(TrueNames(VaFacts{}), (std::set<std::string>{}));
}

TEST(VaRules, TheLowPowerEncoderDoesNotMakeTheFullEncoderTrue) {
  const std::set<std::string> names =
      TrueNames(OneConfig(VAProfileHEVCMain10, VAEntrypointEncSliceLP));
  EXPECT_FALSE(names.contains("encodeHEVCMain10"));
  EXPECT_TRUE(names.contains("encodeHEVCMain10LowPower"));
}

TEST(VaRules, TheTableHoldsTheEighteenCapabilitiesInTheirOrderThenTheAv1Encoders) {
  const std::vector<std::string> expected = {"decodeH264",
                                             "decodeHEVCMain",
                                             "decodeHEVCMain10",
                                             "decodeAV1Main",
                                             "decodeAV1Main10",
                                             "decodeVP9",
                                             "decodeVP9Profile2",
                                             "decodeVP8",
                                             "decodeVC1",
                                             "decodeMPEG2",
                                             "encodeH264",
                                             "encodeHEVCMain",
                                             "encodeHEVCMain10",
                                             "encodeH264LowPower",
                                             "encodeHEVCMainLowPower",
                                             "encodeHEVCMain10LowPower",
                                             "scale8bit",
                                             "scale10bit",
                                             "encodeAV1Main",
                                             "encodeAV1Main10"};
  std::vector<std::string> names;
  for (const Capability& capability : kCapabilities) names.emplace_back(capability.name);
  EXPECT_EQ(names, expected);
}

}  // namespace
}  // namespace mc::probe
