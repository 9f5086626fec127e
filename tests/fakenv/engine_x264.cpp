// The engine's H.264 encoder, over libx264.
#include <array>
#include <cstdint>
#include <cstring>

// x264.h needs the fixed-width integer types declared before it.
#include <x264.h>

#include "engine_encoder.h"

namespace fakenv {
namespace {

// NVENC's presets P1 to P7 run from fastest to best, and so do these of x264.
// P4, ffmpeg's default, is "fast".
// By NVIDIA's own comparisons, it is near NVENC's P4 in quality.
constexpr std::array<const char*, 7> kPresets = {"ultrafast", "superfast", "veryfast", "fast",
                                                 "medium",    "slow",      "slower"};

wire::PictureType PictureTypeOf(const x264_picture_t& picture) {
  switch (picture.i_type) {
    case X264_TYPE_IDR:
      return wire::PictureType::kIdr;
    case X264_TYPE_I:
      return wire::PictureType::kI;
    case X264_TYPE_B:
    case X264_TYPE_BREF:
      return wire::PictureType::kB;
    default:
      return wire::PictureType::kP;
  }
}

class X264Encoder : public Encoder {
 public:
  explicit X264Encoder(x264_t* encoder) : encoder_(encoder) {}
  ~X264Encoder() override { x264_encoder_close(encoder_); }

  bool Encode(const wire::FrameHeader& frame, const std::byte* pixels,
              std::vector<CodedUnit>& out) override {
    // 10-bit pictures are for a Main10 HEVC encoder only.
    if (frame.format == wire::PixelFormat::kP010) return false;
    const Planes planes = FindPlanes(frame, pixels);
    x264_picture_t in;
    x264_picture_init(&in);
    in.i_pts = frame.pts;
    in.i_type = frame.force_idr ? X264_TYPE_IDR : X264_TYPE_AUTO;
    in.img.i_plane = frame.format == wire::PixelFormat::kNv12 ? 2 : 3;
    in.img.i_csp = frame.format == wire::PixelFormat::kNv12 ? X264_CSP_NV12 : X264_CSP_I420;
    in.img.plane[0] = const_cast<std::uint8_t*>(planes.y);
    in.img.plane[1] = const_cast<std::uint8_t*>(planes.u);
    in.img.plane[2] = const_cast<std::uint8_t*>(planes.v);
    in.img.i_stride[0] = planes.luma_pitch;
    in.img.i_stride[1] = planes.chroma_pitch;
    in.img.i_stride[2] = planes.chroma_pitch;
    return Collect(&in, out);
  }

  bool Flush(std::vector<CodedUnit>& out) override {
    while (x264_encoder_delayed_frames(encoder_) > 0) {
      if (!Collect(nullptr, out)) return false;
    }
    return true;
  }

  std::vector<std::byte> ParameterSets() override {
    x264_nal_t* nals = nullptr;
    int count = 0;
    std::vector<std::byte> sets;
    if (x264_encoder_headers(encoder_, &nals, &count) < 0) return sets;
    for (int i = 0; i < count; ++i) {
      // x264 adds an SEI with its settings; NVENC's sequence parameters are SPS and PPS.
      if (nals[i].i_type != NAL_SPS && nals[i].i_type != NAL_PPS) continue;
      const auto* payload = reinterpret_cast<const std::byte*>(nals[i].p_payload);
      sets.insert(sets.end(), payload, payload + nals[i].i_payload);
    }
    return sets;
  }

 private:
  bool Collect(x264_picture_t* in, std::vector<CodedUnit>& out) {
    x264_picture_t coded;
    x264_nal_t* nals = nullptr;
    int count = 0;
    const int size = x264_encoder_encode(encoder_, &nals, &count, in, &coded);
    if (size < 0) return false;
    if (size == 0) return true;
    // The payloads of one picture's NAL units are contiguous.
    const auto* payload = reinterpret_cast<const std::byte*>(nals[0].p_payload);
    CodedUnit unit;
    unit.bytes.assign(payload, payload + size);
    unit.pts = coded.i_pts;
    unit.picture_type = PictureTypeOf(coded);
    unit.average_qp = static_cast<std::uint32_t>(coded.i_qpplus1 > 0 ? coded.i_qpplus1 - 1 : 0);
    out.push_back(std::move(unit));
    return true;
  }

  x264_t* encoder_;
};

}  // namespace

std::unique_ptr<Encoder> OpenX264(const wire::EncoderSettings& settings, std::string* error) {
  x264_param_t param;
  if (x264_param_default_preset(&param, kPresets[settings.preset - 1], "zerolatency") < 0) {
    *error = "x264 does not know its preset";
    return nullptr;
  }
  param.i_log_level = X264_LOG_ERROR;
  param.i_threads = 1;
  param.i_width = static_cast<int>(settings.width);
  param.i_height = static_cast<int>(settings.height);
  param.i_csp = X264_CSP_I420;
  param.i_fps_num = settings.fps_num;
  param.i_fps_den = settings.fps_den;
  param.i_timebase_num = settings.fps_den;
  param.i_timebase_den = settings.fps_num;
  param.b_vfr_input = 0;
  param.b_annexb = 1;
  param.b_repeat_headers = static_cast<int>(settings.repeat_headers);
  // NVENC keeps to its GOP: no scene-cut IDR pictures.
  param.i_scenecut_threshold = 0;
  param.i_keyint_max =
      settings.idr_period == 0 ? X264_KEYINT_MAX_INFINITE : static_cast<int>(settings.idr_period);
  switch (settings.rate_control) {
    case wire::RateControl::kConstantQp:
      param.rc.i_rc_method = X264_RC_CQP;
      param.rc.i_qp_constant = static_cast<int>(settings.const_qp);
      break;
    case wire::RateControl::kConstantQuality:
      param.rc.i_rc_method = X264_RC_CRF;
      param.rc.f_rf_constant = static_cast<float>(settings.target_quality);
      break;
    case wire::RateControl::kAverageBitrate:
      param.rc.i_rc_method = X264_RC_ABR;
      param.rc.i_bitrate = static_cast<int>(settings.average_bitrate / 1000);
      if (settings.max_bitrate > 0) {
        param.rc.i_vbv_max_bitrate = static_cast<int>(settings.max_bitrate / 1000);
        param.rc.i_vbv_buffer_size = static_cast<int>(
            (settings.vbv_buffer_bits > 0 ? settings.vbv_buffer_bits : settings.max_bitrate) /
            1000);
      }
      break;
  }
  const char* profile = settings.profile == 66   ? "baseline"
                        : settings.profile == 77 ? "main"
                                                 : "high";
  if (x264_param_apply_profile(&param, profile) < 0) {
    *error = std::string("x264 cannot apply the profile ") + profile;
    return nullptr;
  }
  x264_t* encoder = x264_encoder_open(&param);
  if (!encoder) {
    *error = "x264_encoder_open failed";
    return nullptr;
  }
  return std::make_unique<X264Encoder>(encoder);
}

}  // namespace fakenv
