#include "h264_parameter_sets.h"

#include <algorithm>
#include <array>

#include "rbsp.h"

namespace mc::fakeva {
namespace {

// The zigzag scans that map a scaling list's coded order to its raster order, in which ffmpeg
// keeps the lists it hands over (H.264 8.5.6).
constexpr std::array<std::uint8_t, 16> kZigzag4x4 = {0, 1,  4,  8,  5, 2,  3,  6,
                                                     9, 12, 13, 10, 7, 11, 14, 15};
constexpr std::array<std::uint8_t, 64> kZigzag8x8 = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// ScalingList writes one list in coded order, as deltas from the previous entry.
template <std::size_t N>
void ScalingList(BitWriter& bits, const std::uint8_t* raster,
                 const std::array<std::uint8_t, N>& zigzag) {
  int last = 8;
  for (std::size_t i = 0; i < N; ++i) {
    const int value = raster[zigzag[i]];
    int delta = value - last;
    if (delta > 127) delta -= 256;
    if (delta < -128) delta += 256;
    bits.Signed(delta);
    last = value;
  }
}

bool Flat(const VAIQMatrixBufferH264* matrix, bool with_8x8) {
  if (!matrix) return true;
  for (const auto& list : matrix->ScalingList4x4) {
    if (std::ranges::any_of(list, [](std::uint8_t v) { return v != 16; })) return false;
  }
  if (!with_8x8) return true;
  for (const auto& list : matrix->ScalingList8x8) {
    if (std::ranges::any_of(list, [](std::uint8_t v) { return v != 16; })) return false;
  }
  return true;
}

std::vector<std::uint8_t> Sps(const VAPictureParameterBufferH264& picture) {
  const auto& seq = picture.seq_fields.bits;
  BitWriter bits;
  // High profile, which every H.264 decoder of 4:2:0 8-bit pictures takes; level 5.1.
  bits.Bits(100, 8);
  bits.Bits(0, 8);
  bits.Bits(51, 8);
  bits.Unsigned(0);  // seq_parameter_set_id
  bits.Unsigned(seq.chroma_format_idc);
  bits.Unsigned(picture.bit_depth_luma_minus8);
  bits.Unsigned(picture.bit_depth_chroma_minus8);
  bits.Bit(0);  // qpprime_y_zero_transform_bypass_flag
  bits.Bit(0);  // seq_scaling_matrix_present_flag: the PPS states the lists
  bits.Unsigned(seq.log2_max_frame_num_minus4);
  bits.Unsigned(seq.pic_order_cnt_type);
  if (seq.pic_order_cnt_type == 0) bits.Unsigned(seq.log2_max_pic_order_cnt_lsb_minus4);
  bits.Unsigned(picture.num_ref_frames);
  bits.Bit(seq.gaps_in_frame_num_value_allowed_flag);
  bits.Unsigned(picture.picture_width_in_mbs_minus1);
  bits.Unsigned(picture.picture_height_in_mbs_minus1);
  bits.Bit(1);  // frame_mbs_only_flag
  bits.Bit(seq.direct_8x8_inference_flag);
  bits.Bit(0);  // frame_cropping_flag: the client crops
  bits.Bit(0);  // vui_parameters_present_flag
  return bits.Finish();
}

std::vector<std::uint8_t> Pps(const VAPictureParameterBufferH264& picture,
                              const VAIQMatrixBufferH264* matrix, const PpsChoice& choice) {
  const auto& pic = picture.pic_fields.bits;
  BitWriter bits;
  bits.Unsigned(choice.pps_id);
  bits.Unsigned(0);  // seq_parameter_set_id
  bits.Bit(pic.entropy_coding_mode_flag);
  bits.Bit(pic.pic_order_present_flag);
  bits.Unsigned(0);  // num_slice_groups_minus1
  bits.Unsigned(choice.l0_default_active_minus1);
  bits.Unsigned(choice.l1_default_active_minus1);
  bits.Bit(pic.weighted_pred_flag);
  bits.Bits(pic.weighted_bipred_idc, 2);
  bits.Signed(picture.pic_init_qp_minus26);
  bits.Signed(picture.pic_init_qs_minus26);
  bits.Signed(picture.chroma_qp_index_offset);
  bits.Bit(pic.deblocking_filter_control_present_flag);
  bits.Bit(pic.constrained_intra_pred_flag);
  bits.Bit(pic.redundant_pic_cnt_present_flag);
  bits.Bit(pic.transform_8x8_mode_flag);
  const bool lists = !Flat(matrix, pic.transform_8x8_mode_flag);
  bits.Bit(lists);
  if (lists) {
    for (const auto& list : matrix->ScalingList4x4) {
      bits.Bit(1);
      ScalingList(bits, list, kZigzag4x4);
    }
    for (int i = 0; pic.transform_8x8_mode_flag && i < 2; ++i) {
      bits.Bit(1);
      ScalingList(bits, matrix->ScalingList8x8[i], kZigzag8x8);
    }
  }
  bits.Signed(picture.second_chroma_qp_index_offset);
  return bits.Finish();
}

}  // namespace

std::optional<std::uint32_t> SlicePpsId(std::span<const std::uint8_t> nal) {
  if (nal.size() < 2) return std::nullopt;
  const int type = nal[0] & 0x1f;
  if (type != 1 && type != 5) return std::nullopt;
  // The third Exp-Golomb code of the header, after first_mb_in_slice and slice_type.
  BitReader bits(nal.subspan(1));
  if (!bits.Unsigned() || !bits.Unsigned()) return std::nullopt;
  const std::optional<std::uint32_t> pps_id = bits.Unsigned();
  if (!pps_id || *pps_id > 255) return std::nullopt;
  return pps_id;
}

bool H264ParameterSets(const VAPictureParameterBufferH264& picture,
                       const VAIQMatrixBufferH264* matrix, const PpsChoice& choice,
                       std::vector<std::uint8_t>& out, std::string* error) {
  const auto& seq = picture.seq_fields.bits;
  if (seq.pic_order_cnt_type == 1) {
    *error = "H.264 with picture order count type 1 cannot be rebuilt from VA's parameters";
    return false;
  }
  if (!seq.frame_mbs_only_flag || picture.pic_fields.bits.field_pic_flag ||
      (picture.CurrPic.flags & (VA_PICTURE_H264_TOP_FIELD | VA_PICTURE_H264_BOTTOM_FIELD))) {
    *error = "interlaced H.264 (field or MBAFF pictures) is not decoded by the fake";
    return false;
  }
  if (seq.chroma_format_idc != 1 || picture.bit_depth_luma_minus8 != 0 ||
      picture.bit_depth_chroma_minus8 != 0) {
    *error = "the fake decodes 8-bit 4:2:0 H.264 only";
    return false;
  }
  AppendNal(std::array<std::uint8_t, 1>{0x67}, Sps(picture), out);
  AppendNal(std::array<std::uint8_t, 1>{0x68}, Pps(picture, matrix, choice), out);
  return true;
}

}  // namespace mc::fakeva
