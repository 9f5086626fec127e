// H.264 parameter sets rebuilt from what a VA-API client hands a decoder.
// ffmpeg parses the stream itself. It passes only:
//  - VAPictureParameterBufferH264;
//  - VAIQMatrixBufferH264;
//  - each slice's NAL unit.
// So the fake writes an SPS and a PPS.
// They make those slices decode the same way in the engine's libavcodec.
#pragma once

#include <va/va.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mc::fakeva {

// What the PPS must say that the picture parameters do not:
//  - its id, from the slice header;
//  - the reference counts the slices use when they do not override them.
struct PpsChoice {
  std::uint32_t pps_id = 0;
  std::uint32_t l0_default_active_minus1 = 0;
  std::uint32_t l1_default_active_minus1 = 0;
};

// SlicePpsId reads pic_parameter_set_id from a slice NAL unit, header byte first.
// Gives nullopt when the unit is too short or not a slice.
std::optional<std::uint32_t> SlicePpsId(std::span<const std::uint8_t> nal);

// H264ParameterSets writes an SPS (id 0) and a PPS, each with its start code.
// They state what `picture` and `matrix` say; a null `matrix` is flat.
// It refuses, naming why, what the fake cannot rebuild or decode:
//  - picture order count type 1;
//  - field and MBAFF coding;
//  - anything but 8-bit 4:2:0.
// Slice groups never reach a VA decoder.
// Only Baseline has them, and VA decodes Constrained Baseline.
bool H264ParameterSets(const VAPictureParameterBufferH264& picture,
                       const VAIQMatrixBufferH264* matrix, const PpsChoice& choice,
                       std::vector<std::uint8_t>& out, std::string* error);

}  // namespace mc::fakeva
