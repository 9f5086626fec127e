#include "fake_driver_state.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "vainfo_dump_printers.h"

namespace mc::fakeva {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

VainfoDump Dump(std::vector<VainfoConfig> configs) {
  VainfoDump dump;
  dump.initialised = true;
  dump.vendor = "fake vendor";
  dump.configs = std::move(configs);
  return dump;
}

const VainfoDump kDump = Dump({
    {VAProfileH264Main, VAEntrypointVLD, VA_RT_FORMAT_YUV420},
    {VAProfileHEVCMain10, VAEntrypointVLD, VA_RT_FORMAT_YUV420_10},
    {VAProfileH264Main, VAEntrypointEncSliceLP, VA_RT_FORMAT_YUV420},
    {VAProfileNone, VAEntrypointVideoProc,
     VA_RT_FORMAT_YUV420 | VA_RT_FORMAT_YUV420_10 | VA_RT_FORMAT_RGB32},
});

std::vector<VAEntrypoint> Entrypoints(const FakeDriverState& state, VAProfile profile,
                                      VAStatus expected) {
  std::vector<VAEntrypoint> entrypoints(state.max_entrypoints());
  int count = -1;
  EXPECT_EQ(state.QueryEntrypoints(profile, entrypoints.data(), &count), expected);
  entrypoints.resize(static_cast<std::size_t>(std::max(count, 0)));
  return entrypoints;
}

TEST(FakeDriverState, ListsEachProfileOnceInTheDumpsOrder) {
  const FakeDriverState state(kDump);
  EXPECT_EQ(state.vendor(), "fake vendor");
  EXPECT_THAT(state.profiles(), ElementsAre(VAProfileH264Main, VAProfileHEVCMain10, VAProfileNone));
  EXPECT_EQ(state.max_entrypoints(), 2);
}

TEST(FakeDriverState, ListsAProfilesEntrypointsAndRefusesAnUnlistedProfile) {
  const FakeDriverState state(kDump);
  EXPECT_THAT(Entrypoints(state, VAProfileH264Main, VA_STATUS_SUCCESS),
              ElementsAre(VAEntrypointVLD, VAEntrypointEncSliceLP));
  EXPECT_THAT(Entrypoints(state, VAProfileAV1Profile0, VA_STATUS_ERROR_UNSUPPORTED_PROFILE),
              IsEmpty());
}

TEST(FakeDriverState, AnEmptyDumpStillHasMaximaOfOne) {
  const FakeDriverState state(Dump({}));
  EXPECT_THAT(state.profiles(), IsEmpty());
  EXPECT_EQ(state.max_entrypoints(), 1);
}

TEST(FakeDriverState, StatesThePairsRtFormatsAndNoOtherAttribute) {
  const FakeDriverState state(kDump);
  VAConfigAttrib attributes[] = {{VAConfigAttribRateControl, 0},
                                 {VAConfigAttribRTFormat, 0},
                                 {VAConfigAttribMaxPictureWidth, 0}};
  ASSERT_EQ(state.GetConfigAttributes(VAProfileHEVCMain10, VAEntrypointVLD, attributes, 3),
            VA_STATUS_SUCCESS);
  EXPECT_EQ(attributes[0].value, VA_ATTRIB_NOT_SUPPORTED);
  EXPECT_EQ(attributes[1].value, static_cast<std::uint32_t>(VA_RT_FORMAT_YUV420_10));
  EXPECT_EQ(attributes[2].value, VA_ATTRIB_NOT_SUPPORTED);
}

TEST(FakeDriverState, RefusesAttributesOfAnUnlistedPair) {
  const FakeDriverState state(kDump);
  VAConfigAttrib attribute{VAConfigAttribRTFormat, 0};
  EXPECT_EQ(state.GetConfigAttributes(VAProfileVP9Profile0, VAEntrypointVLD, &attribute, 1),
            VA_STATUS_ERROR_UNSUPPORTED_PROFILE);
  EXPECT_EQ(state.GetConfigAttributes(VAProfileHEVCMain10, VAEntrypointEncSlice, &attribute, 1),
            VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT);
}

TEST(FakeDriverState, CreatesConfigsForListedPairsOnly) {
  FakeDriverState state(kDump);
  VAConfigID config = VA_INVALID_ID;
  EXPECT_EQ(state.CreateConfig(VAProfileH264Main, VAEntrypointVLD, nullptr, 0, &config),
            VA_STATUS_SUCCESS);
  EXPECT_EQ(state.CreateConfig(VAProfileAV1Profile0, VAEntrypointVLD, nullptr, 0, &config),
            VA_STATUS_ERROR_UNSUPPORTED_PROFILE);
  EXPECT_EQ(state.CreateConfig(VAProfileH264Main, VAEntrypointEncSlice, nullptr, 0, &config),
            VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT);
}

TEST(FakeDriverState, RefusesAConfigAskingForAnRtFormatThePairLacks) {
  FakeDriverState state(kDump);
  VAConfigID config = VA_INVALID_ID;
  VAConfigAttrib ten_bit{VAConfigAttribRTFormat, VA_RT_FORMAT_YUV420_10};
  EXPECT_EQ(state.CreateConfig(VAProfileH264Main, VAEntrypointVLD, &ten_bit, 1, &config),
            VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT);
  EXPECT_EQ(state.CreateConfig(VAProfileHEVCMain10, VAEntrypointVLD, &ten_bit, 1, &config),
            VA_STATUS_SUCCESS);
}

TEST(FakeDriverState, AConfigTellsItsPairAndFormatsUntilDestroyed) {
  FakeDriverState state(kDump);
  VAConfigID config = VA_INVALID_ID;
  ASSERT_EQ(state.CreateConfig(VAProfileHEVCMain10, VAEntrypointVLD, nullptr, 0, &config),
            VA_STATUS_SUCCESS);
  VAProfile profile = VAProfileNone;
  VAEntrypoint entrypoint = VAEntrypointVLD;
  VAConfigAttrib attribute{};
  int count = 0;
  ASSERT_EQ(state.QueryConfigAttributes(config, &profile, &entrypoint, &attribute, &count),
            VA_STATUS_SUCCESS);
  EXPECT_EQ(profile, VAProfileHEVCMain10);
  EXPECT_EQ(entrypoint, VAEntrypointVLD);
  EXPECT_EQ(count, 1);
  EXPECT_EQ(attribute.type, VAConfigAttribRTFormat);
  EXPECT_EQ(attribute.value, static_cast<std::uint32_t>(VA_RT_FORMAT_YUV420_10));

  EXPECT_EQ(state.DestroyConfig(config), VA_STATUS_SUCCESS);
  EXPECT_EQ(state.DestroyConfig(config), VA_STATUS_ERROR_INVALID_CONFIG);
  EXPECT_EQ(state.QueryConfigAttributes(config, &profile, &entrypoint, &attribute, &count),
            VA_STATUS_ERROR_INVALID_CONFIG);
}

std::vector<std::uint32_t> PixelFormats(const FakeDriverState& state, VAConfigID config) {
  unsigned count = 0;
  EXPECT_EQ(state.QuerySurfaceAttributes(config, nullptr, &count), VA_STATUS_SUCCESS);
  std::vector<VASurfaceAttrib> attributes(count);
  EXPECT_EQ(state.QuerySurfaceAttributes(config, attributes.data(), &count), VA_STATUS_SUCCESS);
  std::vector<std::uint32_t> formats;
  for (const VASurfaceAttrib& attribute : attributes) {
    EXPECT_EQ(attribute.type, VASurfaceAttribPixelFormat);
    EXPECT_EQ(attribute.value.type, VAGenericValueTypeInteger);
    formats.push_back(static_cast<std::uint32_t>(attribute.value.value.i));
  }
  return formats;
}

TEST(FakeDriverState, TheVideoProcessorOfAnAllDumpTakesNv12AndP010FromItsRtFormats) {
  FakeDriverState state(kDump);
  VAConfigID config = VA_INVALID_ID;
  ASSERT_EQ(state.CreateConfig(VAProfileNone, VAEntrypointVideoProc, nullptr, 0, &config),
            VA_STATUS_SUCCESS);
  EXPECT_THAT(PixelFormats(state, config), ElementsAre(VA_FOURCC_NV12, VA_FOURCC_P010));
}

TEST(FakeDriverState, TheVideoProcessorOfAPlainDumpTakesNv12Only) {
  FakeDriverState state(Dump({{VAProfileNone, VAEntrypointVideoProc, VA_RT_FORMAT_YUV420}}));
  VAConfigID config = VA_INVALID_ID;
  ASSERT_EQ(state.CreateConfig(VAProfileNone, VAEntrypointVideoProc, nullptr, 0, &config),
            VA_STATUS_SUCCESS);
  EXPECT_THAT(PixelFormats(state, config), ElementsAre(VA_FOURCC_NV12));
}

TEST(FakeDriverState, SurfaceAttributesWantRoomForAllOfThem) {
  FakeDriverState state(kDump);
  VAConfigID config = VA_INVALID_ID;
  ASSERT_EQ(state.CreateConfig(VAProfileNone, VAEntrypointVideoProc, nullptr, 0, &config),
            VA_STATUS_SUCCESS);
  VASurfaceAttrib one{};
  unsigned count = 1;
  EXPECT_EQ(state.QuerySurfaceAttributes(config, &one, &count), VA_STATUS_ERROR_MAX_NUM_EXCEEDED);
  EXPECT_EQ(count, 2u);
  EXPECT_EQ(state.QuerySurfaceAttributes(config + 100, nullptr, &count),
            VA_STATUS_ERROR_INVALID_CONFIG);
}

TEST(FakeDriverState, OnlyYuv420AndYuv420TenBitHavePixelFormats) {
  EXPECT_THAT(PixelFormatsFor(VA_RT_FORMAT_YUV420), ElementsAre(VA_FOURCC_NV12));
  EXPECT_THAT(PixelFormatsFor(VA_RT_FORMAT_YUV420_10), ElementsAre(VA_FOURCC_P010));
  EXPECT_THAT(PixelFormatsFor(VA_RT_FORMAT_YUV444 | VA_RT_FORMAT_RGB32), IsEmpty());
}

}  // namespace
}  // namespace mc::fakeva
