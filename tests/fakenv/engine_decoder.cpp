#include "engine_decoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
}

#include <cstring>

namespace fakenv {
namespace {

const char* DecoderName(wire::Codec codec) {
  switch (codec) {
    case wire::Codec::kH264:
      return "h264";
    case wire::Codec::kHevc:
      return "hevc";
    case wire::Codec::kVp9:
      return "vp9";
    // Debian's libavcodec decodes AV1 in software through libdav1d.
    case wire::Codec::kAv1:
      return "libdav1d";
    case wire::Codec::kMpeg2:
      return "mpeg2video";
    case wire::Codec::kVp8:
      return "vp8";
  }
  return "";
}

std::string AvError(int code) {
  char text[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(code, text, sizeof text);
  return text;
}

class AvDecoder : public Decoder {
 public:
  AvDecoder(AVCodecContext* context, AVPacket* packet, AVFrame* frame, AVFrame* captured)
      : context_(context), packet_(packet), frame_(frame), captured_(captured) {
    if (captured_) {
      context_->opaque = this;
      context_->get_buffer2 = Capture;
    }
  }
  ~AvDecoder() override {
    av_frame_free(&captured_);
    av_frame_free(&frame_);
    av_packet_free(&packet_);
    avcodec_free_context(&context_);
  }

  bool Decode(std::span<const std::byte> bytes, std::optional<std::int64_t> pts,
              std::vector<DecodedPicture>& out, std::string* error) override {
    if (av_new_packet(packet_, static_cast<int>(bytes.size())) < 0) {
      *error = "out of memory";
      return false;
    }
    std::memcpy(packet_->data, bytes.data(), bytes.size());
    packet_->pts = pts.value_or(AV_NOPTS_VALUE);
    if (captured_) av_frame_unref(captured_);
    const int sent = avcodec_send_packet(context_, packet_);
    av_packet_unref(packet_);
    // A damaged packet is the decoder's business, as with NVDEC.
    // What decodes is returned.
    if (sent < 0 && sent != AVERROR_INVALIDDATA) {
      *error = "avcodec_send_packet failed: " + AvError(sent);
      return false;
    }
    if (!captured_) return Drain(out, error);
    // Single-threaded, the picture is whole once the packet is sent.
    // The display-order output is not this code's business.
    std::vector<DecodedPicture> displayed;
    if (!Drain(displayed, error)) return false;
    if (!captured_->buf[0]) return true;
    captured_->best_effort_timestamp = packet_->pts;
    return ToNv12(captured_, out, error);
  }

  bool Flush(std::vector<DecodedPicture>& out, std::string* error) override {
    avcodec_send_packet(context_, nullptr);
    if (!captured_) return Drain(out, error);
    std::vector<DecodedPicture> displayed;
    return Drain(displayed, error);
  }

 private:
  // Capture is the decoder's get_buffer2 in decode order.
  // It gives the default buffer, and keeps a reference to the last one asked for.
  // That is the picture of the packet being decoded.
  static int Capture(AVCodecContext* context, AVFrame* frame, int flags) {
    const int got = avcodec_default_get_buffer2(context, frame, flags);
    if (got < 0) return got;
    auto* self = static_cast<AvDecoder*>(context->opaque);
    av_frame_unref(self->captured_);
    return av_frame_ref(self->captured_, frame);
  }

  bool Drain(std::vector<DecodedPicture>& out, std::string* error) {
    for (;;) {
      const int got = avcodec_receive_frame(context_, frame_);
      if (got == AVERROR(EAGAIN) || got == AVERROR_EOF) return true;
      if (got < 0) {
        *error = "avcodec_receive_frame failed: " + AvError(got);
        return false;
      }
      const bool converted = ToNv12(frame_, out, error);
      av_frame_unref(frame_);
      if (!converted) return false;
    }
  }

  static bool ToNv12(const AVFrame* frame, std::vector<DecodedPicture>& out, std::string* error) {
    if (frame->format != AV_PIX_FMT_YUV420P && frame->format != AV_PIX_FMT_YUVJ420P) {
      const char* name = av_get_pix_fmt_name(static_cast<AVPixelFormat>(frame->format));
      *error = std::string("the engine decodes 8-bit 4:2:0 only, not ") + (name ? name : "?");
      return false;
    }
    DecodedPicture picture;
    const auto width = static_cast<std::uint32_t>(frame->width);
    const auto height = static_cast<std::uint32_t>(frame->height);
    const std::uint32_t pitch = (width + 1) & ~1u;
    const std::size_t chroma_rows = (height + 1) / 2;
    picture.header.width = width;
    picture.header.height = height;
    picture.header.pitch = pitch;
    picture.header.pts = frame->best_effort_timestamp;
    picture.header.key_frame = frame->key_frame ? 1 : 0;
    picture.header.picture_type =
        frame->key_frame ? wire::PictureType::kIdr : wire::PictureType::kP;
    picture.nv12.resize(static_cast<std::size_t>(pitch) * (height + chroma_rows));
    auto* luma = reinterpret_cast<std::uint8_t*>(picture.nv12.data());
    for (std::uint32_t row = 0; row < height; ++row) {
      std::memcpy(luma + row * pitch, frame->data[0] + row * frame->linesize[0], width);
    }
    std::uint8_t* chroma = luma + static_cast<std::size_t>(pitch) * height;
    for (std::size_t row = 0; row < chroma_rows; ++row) {
      const std::uint8_t* u = frame->data[1] + row * frame->linesize[1];
      const std::uint8_t* v = frame->data[2] + row * frame->linesize[2];
      std::uint8_t* line = chroma + row * pitch;
      for (std::uint32_t x = 0; x < (width + 1) / 2; ++x) {
        line[2 * x] = u[x];
        line[2 * x + 1] = v[x];
      }
    }
    out.push_back(std::move(picture));
    return true;
  }

  AVCodecContext* context_;
  AVPacket* packet_;
  AVFrame* frame_;
  // The picture of the packet being decoded, in decode order.
  // Null in display order.
  AVFrame* captured_;
};

}  // namespace

std::unique_ptr<Decoder> OpenDecoder(wire::Codec codec, bool decode_order, std::string* error) {
  // The decoder's complaints about a packet are not the client's to read.
  // A sequence header alone gives "no frame!", for one.
  // What fails reaches the client as the reply's status.
  av_log_set_level(AV_LOG_FATAL);
  const AVCodec* decoder = avcodec_find_decoder_by_name(DecoderName(codec));
  if (!decoder) {
    *error = std::string("libavcodec has no decoder ") + DecoderName(codec);
    return nullptr;
  }
  AVCodecContext* context = avcodec_alloc_context3(decoder);
  AVPacket* packet = av_packet_alloc();
  AVFrame* frame = av_frame_alloc();
  AVFrame* captured = decode_order ? av_frame_alloc() : nullptr;
  if (context) context->thread_count = 1;
  if (!context || !packet || !frame || (decode_order && !captured) ||
      avcodec_open2(context, decoder, nullptr) < 0) {
    av_frame_free(&captured);
    av_frame_free(&frame);
    av_packet_free(&packet);
    avcodec_free_context(&context);
    *error = std::string("cannot open the decoder ") + DecoderName(codec);
    return nullptr;
  }
  return std::make_unique<AvDecoder>(context, packet, frame, captured);
}

}  // namespace fakenv
