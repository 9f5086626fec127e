// The messages between a fake library and its engine process, over a stream socket.
// Every message is, in order:
//  - a fixed binary header;
//  - a fixed binary body for its type;
//  - raw bytes, pixels or a bitstream, whose length the header states.
// Nothing needs parsing beyond checking the fixed fields; the Parse functions do that.
//
// Each request, with its body, and the engine's answer:
//  - kOpenEncoder, EncoderSettings: kDone (status).
//  - kEncodeFrame, FrameHeader and pixels: kBitstream* then kDone.
//  - kFlushEncoder: kBitstream* then kDone.
//  - kSequenceHeaders: kHeaders (parameter sets).
//  - kOpenDecoder, DecoderSettings: kDone.
//  - kDecodePacket, PacketHeader and bitstream: kFrame* (NV12 pixels) then kDone.
//  - kFlushDecoder: kFrame* then kDone.
//  - kScaleFrame, ScaleHeader and NV12 pixels: kFrame (the scaled picture) then kDone.
// A failure is a kDone whose status is not 0, with the reason as its bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace fakenv::wire {

inline constexpr std::uint32_t kMagic = 0x45564e46;  // "FNVE"
// Nothing larger crosses: an 8192x8192 NV12 picture is 96 MiB.
inline constexpr std::uint32_t kLargestPayload = 128u << 20;
inline constexpr std::uint32_t kLargestPictureSide = 8192;

enum class Request : std::uint32_t {
  kOpenEncoder = 1,
  kEncodeFrame = 2,
  kFlushEncoder = 3,
  kSequenceHeaders = 4,
  kOpenDecoder = 5,
  kDecodePacket = 6,
  kFlushDecoder = 7,
  kScaleFrame = 8,
};

enum class Reply : std::uint32_t { kDone = 1, kBitstream = 2, kHeaders = 3, kFrame = 4 };

enum class Codec : std::uint32_t { kH264 = 1, kHevc = 2, kVp9 = 3, kAv1 = 4, kMpeg2 = 5, kVp8 = 6 };

// The picture layouts an encoder takes, with NVENC's NV_ENC_BUFFER_FORMAT values.
// P010 is NV12's layout with two bytes a sample, the ten bits at the top.
// A VA fake's HEVC Main10 uses it.
enum class PixelFormat : std::uint32_t {
  kNv12 = 0x1,
  kYv12 = 0x10,
  kIyuv = 0x100,
  kP010 = 0x10000
};

// The picture types a bitstream reports, with NVENC's NV_ENC_PIC_TYPE values.
enum class PictureType : std::uint32_t { kP = 0, kB = 1, kI = 2, kIdr = 3 };

enum class RateControl : std::uint32_t {
  kConstantQp = 0,
  kAverageBitrate = 1,
  kConstantQuality = 2
};

struct Header {
  std::uint32_t magic = kMagic;
  std::uint32_t type = 0;
  // The size of the fixed body and the raw bytes after the header together.
  std::uint32_t payload_size = 0;
  std::int32_t status = 0;
};
static_assert(sizeof(Header) == 16);

struct EncoderSettings {
  Codec codec = Codec::kH264;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t fps_num = 0;
  std::uint32_t fps_den = 0;
  RateControl rate_control = RateControl::kAverageBitrate;
  std::uint32_t average_bitrate = 0;  // bits per second
  std::uint32_t max_bitrate = 0;
  std::uint32_t vbv_buffer_bits = 0;
  std::uint32_t const_qp = 0;
  std::uint32_t target_quality = 0;
  // Pictures from one IDR picture to the next.
  // 0 for no automatic IDR pictures, 1 for intra-only.
  std::uint32_t idr_period = 0;
  // 1 when every IDR picture carries the parameter sets in-band.
  std::uint32_t repeat_headers = 1;
  // NVENC's preset P1 (fastest) to P7 (best).
  std::uint32_t preset = 4;
  // The profile:
  //  - 0 for the encoder's choice;
  //  - H.264: 66, 77, 100 (baseline, main, high);
  //  - HEVC: 1, 2.
  std::uint32_t profile = 0;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(EncoderSettings) == 64);

struct FrameHeader {
  PixelFormat format = PixelFormat::kNv12;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t pitch = 0;
  std::int64_t pts = 0;
  std::uint32_t force_idr = 0;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(FrameHeader) == 32);

// A picture to scale, for a VA fake's video processing:
//  - the source as a FrameHeader: NV12 only, `pts` and `force_idr` unused;
//  - the rectangle of it to take;
//  - the size and pitch of the NV12 picture to make of it.
struct ScaleHeader {
  FrameHeader source;
  std::uint32_t crop_x = 0;
  std::uint32_t crop_y = 0;
  std::uint32_t crop_width = 0;
  std::uint32_t crop_height = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t pitch = 0;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(ScaleHeader) == 64);

struct DecoderSettings {
  Codec codec = Codec::kH264;
  // The order of the pictures:
  //  - 0: display order, as a stream decoder gives them (NVDEC's parser);
  //  - 1: each packet's own picture right after it, in decode order.
  // A VA fake's decode needs 1; each packet is then one whole access unit.
  std::uint32_t decode_order = 0;
};
static_assert(sizeof(DecoderSettings) == 8);

struct PacketHeader {
  std::int64_t pts = 0;
  std::uint32_t has_pts = 0;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(PacketHeader) == 16);

// What a kBitstream or kFrame reply carries before its bytes.
struct UnitHeader {
  std::int64_t pts = 0;
  PictureType picture_type = PictureType::kP;
  std::uint32_t average_qp = 0;
  // For a decoded frame: its size, and the NV12 pitch of its bytes.
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t pitch = 0;
  std::uint32_t key_frame = 0;
};
static_assert(sizeof(UnitHeader) == 32);

std::optional<Header> ParseHeader(std::span<const std::byte> bytes);
std::optional<EncoderSettings> ParseEncoderSettings(std::span<const std::byte> payload);
std::optional<DecoderSettings> ParseDecoderSettings(std::span<const std::byte> payload);
// ParseFrameHeader also checks the pixels after it.
// They must be exactly what the header states.
std::optional<FrameHeader> ParseFrameHeader(std::span<const std::byte> payload);
std::optional<PacketHeader> ParsePacketHeader(std::span<const std::byte> payload);
// ParseScaleHeader also checks the rectangle against the source.
// It checks the source's pixels after it, as ParseFrameHeader does.
std::optional<ScaleHeader> ParseScaleHeader(std::span<const std::byte> payload);
// ParseUnitHeader checks a decoded frame's bytes against its size when `frame` is set.
std::optional<UnitHeader> ParseUnitHeader(std::span<const std::byte> payload, bool frame);

// PictureBytes is the size of a picture of `height` rows at `pitch` in a 4:2:0 layout.
// NVENC's convention holds: the chroma follows the luma at pitch * height.
std::size_t PictureBytes(PixelFormat format, std::uint32_t pitch, std::uint32_t height);

// Send writes one message whole.
// Receive reads one, checking its header.
// It gives nullopt when the peer is gone or sent something malformed.
struct Message {
  Header header;
  std::vector<std::byte> payload;
};
bool Send(int fd, std::uint32_t type, std::int32_t status, std::span<const std::byte> body,
          std::span<const std::byte> bytes = {});
std::optional<Message> Receive(int fd);

template <typename T>
std::span<const std::byte> AsBytes(const T& value) {
  return std::as_bytes(std::span<const T, 1>(&value, 1));
}

}  // namespace fakenv::wire
