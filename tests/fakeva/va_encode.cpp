#include "va_encode.h"

#include <va/va_enc_h264.h>
#include <va/va_enc_hevc.h>

#include <algorithm>
#include <cstring>

#include "va_engine.h"

namespace mc::fakeva {
namespace {

namespace wire = fakenv::wire;

bool Hevc(VAProfile profile) {
  return profile == VAProfileHEVCMain || profile == VAProfileHEVCMain10;
}

// As reads a parameter buffer as the structure its type holds, refusing a short one: the
// size is the caller's, and is not trusted.
template <typename T>
bool As(const RenderedBuffer& buffer, T& out, const char* name, std::string* error) {
  if (buffer.bytes.size() < sizeof(T)) {
    *error = std::string("a ") + name + " of " + std::to_string(buffer.bytes.size()) + " bytes, " +
             std::to_string(sizeof(T)) + " expected";
    return false;
  }
  std::memcpy(&out, buffer.bytes.data(), sizeof(T));
  return true;
}

std::uint32_t ProfileOf(VAProfile profile) {
  switch (profile) {
    case VAProfileH264ConstrainedBaseline:
      return 66;
    case VAProfileH264Main:
      return 77;
    case VAProfileHEVCMain:
      return 1;
    case VAProfileHEVCMain10:
      return 2;
    default:
      return 100;
  }
}

// The surface format a profile's pictures come in: P010 for HEVC Main10, NV12 otherwise.
std::uint32_t FourccFor(VAProfile profile) {
  return profile == VAProfileHEVCMain10 ? VA_FOURCC_P010 : VA_FOURCC_NV12;
}

// AppendUnit adds one access unit the engine sent to the coded buffer, if it fits.
VAStatus AppendUnit(const wire::Message& reply, Buffer& coded, std::string* error) {
  if (static_cast<wire::Reply>(reply.header.type) != wire::Reply::kBitstream ||
      !wire::ParseUnitHeader(reply.payload, false)) {
    return VA_STATUS_SUCCESS;
  }
  const std::span<const std::byte> unit =
      std::span<const std::byte>(reply.payload).subspan(sizeof(wire::UnitHeader));
  if (unit.size() > coded.data.size() - coded.coded_size) {
    *error = "an access unit of " + std::to_string(unit.size()) +
             " bytes does not fit the coded buffer of " + std::to_string(coded.data.size());
    coded.coded_status |= VA_CODED_BUF_STATUS_SLICE_OVERFLOW_MASK;
    return VA_STATUS_ERROR_NOT_ENOUGH_BUFFER;
  }
  std::memcpy(coded.data.data() + coded.coded_size, unit.data(), unit.size());
  coded.coded_size += static_cast<std::uint32_t>(unit.size());
  return VA_STATUS_SUCCESS;
}

}  // namespace

EncodeSession::EncodeSession(VAProfile profile, std::uint32_t rate_control, std::string state_dir)
    : profile_(profile), rate_control_(rate_control), state_dir_(std::move(state_dir)) {
  settings_.codec = Hevc(profile) ? wire::Codec::kHevc : wire::Codec::kH264;
  settings_.fps_num = 30;
  settings_.fps_den = 1;
  settings_.profile = ProfileOf(profile);
  // IDR pictures come when the client asks for them, as ffmpeg decides its GOP itself.
  settings_.idr_period = 0;
  settings_.repeat_headers = 1;
  settings_.rate_control = rate_control == VA_RC_CQP ? wire::RateControl::kConstantQp
                                                     : wire::RateControl::kAverageBitrate;
}

EncodeSession::~EncodeSession() = default;

void EncodeSession::ReadMisc(const std::vector<std::uint8_t>& bytes) {
  if (bytes.size() < sizeof(VAEncMiscParameterBuffer)) return;
  VAEncMiscParameterBuffer head;
  std::memcpy(&head, bytes.data(), sizeof head);
  const std::uint8_t* data = bytes.data() + sizeof(VAEncMiscParameterBuffer);
  const std::size_t size = bytes.size() - sizeof(VAEncMiscParameterBuffer);
  if (head.type == VAEncMiscParameterTypeRateControl &&
      size >= sizeof(VAEncMiscParameterRateControl)) {
    VAEncMiscParameterRateControl rc;
    std::memcpy(&rc, data, sizeof rc);
    // VBR: bits_per_second is the peak and target_percentage the share of it to average.
    const std::uint32_t percent =
        rc.target_percentage > 0 ? std::min(rc.target_percentage, 100u) : 100;
    settings_.max_bitrate = rate_control_ == VA_RC_VBR ? rc.bits_per_second : 0;
    settings_.average_bitrate =
        static_cast<std::uint32_t>(std::uint64_t{rc.bits_per_second} * percent / 100);
    if (rate_control_ == VA_RC_CBR) settings_.max_bitrate = rc.bits_per_second;
  } else if (head.type == VAEncMiscParameterTypeHRD && size >= sizeof(VAEncMiscParameterHRD)) {
    VAEncMiscParameterHRD hrd;
    std::memcpy(&hrd, data, sizeof hrd);
    settings_.vbv_buffer_bits = hrd.buffer_size;
  } else if (head.type == VAEncMiscParameterTypeFrameRate &&
             size >= sizeof(VAEncMiscParameterFrameRate)) {
    VAEncMiscParameterFrameRate rate;
    std::memcpy(&rate, data, sizeof rate);
    // The low 16 bits are the numerator, the high 16 the denominator (0 meaning 1).
    const std::uint32_t num = rate.framerate & 0xffff;
    const std::uint32_t den = rate.framerate >> 16;
    if (num > 0) {
      settings_.fps_num = num;
      settings_.fps_den = den > 0 ? den : 1;
    }
  } else if (head.type == VAEncMiscParameterTypeQualityLevel &&
             size >= sizeof(VAEncMiscParameterBufferQualityLevel)) {
    VAEncMiscParameterBufferQualityLevel quality;
    std::memcpy(&quality, data, sizeof quality);
    // VA's level 1 is the best quality and 7 the fastest; the engine's presets run the other way.
    if (quality.quality_level >= 1 && quality.quality_level <= 7)
      settings_.preset = 8 - quality.quality_level;
  }
}

bool EncodeSession::Read(const std::vector<RenderedBuffer>& buffers, EncodePicture& picture,
                         std::string* error) {
  bool have_picture = false;
  int qp_delta = 0;
  for (const RenderedBuffer& buffer : buffers) {
    if (buffer.type == VAEncMiscParameterBufferType) {
      ReadMisc(buffer.bytes);
    } else if (buffer.type == VAEncSequenceParameterBufferType && !Hevc(profile_)) {
      VAEncSequenceParameterBufferH264 sequence;
      if (!As(buffer, sequence, "VAEncSequenceParameterBufferH264", error)) return false;
      if (rate_control_ != VA_RC_CQP && settings_.average_bitrate == 0)
        settings_.average_bitrate = sequence.bits_per_second;
    } else if (buffer.type == VAEncSequenceParameterBufferType) {
      VAEncSequenceParameterBufferHEVC sequence;
      if (!As(buffer, sequence, "VAEncSequenceParameterBufferHEVC", error)) return false;
      if (rate_control_ != VA_RC_CQP && settings_.average_bitrate == 0)
        settings_.average_bitrate = sequence.bits_per_second;
    } else if (buffer.type == VAEncPictureParameterBufferType && !Hevc(profile_)) {
      VAEncPictureParameterBufferH264 parameters;
      if (!As(buffer, parameters, "VAEncPictureParameterBufferH264", error)) return false;
      picture.coded_buffer = parameters.coded_buf;
      picture.idr = parameters.pic_fields.bits.idr_pic_flag;
      picture.qp = parameters.pic_init_qp;
      have_picture = true;
    } else if (buffer.type == VAEncPictureParameterBufferType) {
      VAEncPictureParameterBufferHEVC parameters;
      if (!As(buffer, parameters, "VAEncPictureParameterBufferHEVC", error)) return false;
      picture.coded_buffer = parameters.coded_buf;
      picture.idr = parameters.pic_fields.bits.idr_pic_flag;
      picture.qp = parameters.pic_init_qp;
      have_picture = true;
    } else if (buffer.type == VAEncSliceParameterBufferType && !Hevc(profile_)) {
      VAEncSliceParameterBufferH264 slice;
      if (!As(buffer, slice, "VAEncSliceParameterBufferH264", error)) return false;
      qp_delta = slice.slice_qp_delta;
    } else if (buffer.type == VAEncSliceParameterBufferType) {
      VAEncSliceParameterBufferHEVC slice;
      if (!As(buffer, slice, "VAEncSliceParameterBufferHEVC", error)) return false;
      qp_delta = slice.slice_qp_delta;
    }
  }
  if (!have_picture) {
    *error = "the picture has no picture parameter buffer";
    return false;
  }
  picture.qp =
      static_cast<std::uint32_t>(std::clamp(static_cast<int>(picture.qp) + qp_delta, 0, 51));
  return true;
}

bool EncodeSession::Open(const Surface& input, std::string* error) {
  if (input.fourcc != FourccFor(profile_)) {
    *error = profile_ == VAProfileHEVCMain10 ? "HEVC Main10 encodes P010 pictures only"
                                             : "8-bit encodes take NV12 pictures only";
    return false;
  }
  settings_.width = input.width;
  settings_.height = input.height;
  if (settings_.rate_control == wire::RateControl::kAverageBitrate &&
      settings_.average_bitrate == 0) {
    *error = "a bitrate-controlled encode without a bitrate";
    return false;
  }
  engine_ = StartEngine(fakenv::EngineClient::Role::kEncoder, state_dir_, error);
  if (!engine_) return false;
  const VAStatus opened = Exchange(
      *engine_, wire::Request::kOpenEncoder, wire::AsBytes(settings_), {},
      VA_STATUS_ERROR_OPERATION_FAILED, [](const wire::Message&) { return VA_STATUS_SUCCESS; },
      error);
  if (opened != VA_STATUS_SUCCESS) engine_.reset();
  return opened == VA_STATUS_SUCCESS;
}

VAStatus EncodeSession::Encode(const Surface& input, const std::vector<RenderedBuffer>& buffers,
                               VaMemory& memory, std::chrono::nanoseconds* busy,
                               std::string* error) {
  EncodePicture picture;
  if (!Read(buffers, picture, error)) return VA_STATUS_ERROR_INVALID_PARAMETER;
  Buffer* coded = memory.FindBuffer(picture.coded_buffer);
  if (!coded || coded->type != VAEncCodedBufferType) {
    *error = "the picture parameters name no coded buffer";
    return VA_STATUS_ERROR_INVALID_BUFFER;
  }
  if (settings_.rate_control == wire::RateControl::kConstantQp) settings_.const_qp = picture.qp;
  const auto start = std::chrono::steady_clock::now();
  if (!engine_ && !Open(input, error)) return VA_STATUS_ERROR_OPERATION_FAILED;
  if (input.width != settings_.width || input.height != settings_.height ||
      input.fourcc != FourccFor(profile_)) {
    *error = "the picture's size or format differs from the stream's";
    return VA_STATUS_ERROR_INVALID_SURFACE;
  }
  wire::FrameHeader frame;
  frame.format =
      input.fourcc == VA_FOURCC_P010 ? wire::PixelFormat::kP010 : wire::PixelFormat::kNv12;
  frame.width = input.width;
  frame.height = input.height;
  frame.pitch = input.pitch;
  frame.pts = pictures_++;
  frame.force_idr = picture.idr ? 1 : 0;
  std::vector<std::uint8_t> packed;
  coded->coded_size = 0;
  coded->coded_status = 0;
  const VAStatus status = Exchange(
      *engine_, wire::Request::kEncodeFrame, wire::AsBytes(frame),
      std::as_bytes(WirePicture(input, packed)), VA_STATUS_ERROR_ENCODING_ERROR,
      [&](const wire::Message& reply) { return AppendUnit(reply, *coded, error); }, error);
  *busy = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                               start);
  return status;
}

}  // namespace mc::fakeva
