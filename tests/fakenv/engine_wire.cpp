#include "engine_wire.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "fixed_layout.h"

namespace fakenv::wire {
namespace {

bool KnownCodec(Codec codec) {
  const auto value = static_cast<std::uint32_t>(codec);
  return value >= static_cast<std::uint32_t>(Codec::kH264) &&
         value <= static_cast<std::uint32_t>(Codec::kVp8);
}

bool KnownFormat(PixelFormat format) {
  return format == PixelFormat::kNv12 || format == PixelFormat::kYv12 ||
         format == PixelFormat::kIyuv || format == PixelFormat::kP010;
}

bool PictureSide(std::uint32_t side) { return side > 0 && side <= kLargestPictureSide; }

bool WriteAll(int fd, std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    // MSG_NOSIGNAL: an engine that died must make the call fail, not kill the client.
    const ssize_t sent = send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(sent));
  }
  return true;
}

bool ReadAll(int fd, std::byte* out, std::size_t size) {
  while (size > 0) {
    const ssize_t got = read(fd, out, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    out += got;
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

std::size_t PictureBytes(PixelFormat format, std::uint32_t pitch, std::uint32_t height) {
  const std::size_t chroma_rows = (height + 1) / 2;
  const std::size_t luma = static_cast<std::size_t>(pitch) * height;
  // NV12 and P010 interleave both chroma planes at the full pitch; the planar layouts give
  // each chroma plane half the pitch.
  if (format == PixelFormat::kNv12 || format == PixelFormat::kP010)
    return luma + static_cast<std::size_t>(pitch) * chroma_rows;
  return luma + 2 * static_cast<std::size_t>(pitch / 2) * chroma_rows;
}

std::optional<Header> ParseHeader(std::span<const std::byte> bytes) {
  std::optional<Header> header = ReadFixed<Header>(bytes);
  if (!header || header->magic != kMagic || header->payload_size > kLargestPayload) {
    return std::nullopt;
  }
  return header;
}

std::optional<EncoderSettings> ParseEncoderSettings(std::span<const std::byte> payload) {
  std::optional<EncoderSettings> settings = ReadFixed<EncoderSettings>(payload);
  if (!settings || payload.size() != sizeof(EncoderSettings)) return std::nullopt;
  if ((settings->codec != Codec::kH264 && settings->codec != Codec::kHevc) ||
      !PictureSide(settings->width) || !PictureSide(settings->height) || settings->fps_num == 0 ||
      settings->fps_den == 0 || settings->preset < 1 || settings->preset > 7 ||
      static_cast<std::uint32_t>(settings->rate_control) >
          static_cast<std::uint32_t>(RateControl::kConstantQuality) ||
      settings->const_qp > 51 || settings->target_quality > 51 || settings->repeat_headers > 1) {
    return std::nullopt;
  }
  return settings;
}

std::optional<DecoderSettings> ParseDecoderSettings(std::span<const std::byte> payload) {
  std::optional<DecoderSettings> settings = ReadFixed<DecoderSettings>(payload);
  if (!settings || payload.size() != sizeof(DecoderSettings) || !KnownCodec(settings->codec) ||
      settings->decode_order > 1) {
    return std::nullopt;
  }
  return settings;
}

std::optional<FrameHeader> ParseFrameHeader(std::span<const std::byte> payload) {
  std::optional<FrameHeader> frame = ReadFixed<FrameHeader>(payload);
  if (!frame || !KnownFormat(frame->format) || !PictureSide(frame->width) ||
      !PictureSide(frame->height) || frame->pitch < frame->width || frame->pitch > 4 * 8192 ||
      (frame->format == PixelFormat::kP010 && frame->pitch < 2 * frame->width) ||
      frame->force_idr > 1) {
    return std::nullopt;
  }
  if (payload.size() - sizeof(FrameHeader) !=
      PictureBytes(frame->format, frame->pitch, frame->height)) {
    return std::nullopt;
  }
  return frame;
}

std::optional<ScaleHeader> ParseScaleHeader(std::span<const std::byte> payload) {
  std::optional<ScaleHeader> scale = ReadFixed<ScaleHeader>(payload);
  if (!scale) return std::nullopt;
  const FrameHeader& source = scale->source;
  if (source.format != PixelFormat::kNv12 || !PictureSide(source.width) ||
      !PictureSide(source.height) || source.pitch < source.width || source.pitch > 4 * 8192 ||
      !PictureSide(scale->width) || !PictureSide(scale->height) || scale->pitch < scale->width ||
      scale->pitch > 4 * 8192 || scale->crop_width == 0 || scale->crop_height == 0 ||
      scale->crop_x > source.width || scale->crop_width > source.width - scale->crop_x ||
      scale->crop_y > source.height || scale->crop_height > source.height - scale->crop_y) {
    return std::nullopt;
  }
  if (payload.size() - sizeof(ScaleHeader) !=
      PictureBytes(source.format, source.pitch, source.height)) {
    return std::nullopt;
  }
  return scale;
}

std::optional<PacketHeader> ParsePacketHeader(std::span<const std::byte> payload) {
  std::optional<PacketHeader> packet = ReadFixed<PacketHeader>(payload);
  if (!packet || packet->has_pts > 1) return std::nullopt;
  return packet;
}

std::optional<UnitHeader> ParseUnitHeader(std::span<const std::byte> payload, bool frame) {
  std::optional<UnitHeader> unit = ReadFixed<UnitHeader>(payload);
  if (!unit || static_cast<std::uint32_t>(unit->picture_type) >
                   static_cast<std::uint32_t>(PictureType::kIdr)) {
    return std::nullopt;
  }
  if (frame) {
    if (!PictureSide(unit->width) || !PictureSide(unit->height) || unit->pitch < unit->width ||
        unit->pitch > 8192 ||
        payload.size() - sizeof(UnitHeader) !=
            PictureBytes(PixelFormat::kNv12, unit->pitch, unit->height)) {
      return std::nullopt;
    }
  }
  return unit;
}

bool Send(int fd, std::uint32_t type, std::int32_t status, std::span<const std::byte> body,
          std::span<const std::byte> bytes) {
  Header header;
  header.type = type;
  header.status = status;
  header.payload_size = static_cast<std::uint32_t>(body.size() + bytes.size());
  return WriteAll(fd, AsBytes(header)) && WriteAll(fd, body) && WriteAll(fd, bytes);
}

std::optional<Message> Receive(int fd) {
  std::byte raw[sizeof(Header)];
  if (!ReadAll(fd, raw, sizeof raw)) return std::nullopt;
  std::optional<Header> header = ParseHeader(raw);
  if (!header) return std::nullopt;
  Message message{*header, std::vector<std::byte>(header->payload_size)};
  if (!ReadAll(fd, message.payload.data(), message.payload.size())) return std::nullopt;
  return message;
}

}  // namespace fakenv::wire
