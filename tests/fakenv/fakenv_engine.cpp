// fakenv_engine [--detach] ROLE STATE_DIR CLIENT_ID OWNER_PID: the fake GPU's video engine.
// A fake library starts one per session.
// The library's end of a socket is the engine's standard input. Through it come:
//  - pictures to encode: ROLE "encode", with libx264 or libx265;
//  - a stream to decode: ROLE "decode", with libavcodec;
//  - pictures to scale, bilinear: a VA fake's video processing.
// The coding happens here, in a process of its own.
// So the client's CPU time stays what it is with a real GPU.
// With --detach it forks, and the first process exits at once.
// So the engine is nobody's child; the client's rusage never includes it.
// The engine's busy time goes to the state directory.
// There it is the client process's NVML samples (engine_meter.h).
// It ends when the socket closes.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "engine_decoder.h"
#include "engine_encoder.h"
#include "engine_meter.h"
#include "engine_scaler.h"
#include "engine_wire.h"
#include "fakenv_faults.h"

namespace fakenv {
namespace {

constexpr int kSocket = STDIN_FILENO;

bool SendDone(std::int32_t status, const std::string& reason = "") {
  return wire::Send(kSocket, static_cast<std::uint32_t>(wire::Reply::kDone), status, {},
                    std::as_bytes(std::span(reason)));
}

// The engine's state for one session: what it codes with, and how far it got.
class Engine {
 public:
  Engine(BusyMeter& meter, const Faults& faults) : meter_(meter), faults_(faults) {}

  // Handle answers one request; false ends the engine (the peer broke the protocol).
  bool Handle(const wire::Message& message) {
    const std::span<const std::byte> payload(message.payload);
    switch (static_cast<wire::Request>(message.header.type)) {
      case wire::Request::kOpenEncoder:
        return OpenEncoder(payload);
      case wire::Request::kEncodeFrame:
        return EncodeFrame(payload);
      case wire::Request::kFlushEncoder:
        return FlushEncoder();
      case wire::Request::kSequenceHeaders:
        return SequenceHeaders();
      case wire::Request::kOpenDecoder:
        return OpenDecoder(payload);
      case wire::Request::kDecodePacket:
        return DecodePacket(payload);
      case wire::Request::kFlushDecoder:
        return FlushDecoder();
      case wire::Request::kScaleFrame:
        return ScaleFrame(payload);
    }
    return SendDone(1, "unknown request") && false;
  }

 private:
  bool OpenEncoder(std::span<const std::byte> payload) {
    std::optional<wire::EncoderSettings> settings = wire::ParseEncoderSettings(payload);
    if (!settings) return SendDone(1, "malformed encoder settings") && false;
    std::string error;
    encoder_ = settings->codec == wire::Codec::kH264 ? OpenX264(*settings, &error)
                                                     : OpenX265(*settings, &error);
    return encoder_ ? SendDone(0) : SendDone(1, error);
  }

  bool EncodeFrame(std::span<const std::byte> payload) {
    std::optional<wire::FrameHeader> frame = wire::ParseFrameHeader(payload);
    if (!frame) return SendDone(1, "malformed frame") && false;
    if (!encoder_) return SendDone(1, "no encoder is open");
    DieIfAsked();
    const auto start = std::chrono::steady_clock::now();
    std::vector<CodedUnit> units;
    if (!encoder_->Encode(*frame, payload.data() + sizeof(wire::FrameHeader), units)) {
      return SendDone(1, "the encoder failed");
    }
    meter_.PictureDone(std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start));
    ++pictures_;
    return SendUnits(units);
  }

  bool FlushEncoder() {
    if (!encoder_) return SendDone(0);
    std::vector<CodedUnit> units;
    if (!encoder_->Flush(units)) return SendDone(1, "the encoder failed to flush");
    return SendUnits(units);
  }

  bool SequenceHeaders() {
    if (!encoder_) return SendDone(1, "no encoder is open");
    const std::vector<std::byte> sets = encoder_->ParameterSets();
    return wire::Send(kSocket, static_cast<std::uint32_t>(wire::Reply::kHeaders), 0, {}, sets);
  }

  bool SendUnits(const std::vector<CodedUnit>& units) {
    for (const CodedUnit& unit : units) {
      wire::UnitHeader header;
      header.pts = unit.pts;
      header.picture_type = unit.picture_type;
      header.average_qp = unit.average_qp;
      header.key_frame = unit.picture_type == wire::PictureType::kIdr ? 1 : 0;
      if (!wire::Send(kSocket, static_cast<std::uint32_t>(wire::Reply::kBitstream), 0,
                      wire::AsBytes(header), unit.bytes)) {
        return false;
      }
    }
    return SendDone(0);
  }

  bool OpenDecoder(std::span<const std::byte> payload) {
    std::optional<wire::DecoderSettings> settings = wire::ParseDecoderSettings(payload);
    if (!settings) return SendDone(1, "malformed decoder settings") && false;
    std::string error;
    decoder_ = fakenv::OpenDecoder(settings->codec, settings->decode_order == 1, &error);
    return decoder_ ? SendDone(0) : SendDone(1, error);
  }

  bool DecodePacket(std::span<const std::byte> payload) {
    std::optional<wire::PacketHeader> packet = wire::ParsePacketHeader(payload);
    if (!packet) return SendDone(1, "malformed packet") && false;
    if (!decoder_) return SendDone(1, "no decoder is open");
    DieIfAsked();
    const auto start = std::chrono::steady_clock::now();
    std::vector<DecodedPicture> pictures;
    std::string error;
    const std::optional<std::int64_t> pts =
        packet->has_pts ? std::optional<std::int64_t>(packet->pts) : std::nullopt;
    if (!decoder_->Decode(payload.subspan(sizeof(wire::PacketHeader)), pts, pictures, &error)) {
      return SendDone(1, error);
    }
    return SendPictures(pictures, start);
  }

  bool FlushDecoder() {
    if (!decoder_) return SendDone(0);
    const auto start = std::chrono::steady_clock::now();
    std::vector<DecodedPicture> pictures;
    std::string error;
    if (!decoder_->Flush(pictures, &error)) return SendDone(1, error);
    return SendPictures(pictures, start);
  }

  // ScaleFrame is a VA fake's video processing; it needs no session of its own, and its
  // time counts where the engine's role puts it.
  bool ScaleFrame(std::span<const std::byte> payload) {
    std::optional<wire::ScaleHeader> scale = wire::ParseScaleHeader(payload);
    if (!scale) return SendDone(1, "malformed picture to scale") && false;
    const auto start = std::chrono::steady_clock::now();
    DecodedPicture picture;
    ScaleNv12(*scale, payload.data() + sizeof(wire::ScaleHeader), picture.nv12);
    picture.header.width = scale->width;
    picture.header.height = scale->height;
    picture.header.pitch = scale->pitch;
    return SendPictures({picture}, start);
  }

  bool SendPictures(const std::vector<DecodedPicture>& pictures,
                    std::chrono::steady_clock::time_point start) {
    for (const DecodedPicture& picture : pictures) {
      meter_.PictureDone(std::chrono::duration_cast<std::chrono::microseconds>(
          std::chrono::steady_clock::now() - start));
      ++pictures_;
      if (!wire::Send(kSocket, static_cast<std::uint32_t>(wire::Reply::kFrame), 0,
                      wire::AsBytes(picture.header), picture.nv12)) {
        return false;
      }
    }
    return SendDone(0);
  }

  // DieIfAsked is the `engine-dies-after:N` fault: the engine vanishes as a GPU that fell
  // off the bus does, without a word to its client.
  void DieIfAsked() {
    if (faults_.engine_dies_after && pictures_ >= *faults_.engine_dies_after) {
      std::fprintf(stderr, "fakenv engine: dying after %llu pictures, as FAKENV_FAULT asks\n",
                   static_cast<unsigned long long>(pictures_));
      raise(SIGKILL);
    }
  }

  BusyMeter& meter_;
  const Faults& faults_;
  std::unique_ptr<Encoder> encoder_;
  std::unique_ptr<Decoder> decoder_;
  std::uint64_t pictures_ = 0;
};

}  // namespace
}  // namespace fakenv

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--detach") {
    const pid_t engine = fork();
    if (engine < 0) return 1;
    if (engine > 0) return 0;
    // Its own session: a Ctrl-C meant for the client's terminal does not reach a GPU.
    setsid();
    --argc;
    ++argv;
  }
  if (argc != 5) {
    std::fprintf(stderr,
                 "usage: fakenv_engine [--detach] encode|decode STATE_DIR CLIENT_ID OWNER_PID\n");
    return 2;
  }
  const std::string role = argv[1];
  if (role != "encode" && role != "decode") {
    std::fprintf(stderr, "fakenv engine: the role is \"encode\" or \"decode\", not \"%s\"\n",
                 argv[1]);
    return 2;
  }
  const fakenv::Faults& faults = fakenv::CurrentFaults();
  const auto client_id = static_cast<std::uint32_t>(std::strtoul(argv[3], nullptr, 10));
  const auto owner_pid = static_cast<std::uint32_t>(std::strtoul(argv[4], nullptr, 10));
  fakenv::BusyMeter meter(
      argv[2], client_id, owner_pid,
      role == "encode" ? fakenv::BusyMeter::Engine::kEncoder : fakenv::BusyMeter::Engine::kDecoder,
      !faults.unattributed);
  fakenv::Engine engine(meter, faults);
  while (std::optional<fakenv::wire::Message> message = fakenv::wire::Receive(fakenv::kSocket)) {
    if (!engine.Handle(*message)) return 1;
  }
  return 0;
}
