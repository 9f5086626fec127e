#include "hevc_parameter_sets.h"

#include <array>

#include "rbsp.h"

namespace mc::fakeva {
namespace {

// NAL unit headers: forbidden bit, type (VPS 32, SPS 33, PPS 34), layer 0, temporal id 0.
constexpr std::array<std::uint8_t, 2> kVpsHeader = {0x40, 0x01};
constexpr std::array<std::uint8_t, 2> kSpsHeader = {0x42, 0x01};
constexpr std::array<std::uint8_t, 2> kPpsHeader = {0x44, 0x01};
constexpr std::uint32_t kMainProfile = 1;
// Level 6.2, the highest: the fake bounds picture sizes itself.
constexpr std::uint32_t kLevel62 = 186;

// ProfileTierLevel writes profile_tier_level(1, 0) for Main, Main tier, progressive frames.
void ProfileTierLevel(BitWriter& bits) {
  bits.Bits(0, 2);  // general_profile_space
  bits.Bit(0);      // general_tier_flag
  bits.Bits(kMainProfile, 5);
  // general_profile_compatibility_flag[j]: Main, and Main 10 which decodes Main.
  for (std::uint32_t j = 0; j < 32; ++j) bits.Bit(j == 1 || j == 2);
  bits.Bit(1);       // general_progressive_source_flag
  bits.Bit(0);       // general_interlaced_source_flag
  bits.Bit(0);       // general_non_packed_constraint_flag
  bits.Bit(1);       // general_frame_only_constraint_flag
  bits.Bits(0, 22);  // general_reserved_zero_43bits, in two parts
  bits.Bits(0, 21);
  bits.Bit(0);  // general_inbld_flag
  bits.Bits(kLevel62, 8);
}

// SubLayerOrdering writes the one sub-layer's buffering: no reordering, no latency bound.
void SubLayerOrdering(BitWriter& bits, const VAPictureParameterBufferHEVC& picture) {
  bits.Bit(1);  // sub_layer_ordering_info_present_flag
  bits.Unsigned(picture.sps_max_dec_pic_buffering_minus1);
  bits.Unsigned(0);  // max_num_reorder_pics
  bits.Unsigned(0);  // max_latency_increase_plus1
}

std::vector<std::uint8_t> Vps(const VAPictureParameterBufferHEVC& picture) {
  BitWriter bits;
  bits.Bits(0, 4);  // vps_video_parameter_set_id
  bits.Bit(1);      // vps_base_layer_internal_flag
  bits.Bit(1);      // vps_base_layer_available_flag
  bits.Bits(0, 6);  // vps_max_layers_minus1
  bits.Bits(0, 3);  // vps_max_sub_layers_minus1
  bits.Bit(1);      // vps_temporal_id_nesting_flag
  bits.Bits(0xffff, 16);
  ProfileTierLevel(bits);
  SubLayerOrdering(bits, picture);
  bits.Bits(0, 6);   // vps_max_layer_id
  bits.Unsigned(0);  // vps_num_layer_sets_minus1
  bits.Bit(0);       // vps_timing_info_present_flag
  bits.Bit(0);       // vps_extension_flag
  return bits.Finish();
}

std::vector<std::uint8_t> Sps(const VAPictureParameterBufferHEVC& picture) {
  const auto& pic = picture.pic_fields.bits;
  const auto& slice = picture.slice_parsing_fields.bits;
  BitWriter bits;
  bits.Bits(0, 4);  // sps_video_parameter_set_id
  bits.Bits(0, 3);  // sps_max_sub_layers_minus1
  bits.Bit(1);      // sps_temporal_id_nesting_flag
  ProfileTierLevel(bits);
  bits.Unsigned(0);  // sps_seq_parameter_set_id
  bits.Unsigned(pic.chroma_format_idc);
  bits.Unsigned(picture.pic_width_in_luma_samples);
  bits.Unsigned(picture.pic_height_in_luma_samples);
  bits.Bit(0);  // conformance_window_flag: the client crops
  bits.Unsigned(picture.bit_depth_luma_minus8);
  bits.Unsigned(picture.bit_depth_chroma_minus8);
  bits.Unsigned(picture.log2_max_pic_order_cnt_lsb_minus4);
  SubLayerOrdering(bits, picture);
  bits.Unsigned(picture.log2_min_luma_coding_block_size_minus3);
  bits.Unsigned(picture.log2_diff_max_min_luma_coding_block_size);
  bits.Unsigned(picture.log2_min_transform_block_size_minus2);
  bits.Unsigned(picture.log2_diff_max_min_transform_block_size);
  bits.Unsigned(picture.max_transform_hierarchy_depth_inter);
  bits.Unsigned(picture.max_transform_hierarchy_depth_intra);
  bits.Bit(0);  // scaling_list_enabled_flag (refused before)
  bits.Bit(pic.amp_enabled_flag);
  bits.Bit(slice.sample_adaptive_offset_enabled_flag);
  bits.Bit(pic.pcm_enabled_flag);
  if (pic.pcm_enabled_flag) {
    bits.Bits(picture.pcm_sample_bit_depth_luma_minus1, 4);
    bits.Bits(picture.pcm_sample_bit_depth_chroma_minus1, 4);
    bits.Unsigned(picture.log2_min_pcm_luma_coding_block_size_minus3);
    bits.Unsigned(picture.log2_diff_max_min_pcm_luma_coding_block_size);
    bits.Bit(pic.pcm_loop_filter_disabled_flag);
  }
  bits.Unsigned(0);  // num_short_term_ref_pic_sets (refused otherwise)
  bits.Bit(slice.long_term_ref_pics_present_flag);
  if (slice.long_term_ref_pics_present_flag) bits.Unsigned(0);  // num_long_term_ref_pics_sps
  bits.Bit(slice.sps_temporal_mvp_enabled_flag);
  bits.Bit(pic.strong_intra_smoothing_enabled_flag);
  bits.Bit(0);  // vui_parameters_present_flag
  bits.Bit(0);  // sps_extension_present_flag
  return bits.Finish();
}

std::vector<std::uint8_t> Pps(const VAPictureParameterBufferHEVC& picture, std::uint32_t pps_id) {
  const auto& pic = picture.pic_fields.bits;
  const auto& slice = picture.slice_parsing_fields.bits;
  BitWriter bits;
  bits.Unsigned(pps_id);
  bits.Unsigned(0);  // pps_seq_parameter_set_id
  bits.Bit(slice.dependent_slice_segments_enabled_flag);
  bits.Bit(slice.output_flag_present_flag);
  bits.Bits(picture.num_extra_slice_header_bits, 3);
  bits.Bit(pic.sign_data_hiding_enabled_flag);
  bits.Bit(slice.cabac_init_present_flag);
  bits.Unsigned(picture.num_ref_idx_l0_default_active_minus1);
  bits.Unsigned(picture.num_ref_idx_l1_default_active_minus1);
  bits.Signed(picture.init_qp_minus26);
  bits.Bit(pic.constrained_intra_pred_flag);
  bits.Bit(pic.transform_skip_enabled_flag);
  bits.Bit(pic.cu_qp_delta_enabled_flag);
  if (pic.cu_qp_delta_enabled_flag) bits.Unsigned(picture.diff_cu_qp_delta_depth);
  bits.Signed(picture.pps_cb_qp_offset);
  bits.Signed(picture.pps_cr_qp_offset);
  bits.Bit(slice.pps_slice_chroma_qp_offsets_present_flag);
  bits.Bit(pic.weighted_pred_flag);
  bits.Bit(pic.weighted_bipred_flag);
  bits.Bit(pic.transquant_bypass_enabled_flag);
  bits.Bit(pic.tiles_enabled_flag);
  bits.Bit(pic.entropy_coding_sync_enabled_flag);
  if (pic.tiles_enabled_flag) {
    // VA gives every column's and row's size, so they are written out, not spaced uniformly.
    bits.Unsigned(picture.num_tile_columns_minus1);
    bits.Unsigned(picture.num_tile_rows_minus1);
    bits.Bit(0);  // uniform_spacing_flag
    for (int i = 0; i < picture.num_tile_columns_minus1; ++i)
      bits.Unsigned(picture.column_width_minus1[i]);
    for (int i = 0; i < picture.num_tile_rows_minus1; ++i)
      bits.Unsigned(picture.row_height_minus1[i]);
    bits.Bit(pic.loop_filter_across_tiles_enabled_flag);
  }
  bits.Bit(pic.pps_loop_filter_across_slices_enabled_flag);
  bits.Bit(1);  // deblocking_filter_control_present_flag
  bits.Bit(slice.deblocking_filter_override_enabled_flag);
  bits.Bit(slice.pps_disable_deblocking_filter_flag);
  if (!slice.pps_disable_deblocking_filter_flag) {
    bits.Signed(picture.pps_beta_offset_div2);
    bits.Signed(picture.pps_tc_offset_div2);
  }
  bits.Bit(0);  // pps_scaling_list_data_present_flag
  bits.Bit(slice.lists_modification_present_flag);
  bits.Unsigned(picture.log2_parallel_merge_level_minus2);
  bits.Bit(slice.slice_segment_header_extension_present_flag);
  bits.Bit(0);  // pps_extension_present_flag
  return bits.Finish();
}

}  // namespace

std::optional<std::uint32_t> HevcSlicePpsId(std::span<const std::uint8_t> nal) {
  if (nal.size() < 3) return std::nullopt;
  const int type = (nal[0] >> 1) & 0x3f;
  const bool random_access = type >= 16 && type <= 23;
  if (type > 9 && !random_access) return std::nullopt;
  BitReader bits(nal.subspan(2));
  if (!bits.Bit()) return std::nullopt;                   // first_slice_segment_in_pic_flag
  if (random_access && !bits.Bit()) return std::nullopt;  // no_output_of_prior_pics_flag
  const std::optional<std::uint32_t> pps_id = bits.Unsigned();
  if (!pps_id || *pps_id > 63) return std::nullopt;
  return pps_id;
}

bool HevcParameterSets(const VAPictureParameterBufferHEVC& picture, std::uint32_t pps_id,
                       std::vector<std::uint8_t>& out, std::string* error) {
  const auto& pic = picture.pic_fields.bits;
  if (picture.num_short_term_ref_pic_sets != 0) {
    *error =
        "HEVC whose SPS lists short-term reference picture sets cannot be rebuilt from VA's "
        "parameters (a slice may name one by its index)";
    return false;
  }
  if (picture.num_long_term_ref_pic_sps != 0) {
    *error =
        "HEVC whose SPS lists long-term reference pictures cannot be rebuilt from VA's "
        "parameters";
    return false;
  }
  if (pic.scaling_list_enabled_flag) {
    *error = "HEVC with scaling lists is not decoded by the fake";
    return false;
  }
  if (pic.chroma_format_idc != 1 || pic.separate_colour_plane_flag ||
      picture.bit_depth_luma_minus8 != 0 || picture.bit_depth_chroma_minus8 != 0) {
    *error = "the fake decodes 8-bit 4:2:0 HEVC only";
    return false;
  }
  if (picture.num_tile_columns_minus1 >= 19 || picture.num_tile_rows_minus1 >= 21) {
    *error = "HEVC picture parameters with more tiles than VA's lists hold";
    return false;
  }
  AppendNal(kVpsHeader, Vps(picture), out);
  AppendNal(kSpsHeader, Sps(picture), out);
  AppendNal(kPpsHeader, Pps(picture, pps_id), out);
  return true;
}

}  // namespace mc::fakeva
