// The DRM fdinfo parser on files whose keys come from the kernel's documentation
// (corpus/drm_fdinfo/).
#include "worker/evidence/drm_fdinfo.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace mc::worker {
namespace {

std::string Fixture(const std::string& name) {
  return testing::ReadFile(std::string(WORKER_FDINFO_DIR) + "/" + name);
}

TEST(DrmFdinfo, AnI915ClientGivesItsVideoAndVideoEnhanceTime) {
  Result<DrmFdinfo> fdinfo = ParseDrmFdinfo(Fixture("i915-busy.txt"));
  ASSERT_TRUE(fdinfo) << fdinfo.error_message();
  EXPECT_EQ(fdinfo->driver, "i915");
  EXPECT_EQ(fdinfo->pdev, "0000:00:02.0");
  EXPECT_EQ(fdinfo->client_id, 7u);
  EXPECT_EQ(fdinfo->engine_ns.at("video"), 3482019001u);
  EXPECT_EQ(fdinfo->engine_capacity.at("video"), 2u);
  const MediaEngineTime time = MediaEngineTimeOf(*fdinfo);
  EXPECT_EQ(time.codec_ns, 3482019001u);
  EXPECT_EQ(time.enhance_ns, 120004211u);
  // The render engine is not the media engine.
  EXPECT_EQ(time.encode_ns + time.decode_ns, 0u);
}

TEST(DrmFdinfo, AnXeClientGivesItsVcsCyclesAndTheirTimestamp) {
  Result<DrmFdinfo> fdinfo = ParseDrmFdinfo(Fixture("xe-busy.txt"));
  ASSERT_TRUE(fdinfo) << fdinfo.error_message();
  EXPECT_EQ(fdinfo->driver, "xe");
  const MediaEngineTime time = MediaEngineTimeOf(*fdinfo);
  EXPECT_EQ(time.codec_cycles, 191835022u);
  EXPECT_EQ(time.codec_total_cycles, 7655183225u);
  EXPECT_EQ(time.enhance_cycles, 4213u);
  EXPECT_EQ(time.codec_ns, 0u);
}

TEST(DrmFdinfo, AnAmdgpuClientGivesDecodeAndEncodeApart) {
  Result<DrmFdinfo> fdinfo = ParseDrmFdinfo(Fixture("amdgpu-busy.txt"));
  ASSERT_TRUE(fdinfo) << fdinfo.error_message();
  const MediaEngineTime time = MediaEngineTimeOf(*fdinfo);
  EXPECT_EQ(time.decode_ns, 812337620u);
  EXPECT_EQ(time.encode_ns, 1504419330u);
  EXPECT_EQ(time.codec_ns, 0u);
}

TEST(DrmFdinfo, AFileWithoutADriverIsNotADrmFile) {
  Result<DrmFdinfo> fdinfo = ParseDrmFdinfo("pos:\t0\nflags:\t0100002\nmnt_id:\t26\n");
  ASSERT_FALSE(fdinfo);
  EXPECT_TRUE(fdinfo.error().IsNotFound());
}

TEST(DrmFdinfo, AMalformedEngineTimeIsRefusedNamingItsLine) {
  Result<DrmFdinfo> fdinfo = ParseDrmFdinfo(Fixture("i915-malformed.txt"));
  ASSERT_FALSE(fdinfo);
  EXPECT_TRUE(fdinfo.error().IsInvalidInput());
  EXPECT_EQ(fdinfo.error_message(),
            "fdinfo line 3: drm-engine-video: expected \"<unsigned integer> ns\"");
}

TEST(DrmFdinfo, UnknownKeysAndOtherLinesAreSkipped) {
  Result<DrmFdinfo> fdinfo = ParseDrmFdinfo(
      "drm-driver: xe\ndrm-total-resident-system:\t0\nno colon here\ndrm-shiny-new-key: 12 "
      "widgets\n");
  ASSERT_TRUE(fdinfo) << fdinfo.error_message();
  EXPECT_EQ(fdinfo->driver, "xe");
  EXPECT_FALSE(fdinfo->client_id);
}

}  // namespace
}  // namespace mc::worker
