#include "va_decode.h"

#include <va/va_dec_hevc.h>
#include <va/va_dec_vp9.h>

#include <cstring>

#include "h264_parameter_sets.h"
#include "hevc_parameter_sets.h"
#include "va_engine.h"

namespace mc::fakeva {
namespace {

namespace wire = fakenv::wire;

// AppendSlices pairs each slice parameter with the slice data buffer rendered after it.
// ffmpeg renders them so.
// It appends each slice's bytes, bounds-checked:
//  - H.264's and HEVC's NAL units, with a start code each;
//  - VP9's whole frame as it is.
template <typename Slice>
bool AppendSlices(const std::vector<RenderedBuffer>& buffers, bool start_codes,
                  std::vector<std::uint8_t>& slices, Slice& first, std::string* error) {
  bool have_first = false;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].type != VASliceParameterBufferType) continue;
    if (i + 1 >= buffers.size() || buffers[i + 1].type != VASliceDataBufferType) {
      *error = "a slice parameter buffer without its slice data buffer after it";
      return false;
    }
    const std::vector<std::uint8_t>& data = buffers[i + 1].bytes;
    const std::size_t count = buffers[i].bytes.size() / sizeof(Slice);
    for (std::size_t n = 0; n < count; ++n) {
      Slice slice;
      std::memcpy(&slice, buffers[i].bytes.data() + n * sizeof slice, sizeof slice);
      if (slice.slice_data_offset > data.size() ||
          slice.slice_data_size > data.size() - slice.slice_data_offset ||
          slice.slice_data_size == 0) {
        *error = "a slice of " + std::to_string(slice.slice_data_size) + " bytes at " +
                 std::to_string(slice.slice_data_offset) + " outside its data buffer of " +
                 std::to_string(data.size());
        return false;
      }
      if (!have_first) first = slice;
      have_first = true;
      if (start_codes) slices.insert(slices.end(), {0, 0, 1});
      const auto begin = data.begin() + slice.slice_data_offset;
      slices.insert(slices.end(), begin, begin + slice.slice_data_size);
    }
  }
  if (!have_first) *error = "the picture has no slices";
  return have_first;
}

// Slices appends the picture's slice NAL units, each after a start code.
// It gives the id of the picture parameter set the first one's header names.
// `read` takes that id from the header.
template <typename Slice>
std::optional<std::uint32_t> Slices(
    const std::vector<RenderedBuffer>& buffers,
    std::optional<std::uint32_t> (*read)(std::span<const std::uint8_t>),
    std::vector<std::uint8_t>& slices, Slice& first, std::string* error) {
  if (!AppendSlices(buffers, true, slices, first, error)) return std::nullopt;
  const std::optional<std::uint32_t> pps_id =
      read(std::span<const std::uint8_t>(slices).subspan(3));
  if (!pps_id) *error = "the first slice's header names no picture parameter set";
  return pps_id;
}

// PictureParameters copies the picture's parameter buffer, which must be whole.
template <typename Parameters>
bool PictureParameters(const std::vector<RenderedBuffer>& buffers, const char* name,
                       Parameters& parameters, std::string* error) {
  const RenderedBuffer* picture = nullptr;
  for (const RenderedBuffer& buffer : buffers) {
    if (buffer.type == VAPictureParameterBufferType) picture = &buffer;
  }
  if (!picture || picture->bytes.size() < sizeof parameters) {
    *error = std::string("the picture has no whole ") + name;
    return false;
  }
  std::memcpy(&parameters, picture->bytes.data(), sizeof parameters);
  return true;
}

// Vp9Frame is the frame ffmpeg hands over whole.
// VP9's decoder needs no headers rebuilt.
bool Vp9Frame(const std::vector<RenderedBuffer>& buffers, std::vector<std::uint8_t>& frame,
              std::string* error) {
  VADecPictureParameterBufferVP9 parameters;
  if (!PictureParameters(buffers, "VADecPictureParameterBufferVP9", parameters, error))
    return false;
  if (parameters.profile != 0 || parameters.bit_depth != 8) {
    *error = "the fake decodes VP9 profile 0 (8-bit 4:2:0) only";
    return false;
  }
  VASliceParameterBufferVP9 first{};
  return AppendSlices(buffers, false, frame, first, error);
}

// H264AccessUnit is the picture's slices after an SPS and a PPS rebuilt for them.
bool H264AccessUnit(const std::vector<RenderedBuffer>& buffers, std::vector<std::uint8_t>& unit,
                    std::string* error) {
  VAPictureParameterBufferH264 parameters;
  if (!PictureParameters(buffers, "VAPictureParameterBufferH264", parameters, error)) return false;
  const RenderedBuffer* matrix = nullptr;
  for (const RenderedBuffer& buffer : buffers) {
    if (buffer.type == VAIQMatrixBufferType) matrix = &buffer;
  }
  VAIQMatrixBufferH264 lists;
  const bool have_lists = matrix && matrix->bytes.size() >= sizeof lists;
  if (have_lists) std::memcpy(&lists, matrix->bytes.data(), sizeof lists);

  std::vector<std::uint8_t> slices;
  VASliceParameterBufferH264 first{};
  const std::optional<std::uint32_t> pps_id = Slices(buffers, SlicePpsId, slices, first, error);
  if (!pps_id) return false;
  const PpsChoice choice{*pps_id, first.num_ref_idx_l0_active_minus1,
                         first.num_ref_idx_l1_active_minus1};
  if (!H264ParameterSets(parameters, have_lists ? &lists : nullptr, choice, unit, error))
    return false;
  unit.insert(unit.end(), slices.begin(), slices.end());
  return true;
}

// HevcAccessUnit is the picture's slice segments.
// A VPS, an SPS and a PPS rebuilt for them come first.
bool HevcAccessUnit(const std::vector<RenderedBuffer>& buffers, std::vector<std::uint8_t>& unit,
                    std::string* error) {
  VAPictureParameterBufferHEVC parameters;
  if (!PictureParameters(buffers, "VAPictureParameterBufferHEVC", parameters, error)) return false;
  std::vector<std::uint8_t> slices;
  VASliceParameterBufferHEVC first{};
  const std::optional<std::uint32_t> pps_id = Slices(buffers, HevcSlicePpsId, slices, first, error);
  if (!pps_id) return false;
  if (!HevcParameterSets(parameters, *pps_id, unit, error)) return false;
  unit.insert(unit.end(), slices.begin(), slices.end());
  return true;
}

wire::Codec CodecOf(VAProfile profile) {
  switch (profile) {
    case VAProfileHEVCMain:
      return wire::Codec::kHevc;
    case VAProfileVP9Profile0:
      return wire::Codec::kVp9;
    default:
      return wire::Codec::kH264;
  }
}

}  // namespace

bool IsDecodable(VAProfile profile) {
  return profile == VAProfileH264ConstrainedBaseline || profile == VAProfileH264Main ||
         profile == VAProfileH264High || profile == VAProfileHEVCMain ||
         profile == VAProfileVP9Profile0;
}

DecodeSession::DecodeSession(VAProfile profile, std::string state_dir)
    : codec_(CodecOf(profile)), state_dir_(std::move(state_dir)) {}
DecodeSession::~DecodeSession() = default;

bool DecodeSession::AccessUnit(const std::vector<RenderedBuffer>& buffers,
                               std::vector<std::uint8_t>& unit, std::string* error) {
  switch (codec_) {
    case wire::Codec::kVp9:
      return Vp9Frame(buffers, unit, error);
    case wire::Codec::kHevc:
      return HevcAccessUnit(buffers, unit, error);
    default:
      return H264AccessUnit(buffers, unit, error);
  }
}

bool DecodeSession::Open(std::string* error) {
  engine_ = StartEngine(fakenv::EngineClient::Role::kDecoder, state_dir_, error);
  if (!engine_) return false;
  const wire::DecoderSettings settings{codec_, 1};
  const VAStatus opened = Exchange(
      *engine_, wire::Request::kOpenDecoder, wire::AsBytes(settings), {},
      VA_STATUS_ERROR_OPERATION_FAILED, [](const wire::Message&) { return VA_STATUS_SUCCESS; },
      error);
  if (opened != VA_STATUS_SUCCESS) engine_.reset();
  return opened == VA_STATUS_SUCCESS;
}

VAStatus DecodeSession::Decode(Surface& target, const std::vector<RenderedBuffer>& buffers,
                               std::chrono::nanoseconds* busy, std::string* error) {
  std::vector<std::uint8_t> unit;
  if (!AccessUnit(buffers, unit, error)) return VA_STATUS_ERROR_INVALID_PARAMETER;
  if (target.fourcc != VA_FOURCC_NV12) {
    *error = "the fake decodes into NV12 surfaces only";
    return VA_STATUS_ERROR_INVALID_SURFACE;
  }
  const auto start = std::chrono::steady_clock::now();
  if (!engine_ && !Open(error)) return VA_STATUS_ERROR_OPERATION_FAILED;
  const wire::PacketHeader packet{pictures_++, 1, 0};
  bool written = false;
  // The engine sends the packet's own picture.
  // It goes into the target, cropped to it.
  const auto take = [&](const wire::Message& reply) {
    const std::optional<wire::UnitHeader> header = wire::ParseUnitHeader(reply.payload, true);
    if (static_cast<wire::Reply>(reply.header.type) != wire::Reply::kFrame || !header)
      return VA_STATUS_SUCCESS;
    auto* bytes = const_cast<std::uint8_t*>(
        reinterpret_cast<const std::uint8_t*>(reply.payload.data()) + sizeof(wire::UnitHeader));
    const PictureView picture{VA_FOURCC_NV12,
                              header->width,
                              header->height,
                              header->pitch,
                              std::size_t{header->pitch} * header->height,
                              bytes};
    const std::uint32_t width = std::min(header->width, target.width) & ~1u;
    const std::uint32_t height = std::min(header->height, target.height) & ~1u;
    written = CopyRegion(picture, 0, 0, ViewOf(target), 0, 0, width, height);
    return VA_STATUS_SUCCESS;
  };
  const VAStatus status =
      Exchange(*engine_, wire::Request::kDecodePacket, wire::AsBytes(packet),
               std::as_bytes(std::span(unit)), VA_STATUS_ERROR_DECODING_ERROR, take, error);
  if (status != VA_STATUS_SUCCESS) return status;
  if (!written) {
    *error = "the engine decoded no picture of this access unit";
    return VA_STATUS_ERROR_DECODING_ERROR;
  }
  *busy = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                               start);
  return VA_STATUS_SUCCESS;
}

}  // namespace mc::fakeva
