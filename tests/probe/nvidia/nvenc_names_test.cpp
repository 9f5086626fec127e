#include "probe/nvidia/nvenc_names.h"

#include <gtest/gtest.h>

namespace mc::probe {
namespace {

TEST(NvencNames, CodecGuidsAreNamed) {
  EXPECT_EQ(NvEncCodecName(NV_ENC_CODEC_H264_GUID), "H264");
  EXPECT_EQ(NvEncCodecName(NV_ENC_CODEC_HEVC_GUID), "HEVC");
  EXPECT_EQ(NvEncCodecName(kNvEncCodecAv1Guid), "AV1");
}

TEST(NvencNames, AnUnknownGuidKeepsItsText) {
  const GUID unknown = {
      0x01234567, 0x89ab, 0xcdef, {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef}};
  EXPECT_EQ(NvEncCodecName(unknown), "{01234567-89ab-cdef-0123-456789abcdef}");
  EXPECT_EQ(NvEncProfileName(unknown), "{01234567-89ab-cdef-0123-456789abcdef}");
}

TEST(NvencNames, ProfilesAreNamedWithinTheirCodec) {
  EXPECT_EQ(NvEncProfileName(NV_ENC_H264_PROFILE_HIGH_GUID), "High");
  EXPECT_EQ(NvEncProfileName(NV_ENC_HEVC_PROFILE_MAIN10_GUID), "Main10");
  EXPECT_EQ(NvEncProfileName(NV_ENC_HEVC_PROFILE_MAIN_GUID), "Main");
  EXPECT_EQ(NvEncProfileName(kNvEncAv1ProfileMainGuid), "Main");
  EXPECT_EQ(NvEncProfileName(NV_ENC_CODEC_PROFILE_AUTOSELECT_GUID), "AutoSelect");
}

TEST(NvencNames, StatusesAreNamedWithTheirNumber) {
  EXPECT_EQ(NvEncStatusText(NV_ENC_ERR_UNSUPPORTED_DEVICE), "NV_ENC_ERR_UNSUPPORTED_DEVICE (2)");
  EXPECT_EQ(NvEncStatusText(NV_ENC_ERR_OUT_OF_MEMORY), "NV_ENC_ERR_OUT_OF_MEMORY (10)");
  EXPECT_EQ(NvEncStatusText(static_cast<NVENCSTATUS>(77)), "NVENCSTATUS 77");
  EXPECT_EQ(NvEncCallError("NvEncOpenEncodeSessionEx", NV_ENC_ERR_NO_ENCODE_DEVICE),
            "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_NO_ENCODE_DEVICE (1)");
}

}  // namespace
}  // namespace mc::probe
