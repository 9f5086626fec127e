// HEVC parameter sets rebuilt from what a VA-API client hands a decoder.
// ffmpeg parses the stream itself.
// It passes only VAPictureParameterBufferHEVC and each slice segment's NAL unit.
// So the fake writes a VPS, an SPS and a PPS.
// Under them those slices decode the same way in the engine's libavcodec.
// The slices go as they came.
#pragma once

#include <va/va.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mc::fakeva {

// HevcSlicePpsId reads slice_pic_parameter_set_id from a slice segment's NAL unit.
// The unit starts with its two header bytes.
// Gives nullopt when the unit is too short or not a slice segment.
std::optional<std::uint32_t> HevcSlicePpsId(std::span<const std::uint8_t> nal);

// HevcParameterSets writes a VPS and an SPS (id 0 each) and a PPS of id `pps_id`.
// Each has its start code, and they state what `picture` says.
// The picture order is decode order, with no reordering.
// VA wants each picture when its decode ends.
// It refuses, naming why, what VA's parameters do not carry:
//  - reference picture sets listed in the SPS (a slice may name them by index);
//  - long-term pictures listed there;
//  - scaling lists.
// It also refuses what the fake does not decode: anything but 8-bit 4:2:0.
bool HevcParameterSets(const VAPictureParameterBufferHEVC& picture, std::uint32_t pps_id,
                       std::vector<std::uint8_t>& out, std::string* error);

}  // namespace mc::fakeva
