#include "vainfo_dump.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <va/va.h>

#include "support/temp_dir.h"
#include "vainfo_dump_format.h"
#include "vainfo_dump_printers.h"

namespace mc::fakeva {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

VainfoDump Parse(std::string_view text) {
  Result<VainfoDump> dump = ParseVainfoDump(text);
  EXPECT_TRUE(dump.ok()) << (dump.ok() ? "" : dump.error_message());
  return dump.ok() ? *dump : VainfoDump{};
}

constexpr std::uint32_t kYuv420 = VA_RT_FORMAT_YUV420;
constexpr std::uint32_t kYuv420_10 = VA_RT_FORMAT_YUV420_10;

// A plain dump as posted: a header, a shell prompt, libva's info lines, and the listing
// with vainfo's tab after the colon.
constexpr std::string_view kPlainDump =
    "# source: https://example.org/thread/1\n"
    "user@box:~$ vainfo --display drm --device /dev/dri/renderD128\n"
    "libva info: VA-API version 1.17.0\n"
    "libva info: Trying to open /usr/lib/x86_64-linux-gnu/dri/iHD_drv_video.so\n"
    "libva info: Found init function __vaDriverInit_1_17\n"
    "libva info: va_openDriver() returns 0\n"
    "vainfo: VA-API version: 1.17 (libva 2.12.0)\n"
    "vainfo: Driver version: Intel iHD driver for Intel(R) Gen Graphics - 23.1.1 ()   \n"
    "vainfo: Supported profile and entrypoints\n"
    "      VAProfileNone                   :\tVAEntrypointVideoProc\n"
    "      VAProfileH264Main               :\tVAEntrypointVLD\n"
    "      VAProfileH264Main               :\tVAEntrypointEncSliceLP\n"
    "      VAProfileHEVCMain10             :\tVAEntrypointVLD\n"
    "      VAProfileAV1Profile0            :\tVAEntrypointVLD\n";

TEST(VainfoDump, APlainDumpStatesItsVendorAndPairsInOrder) {
  const VainfoDump dump = Parse(kPlainDump);
  EXPECT_TRUE(dump.initialised);
  EXPECT_FALSE(dump.has_formats);
  EXPECT_EQ(dump.vendor, "Intel iHD driver for Intel(R) Gen Graphics - 23.1.1 ()");
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileNone, VAEntrypointVideoProc, kYuv420},
                          VainfoConfig{VAProfileH264Main, VAEntrypointVLD, kYuv420},
                          VainfoConfig{VAProfileH264Main, VAEntrypointEncSliceLP, kYuv420},
                          VainfoConfig{VAProfileHEVCMain10, VAEntrypointVLD, kYuv420},
                          VainfoConfig{VAProfileAV1Profile0, VAEntrypointVLD, kYuv420}));
}

TEST(VainfoDump, APlainDumpStatesYuv420ForEveryPair) {
  for (const VainfoConfig& config : Parse(kPlainDump).configs)
    EXPECT_EQ(config.rt_formats, kYuv420);
}

TEST(VainfoDump, SpacesInPlaceOfTheTabReadTheSame) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: Mesa Gallium driver 22.3.6 for AMD Radeon RX 6600\n"
      "      VAProfileH264High               :    VAEntrypointVLD\n"
      "\tVAProfileHEVCMain\t:\tVAEntrypointEncSlice\n"
      "VAProfileVP9Profile0:VAEntrypointVLD\n");
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileH264High, VAEntrypointVLD, kYuv420},
                          VainfoConfig{VAProfileHEVCMain, VAEntrypointEncSlice, kYuv420},
                          VainfoConfig{VAProfileVP9Profile0, VAEntrypointVLD, kYuv420}));
}

TEST(VainfoDump, WindowsLineEndsAndQuoteMarksAreNotPartOfTheFacts) {
  const VainfoDump dump = Parse(
      "> vainfo: Driver version: Intel i965 driver for Intel(R) Haswell - 2.4.1\r\n"
      "> vainfo: Supported profile and entrypoints\r\n"
      ">       VAProfileMPEG2Simple            :\tVAEntrypointVLD\r\n");
  EXPECT_EQ(dump.vendor, "Intel i965 driver for Intel(R) Haswell - 2.4.1");
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileMPEG2Simple, VAEntrypointVLD, kYuv420}));
}

TEST(VainfoDump, TheVendorKeepsEverythingButTrailingSpace) {
  EXPECT_EQ(Parse("vainfo: Driver version: \tPadded  vendor \t\r\n").vendor, "\tPadded  vendor");
  EXPECT_EQ(Parse("vainfo: Driver version:\n").vendor, "");
}

TEST(VainfoDump, ASecondDriverVersionLineDoesNotReplaceTheFirst) {
  EXPECT_EQ(Parse("vainfo: Driver version: first\nvainfo: Driver version: second\n").vendor,
            "first");
}

TEST(VainfoDump, AFailedRunIsNotInitialised) {
  const VainfoDump dump = Parse(
      "$ vainfo\n"
      "libva info: VA-API version 1.17.0\n"
      "libva error: vaGetDriverNameByIndex() failed with unknown libva error, driver_name = "
      "(null)\n"
      "vaInitialize failed with error code -1 (unknown libva error),exit\n");
  EXPECT_FALSE(dump.initialised);
  EXPECT_EQ(dump.vendor, "");
  EXPECT_THAT(dump.configs, IsEmpty());
}

TEST(VainfoDump, UnknownProfileAndEntrypointNamesAreSkipped) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: future driver\n"
      "      VAProfileVVCMain10              :\tVAEntrypointVLD\n"
      "      VAProfileH264Main               :\tVAEntrypointSomethingNew\n"
      "      <unknown profile>               :\tVAEntrypointVLD\n"
      "      VAProfileJPEGBaseline           :\tVAEntrypointEncPicture\n");
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileJPEGBaseline, VAEntrypointEncPicture, kYuv420}));
}

TEST(VainfoDump, ARepeatedPairIsListedOnce) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: twice\n"
      "      VAProfileH264Main               :\tVAEntrypointVLD\n"
      "      VAProfileHEVCMain               :\tVAEntrypointVLD\n"
      "      VAProfileH264Main               :\tVAEntrypointVLD\n");
  EXPECT_THAT(dump.configs, ElementsAre(VainfoConfig{VAProfileH264Main, VAEntrypointVLD, kYuv420},
                                        VainfoConfig{VAProfileHEVCMain, VAEntrypointVLD, kYuv420}));
}

TEST(VainfoDump, TheDeprecatedH264BaselineProfileKeepsItsNumber) {
  const VainfoDump dump =
      Parse("vainfo: Driver version: old\n  VAProfileH264Baseline : VAEntrypointVLD\n");
  EXPECT_THAT(dump.configs, ElementsAre(VainfoConfig{5, VAEntrypointVLD, kYuv420}));
}

// `vainfo -a` as libva-utils 2.12 prints it, one block per pair:
//  - the RT formats first, further formats on continuation lines;
//  - other attributes after;
//  - an empty line after each block.
constexpr std::string_view kAllDump =
    "vainfo: VA-API version: 1.17 (libva 2.12.0)\n"
    "vainfo: Driver version: Mesa Gallium driver 22.3.6 for AMD Radeon RX 6600 (dimgrey_cavefish)\n"
    "vainfo: Supported config attributes per profile/entrypoint pair\n"
    "VAProfileMPEG2Simple/VAEntrypointVLD\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
    "    VAConfigAttribMaxPictureWidth          : 2048\n"
    "\n"
    "VAProfileHEVCMain10/VAEntrypointVLD\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420_10\n"
    "                                             VA_RT_FORMAT_YUV420_10BPP\n"
    "    VAConfigAttribMaxPictureHeight         : 4096\n"
    "\n"
    "VAProfileHEVCMain/VAEntrypointEncSlice\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
    "                                             VA_RT_FORMAT_YUV420_10\n"
    "                                             VA_RT_FORMAT_YUV420_10BPP\n"
    "    VAConfigAttribRateControl              : VA_RC_CBR\n"
    "                                             VA_RC_VBR\n"
    "                                             VA_RC_CQP\n"
    "\n"
    "VAProfileNone/VAEntrypointVideoProc\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
    "                                             VA_RT_FORMAT_YUV422\n"
    "                                             VA_RT_FORMAT_YUV444\n"
    "                                             VA_RT_FORMAT_YUV400\n"
    "                                             VA_RT_FORMAT_YUV420_10\n"
    "                                             VA_RT_FORMAT_RGB32\n"
    "\n";

TEST(VainfoDump, AnAllDumpStatesTheFormatsEachBlockLists) {
  const VainfoDump dump = Parse(kAllDump);
  EXPECT_TRUE(dump.initialised);
  EXPECT_TRUE(dump.has_formats);
  EXPECT_EQ(dump.vendor, "Mesa Gallium driver 22.3.6 for AMD Radeon RX 6600 (dimgrey_cavefish)");
  EXPECT_THAT(
      dump.configs,
      ElementsAre(VainfoConfig{VAProfileMPEG2Simple, VAEntrypointVLD, kYuv420},
                  VainfoConfig{VAProfileHEVCMain10, VAEntrypointVLD, kYuv420_10},
                  VainfoConfig{VAProfileHEVCMain, VAEntrypointEncSlice, kYuv420 | kYuv420_10},
                  VainfoConfig{VAProfileNone, VAEntrypointVideoProc,
                               kYuv420 | VA_RT_FORMAT_YUV422 | VA_RT_FORMAT_YUV444 |
                                   VA_RT_FORMAT_YUV400 | kYuv420_10 | VA_RT_FORMAT_RGB32}));
}

TEST(VainfoDump, AnAllBlockWithoutAnRtFormatLineStatesYuv420) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: no formats here\n"
      "VAProfileJPEGBaseline/VAEntrypointVLD\n"
      "    VAConfigAttribMaxPictureWidth          : 16384\n"
      "\n"
      "VAProfileVP9Profile2/VAEntrypointVLD\n"
      "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420_10\n"
      "\n");
  EXPECT_TRUE(dump.has_formats);
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileJPEGBaseline, VAEntrypointVLD, kYuv420},
                          VainfoConfig{VAProfileVP9Profile2, VAEntrypointVLD, kYuv420_10}));
}

TEST(VainfoDump, FormatsUnderAPairItCannotNameGoNowhere) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: x\n"
      "VAProfileH264Main/VAEntrypointVLD\n"
      "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
      "<unknown profile>/VAEntrypointVLD\n"
      "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV444\n"
      "VAProfileVVCMain10/VAEntrypointVLD\n"
      "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV422\n");
  EXPECT_THAT(dump.configs, ElementsAre(VainfoConfig{VAProfileH264Main, VAEntrypointVLD, kYuv420}));
}

TEST(VainfoDump, ContinuationLinesOfOtherAttributesAreNotFormats) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: x\n"
      "VAProfileH264Main/VAEntrypointEncSlice\n"
      "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
      "    VAConfigAttribEncMaxRefFrames          : l0=4\n"
      "                                             l1=1\n"
      "                                             VA_RT_FORMAT_YUV444\n");
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileH264Main, VAEntrypointEncSlice, kYuv420}));
}

TEST(VainfoDump, TheOlderPerLineRtFormatListingAddsUp) {
  // libva-utils before the -a blocks printed an attribute line per format under each pair,
  // with the names padded to one width.
  const VainfoDump dump = Parse(
      "vainfo: Driver version: older vainfo\n"
      "      VAProfileHEVCMain10             :\tVAEntrypointVLD\n"
      "         VAConfigAttribRTFormat          : VA_RT_FORMAT_YUV420   \n"
      "         VAConfigAttribRTFormat          : VA_RT_FORMAT_YUV420_10\n"
      "      VAProfileH264Main               :\tVAEntrypointVLD\n");
  EXPECT_TRUE(dump.has_formats);
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileHEVCMain10, VAEntrypointVLD, kYuv420 | kYuv420_10},
                          VainfoConfig{VAProfileH264Main, VAEntrypointVLD, kYuv420}));
}

TEST(VainfoDump, APairShownInTheListingAndInABlockIsOnePair) {
  const VainfoDump dump = Parse(
      "vainfo: Driver version: both\n"
      "      VAProfileHEVCMain10             :\tVAEntrypointVLD\n"
      "VAProfileHEVCMain10/VAEntrypointVLD\n"
      "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420_10\n");
  EXPECT_THAT(dump.configs,
              ElementsAre(VainfoConfig{VAProfileHEVCMain10, VAEntrypointVLD, kYuv420_10}));
}

TEST(VainfoDump, ATextWithNoVainfoLineIsAnError) {
  for (const std::string_view text :
       {std::string_view(""), std::string_view("hello\nworld\n"), std::string_view("$ vainfo\n")}) {
    const Result<VainfoDump> dump = ParseVainfoDump(text);
    ASSERT_FALSE(dump.ok()) << text;
    EXPECT_THAT(dump.error_message(), HasSubstr("no line of vainfo"));
  }
}

TEST(VainfoDump, WhatItReadsReadsBackTheSameOnceWrittenAsVainfoText) {
  for (const std::string_view text : {kPlainDump, kAllDump}) {
    const VainfoDump dump = Parse(text);
    EXPECT_EQ(Parse(FormatVainfoDump(dump)), dump);
  }
}

TEST(VainfoDump, AFileThatCannotBeReadIsAnErrorNamingIt) {
  const Result<VainfoDump> dump = ReadVainfoDump("/nonexistent/dump.txt");
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(dump.error_message(), HasSubstr("/nonexistent/dump.txt"));
}

TEST(VainfoDump, AFileIsReadAsItsText) {
  const mc::testing::TempDir dir;
  const auto file = dir.Write("dump.txt", std::string(kPlainDump));
  const Result<VainfoDump> dump = ReadVainfoDump(file);
  ASSERT_TRUE(dump.ok()) << dump.error_message();
  EXPECT_EQ(*dump, Parse(kPlainDump));
}

}  // namespace
}  // namespace mc::fakeva
