// The engine's HEVC encoder, over libx265.
#include <x265.h>

#include <array>
#include <cstring>

#include "engine_encoder.h"

namespace fakenv {
namespace {

// x265 is several times slower than x264 at the same preset name.
// So NVENC's P1 to P7 map to presets a rank or two faster.
// That keeps an HEVC encode near an H.264 one in time.
constexpr std::array<const char*, 7> kX265Presets = {
    "ultrafast", "ultrafast", "superfast", "superfast", "veryfast", "faster", "fast"};

wire::PictureType PictureTypeOf(int slice_type) {
  switch (slice_type) {
    case X265_TYPE_IDR:
      return wire::PictureType::kIdr;
    case X265_TYPE_I:
      return wire::PictureType::kI;
    case X265_TYPE_B:
    case X265_TYPE_BREF:
      return wire::PictureType::kB;
    default:
      return wire::PictureType::kP;
  }
}

// The encoder is reached through libx265's API of one bit depth (x265_api_get): 8 for Main,
// 10 for Main10, which Debian's libx265 builds alongside.
class X265Encoder : public Encoder {
 public:
  X265Encoder(const x265_api* api, x265_param* param, x265_encoder* encoder)
      : api_(api), param_(param), encoder_(encoder) {}
  ~X265Encoder() override {
    api_->encoder_close(encoder_);
    api_->param_free(param_);
  }

  bool Encode(const wire::FrameHeader& frame, const std::byte* pixels,
              std::vector<CodedUnit>& out) override {
    const Planes planes = FindPlanes(frame, pixels);
    x265_picture in;
    api_->picture_init(param_, &in);
    in.pts = frame.pts;
    in.sliceType = frame.force_idr ? X265_TYPE_IDR : X265_TYPE_AUTO;
    in.colorSpace = X265_CSP_I420;
    if ((frame.format == wire::PixelFormat::kP010) != (api_->bit_depth == 10)) return false;
    if (frame.format == wire::PixelFormat::kP010) {
      SplitP010(planes, frame.width, frame.height);
      in.bitDepth = 10;
      in.planes[0] = luma16_.data();
      in.planes[1] = chroma16_u_.data();
      in.planes[2] = chroma16_v_.data();
      in.stride[0] = static_cast<int>(frame.width * 2);
      in.stride[1] = in.stride[2] = static_cast<int>((frame.width + 1) / 2 * 2);
      return Collect(&in, out);
    }
    in.bitDepth = 8;
    in.planes[0] = const_cast<std::uint8_t*>(planes.y);
    in.stride[0] = planes.luma_pitch;
    if (frame.format == wire::PixelFormat::kNv12) {
      // x265 takes planar chroma only: the interleaved plane is split here, as a copy engine
      // would do it on the GPU.
      SplitChroma(planes, frame.width, frame.height);
      in.planes[1] = chroma_u_.data();
      in.planes[2] = chroma_v_.data();
      in.stride[1] = in.stride[2] = static_cast<int>((frame.width + 1) / 2);
    } else {
      in.planes[1] = const_cast<std::uint8_t*>(planes.u);
      in.planes[2] = const_cast<std::uint8_t*>(planes.v);
      in.stride[1] = in.stride[2] = planes.chroma_pitch;
    }
    return Collect(&in, out);
  }

  bool Flush(std::vector<CodedUnit>& out) override {
    for (;;) {
      const std::size_t before = out.size();
      if (!Collect(nullptr, out)) return false;
      if (out.size() == before) return true;
    }
  }

  std::vector<std::byte> ParameterSets() override {
    x265_nal* nals = nullptr;
    std::uint32_t count = 0;
    std::vector<std::byte> sets;
    if (api_->encoder_headers(encoder_, &nals, &count) < 0) return sets;
    for (std::uint32_t i = 0; i < count; ++i) {
      if (nals[i].type != NAL_UNIT_VPS && nals[i].type != NAL_UNIT_SPS &&
          nals[i].type != NAL_UNIT_PPS) {
        continue;
      }
      const auto* payload = reinterpret_cast<const std::byte*>(nals[i].payload);
      sets.insert(sets.end(), payload, payload + nals[i].sizeBytes);
    }
    return sets;
  }

 private:
  void SplitChroma(const Planes& planes, std::uint32_t width, std::uint32_t height) {
    const std::size_t chroma_width = (width + 1) / 2;
    const std::size_t chroma_rows = (height + 1) / 2;
    chroma_u_.resize(chroma_width * chroma_rows);
    chroma_v_.resize(chroma_width * chroma_rows);
    for (std::size_t row = 0; row < chroma_rows; ++row) {
      const std::uint8_t* line = planes.u + row * static_cast<std::size_t>(planes.chroma_pitch);
      for (std::size_t x = 0; x < chroma_width; ++x) {
        chroma_u_[row * chroma_width + x] = line[2 * x];
        chroma_v_[row * chroma_width + x] = line[2 * x + 1];
      }
    }
  }

  // SplitP010 takes P010's samples down from the top ten bits of each 16 into planar 10-bit
  // planes, as x265 takes them.
  void SplitP010(const Planes& planes, std::uint32_t width, std::uint32_t height) {
    const std::size_t chroma_width = (width + 1) / 2;
    const std::size_t chroma_rows = (height + 1) / 2;
    luma16_.resize(std::size_t{width} * height);
    chroma16_u_.resize(chroma_width * chroma_rows);
    chroma16_v_.resize(chroma_width * chroma_rows);
    auto sample = [](const std::uint8_t* at) {
      return static_cast<std::uint16_t>((at[0] | at[1] << 8) >> 6);
    };
    for (std::size_t row = 0; row < height; ++row) {
      const std::uint8_t* line = planes.y + row * static_cast<std::size_t>(planes.luma_pitch);
      for (std::size_t x = 0; x < width; ++x) luma16_[row * width + x] = sample(line + 2 * x);
    }
    for (std::size_t row = 0; row < chroma_rows; ++row) {
      const std::uint8_t* line = planes.u + row * static_cast<std::size_t>(planes.chroma_pitch);
      for (std::size_t x = 0; x < chroma_width; ++x) {
        chroma16_u_[row * chroma_width + x] = sample(line + 4 * x);
        chroma16_v_[row * chroma_width + x] = sample(line + 4 * x + 2);
      }
    }
  }

  bool Collect(x265_picture* in, std::vector<CodedUnit>& out) {
    x265_nal* nals = nullptr;
    std::uint32_t count = 0;
    x265_picture coded;
    api_->picture_init(param_, &coded);
    const int got = api_->encoder_encode(encoder_, &nals, &count, in, &coded);
    if (got < 0) return false;
    if (got == 0 || count == 0) return true;
    CodedUnit unit;
    for (std::uint32_t i = 0; i < count; ++i) {
      const auto* payload = reinterpret_cast<const std::byte*>(nals[i].payload);
      unit.bytes.insert(unit.bytes.end(), payload, payload + nals[i].sizeBytes);
    }
    unit.pts = coded.pts;
    unit.picture_type = PictureTypeOf(coded.sliceType);
    unit.average_qp = static_cast<std::uint32_t>(coded.frameData.qp);
    out.push_back(std::move(unit));
    return true;
  }

  const x265_api* api_;
  x265_param* param_;
  x265_encoder* encoder_;
  std::vector<std::uint8_t> chroma_u_;
  std::vector<std::uint8_t> chroma_v_;
  std::vector<std::uint16_t> luma16_;
  std::vector<std::uint16_t> chroma16_u_;
  std::vector<std::uint16_t> chroma16_v_;
};

}  // namespace

std::unique_ptr<Encoder> OpenX265(const wire::EncoderSettings& settings, std::string* error) {
  // HEVC's profile 2 is Main10.
  const int depth = settings.profile == 2 ? 10 : 8;
  const x265_api* api = x265_api_get(depth);
  if (!api) {
    *error = "this libx265 has no " + std::to_string(depth) + "-bit encoder";
    return nullptr;
  }
  x265_param* param = api->param_alloc();
  if (!param ||
      api->param_default_preset(param, kX265Presets[settings.preset - 1], "zerolatency") < 0) {
    api->param_free(param);
    *error = "x265 does not know its preset";
    return nullptr;
  }
  param->logLevel = X265_LOG_ERROR;
  param->sourceWidth = static_cast<int>(settings.width);
  param->sourceHeight = static_cast<int>(settings.height);
  param->internalCsp = X265_CSP_I420;
  param->fpsNum = settings.fps_num;
  param->fpsDenom = settings.fps_den;
  param->bAnnexB = 1;
  param->bRepeatHeaders = static_cast<int>(settings.repeat_headers);
  param->bEmitInfoSEI = 0;
  param->frameNumThreads = 1;
  param->scenecutThreshold = 0;
  param->keyframeMax = settings.idr_period == 0 ? -1 : static_cast<int>(settings.idr_period);
  api->param_parse(param, "pools", "1");

  switch (settings.rate_control) {
    case wire::RateControl::kConstantQp:
      param->rc.rateControlMode = X265_RC_CQP;
      param->rc.qp = static_cast<int>(settings.const_qp);
      break;
    case wire::RateControl::kConstantQuality:
      param->rc.rateControlMode = X265_RC_CRF;
      param->rc.rfConstant = static_cast<double>(settings.target_quality);
      break;
    case wire::RateControl::kAverageBitrate:
      param->rc.rateControlMode = X265_RC_ABR;
      param->rc.bitrate = static_cast<int>(settings.average_bitrate / 1000);
      if (settings.max_bitrate > 0) {
        param->rc.vbvMaxBitrate = static_cast<int>(settings.max_bitrate / 1000);
        param->rc.vbvBufferSize = static_cast<int>(
            (settings.vbv_buffer_bits > 0 ? settings.vbv_buffer_bits : settings.max_bitrate) /
            1000);
      }
      break;
  }
  if (depth == 10 && api->param_apply_profile(param, "main10") < 0) {
    api->param_free(param);
    *error = "x265 cannot apply the profile main10";
    return nullptr;
  }
  x265_encoder* encoder = api->encoder_open(param);
  if (!encoder) {
    api->param_free(param);
    *error = "x265_encoder_open failed";
    return nullptr;
  }
  return std::make_unique<X265Encoder>(api, param, encoder);
}

}  // namespace fakenv
