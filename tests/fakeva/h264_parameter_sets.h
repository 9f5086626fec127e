// H.264 parameter sets rebuilt from what a VA-API client hands a decoder: ffmpeg parses the
// stream itself and passes only VAPictureParameterBufferH264, VAIQMatrixBufferH264 and each
// slice's NAL unit, so the stand-in writes an SPS and a PPS that make those slices decode the
// same way in a decoder of its own (the engine's libavcodec).
#pragma once

#include <va/va.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mc::fakeva {

// What the PPS must say that the picture parameters do not: its id, from the slice header,
// and the reference counts the slices use when they do not override them.
struct PpsChoice {
  std::uint32_t pps_id = 0;
  std::uint32_t l0_default_active_minus1 = 0;
  std::uint32_t l1_default_active_minus1 = 0;
};

// SlicePpsId reads pic_parameter_set_id from a slice NAL unit (its header byte first);
// nullopt when the unit is too short or not a slice.
std::optional<std::uint32_t> SlicePpsId(std::span<const std::uint8_t> nal);

// H264ParameterSets writes an SPS (id 0) and a PPS, each with its start code, that state what
// `picture` and `matrix` (null: flat) say. It refuses, naming why, what the stand-in cannot
// rebuild or decode: picture order count type 1, field and MBAFF coding, anything but 8-bit
// 4:2:0. (Slice groups never reach a VA decoder: only Baseline has them, and VA decodes
// Constrained Baseline.)
bool H264ParameterSets(const VAPictureParameterBufferH264& picture,
                       const VAIQMatrixBufferH264* matrix, const PpsChoice& choice,
                       std::vector<std::uint8_t>& out, std::string* error);

}  // namespace mc::fakeva
