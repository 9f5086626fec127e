#include "hevc_parameter_sets.h"

#include <gtest/gtest.h>

#include <array>
#include <functional>

#include "rbsp.h"

namespace mc::fakeva {
namespace {

// A picture as ffmpeg hands over one of libx265's: 640x360, 8-bit 4:2:0, 64x64 blocks.
VAPictureParameterBufferHEVC Picture() {
  VAPictureParameterBufferHEVC picture{};
  picture.pic_width_in_luma_samples = 640;
  picture.pic_height_in_luma_samples = 360;
  picture.pic_fields.bits.chroma_format_idc = 1;
  picture.log2_diff_max_min_luma_coding_block_size = 3;
  picture.log2_diff_max_min_transform_block_size = 3;
  picture.sps_max_dec_pic_buffering_minus1 = 4;
  return picture;
}

// NalTypes lists the types of the NAL units in an Annex B stream of four-byte start codes.
std::vector<int> NalTypes(const std::vector<std::uint8_t>& stream) {
  std::vector<int> types;
  for (std::size_t i = 0; i + 4 < stream.size(); ++i) {
    if (stream[i] == 0 && stream[i + 1] == 0 && stream[i + 2] == 0 && stream[i + 3] == 1)
      types.push_back((stream[i + 4] >> 1) & 0x3f);
  }
  return types;
}

TEST(HevcParameterSets, WritesAVpsAnSpsAndAPpsInThatOrder) {
  std::vector<std::uint8_t> out;
  std::string error;
  ASSERT_TRUE(HevcParameterSets(Picture(), 7, out, &error)) << error;
  EXPECT_EQ(NalTypes(out), (std::vector<int>{32, 33, 34}));
}

TEST(HevcParameterSets, WhatVaDoesNotCarryOrTheFakeDoesNotDecodeIsRefusedNamingIt) {
  const std::vector<std::pair<std::function<void(VAPictureParameterBufferHEVC&)>, std::string>>
      cases = {
          {[](auto& p) { p.num_short_term_ref_pic_sets = 2; },
           "HEVC whose SPS lists short-term reference picture sets cannot be rebuilt"},
          {[](auto& p) { p.num_long_term_ref_pic_sps = 1; },
           "HEVC whose SPS lists long-term reference pictures cannot be rebuilt"},
          {[](auto& p) { p.pic_fields.bits.scaling_list_enabled_flag = 1; },
           "HEVC with scaling lists is not decoded by the fake"},
          {[](auto& p) { p.bit_depth_luma_minus8 = 2; }, "the fake decodes 8-bit 4:2:0 HEVC only"},
          {[](auto& p) { p.pic_fields.bits.chroma_format_idc = 2; },
           "the fake decodes 8-bit 4:2:0 HEVC only"},
          {[](auto& p) {
             p.pic_fields.bits.tiles_enabled_flag = 1;
             p.num_tile_columns_minus1 = 40;
           },
           "more tiles than VA's lists hold"},
      };
  for (const auto& [change, words] : cases) {
    VAPictureParameterBufferHEVC picture = Picture();
    change(picture);
    std::vector<std::uint8_t> out;
    std::string error;
    EXPECT_FALSE(HevcParameterSets(picture, 0, out, &error)) << words;
    EXPECT_NE(error.find(words), std::string::npos) << error;
    EXPECT_TRUE(out.empty()) << words;
  }
}

// A slice segment's NAL unit: its two header bytes, then the header's first fields.
std::vector<std::uint8_t> Slice(int type, bool random_access, std::uint32_t pps_id) {
  BitWriter bits;
  bits.Bit(1);                     // first_slice_segment_in_pic_flag
  if (random_access) bits.Bit(0);  // no_output_of_prior_pics_flag
  bits.Unsigned(pps_id);
  std::vector<std::uint8_t> nal = {static_cast<std::uint8_t>(type << 1), 1};
  const std::vector<std::uint8_t> rbsp = bits.Finish();
  nal.insert(nal.end(), rbsp.begin(), rbsp.end());
  return nal;
}

TEST(HevcSlicePpsId, ReadsTheIdPastTheRandomAccessPicturesFlag) {
  EXPECT_EQ(HevcSlicePpsId(Slice(19, true, 5)), 5u);             // IDR_W_RADL
  EXPECT_EQ(HevcSlicePpsId(Slice(21, true, 63)), 63u);           // CRA
  EXPECT_EQ(HevcSlicePpsId(Slice(1, false, 3)), 3u);             // TRAIL_R
  EXPECT_EQ(HevcSlicePpsId(Slice(1, false, 64)), std::nullopt);  // beyond the 64 ids
  EXPECT_EQ(HevcSlicePpsId(Slice(34, false, 0)), std::nullopt);  // a PPS, not a slice
  EXPECT_EQ(HevcSlicePpsId(std::array<std::uint8_t, 2>{0x26, 0x01}), std::nullopt);
}

}  // namespace
}  // namespace mc::fakeva
