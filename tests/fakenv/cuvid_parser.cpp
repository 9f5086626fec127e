#include "cuvid_parser.h"

#include <cstdio>
#include <cstring>

#include "fake_record.h"
#include "fake_results.h"
#include "fakenv_faults.h"

namespace fakenv {
namespace {

std::optional<wire::Codec> CodecOf(cudaVideoCodec codec) {
  switch (codec) {
    case cudaVideoCodec_H264:
      return wire::Codec::kH264;
    case cudaVideoCodec_HEVC:
      return wire::Codec::kHevc;
    case cudaVideoCodec_VP9:
      return wire::Codec::kVp9;
    case cudaVideoCodec_AV1:
      return wire::Codec::kAv1;
    case cudaVideoCodec_MPEG2:
      return wire::Codec::kMpeg2;
    case cudaVideoCodec_VP8:
      return wire::Codec::kVp8;
    default:
      return std::nullopt;
  }
}

}  // namespace

Handoff& CurrentHandoff() {
  thread_local Handoff handoff;
  return handoff;
}

std::unique_ptr<VideoParser> VideoParser::Create(const CUVIDPARSERPARAMS& params, int device,
                                                 CUresult* result) {
  std::optional<wire::Codec> codec = CodecOf(params.CodecType);
  if (!codec || !params.pfnSequenceCallback || !params.pfnDecodePicture ||
      !params.pfnDisplayPicture) {
    *result = static_cast<CUresult>(kCudaErrorNotSupported);
    return nullptr;
  }
  ClientRecord record;
  record.kind = ClientKind::kDecoder;
  record.codec = static_cast<std::uint32_t>(params.CodecType);
  record.attributed = CurrentFaults().unattributed ? 0 : 1;
  bool limited = false;
  std::string error;
  std::unique_ptr<OwnedClient> client =
      OwnedClient::Register(DeviceStateDir(device), record, std::nullopt, &limited, &error);
  std::unique_ptr<EngineClient> engine;
  if (client)
    engine = EngineClient::Start(EngineClient::Role::kDecoder, client->dir(), client->record().id,
                                 &error);
  if (!engine) {
    std::fprintf(stderr, "fakenv: %s\n", error.c_str());
    *result = static_cast<CUresult>(kCudaErrorUnknown);
    return nullptr;
  }
  std::unique_ptr<VideoParser> parser(
      new VideoParser(params, std::move(client), std::move(engine)));
  wire::DecoderSettings settings;
  settings.codec = *codec;
  *result = parser->Exchange(wire::Request::kOpenDecoder, wire::AsBytes(settings), {});
  return *result == CUDA_SUCCESS ? std::move(parser) : nullptr;
}

VideoParser::VideoParser(const CUVIDPARSERPARAMS& params, std::unique_ptr<OwnedClient> client,
                         std::unique_ptr<EngineClient> engine)
    : params_(params), client_(std::move(client)), engine_(std::move(engine)) {}

CUresult VideoParser::Parse(const CUVIDSOURCEDATAPACKET& packet) {
  if (packet.payload_size > 0) {
    if (!packet.payload || packet.payload_size > wire::kLargestPayload) {
      return static_cast<CUresult>(kCudaErrorInvalidValue);
    }
    wire::PacketHeader header;
    header.has_pts = (packet.flags & CUVID_PKT_TIMESTAMP) ? 1 : 0;
    header.pts = static_cast<std::int64_t>(packet.timestamp);
    const CUresult decoded = Exchange(
        wire::Request::kDecodePacket, wire::AsBytes(header),
        std::span(reinterpret_cast<const std::byte*>(packet.payload), packet.payload_size));
    if (decoded != CUDA_SUCCESS) return decoded;
  }
  if (packet.flags & CUVID_PKT_ENDOFSTREAM) {
    // An engine that is gone has nothing left to give.
    // The end of the stream still ends it.
    // Otherwise a client that flushes until the end would ask forever.
    if (engine_->gone()) return CUDA_SUCCESS;
    const CUresult flushed = Exchange(wire::Request::kFlushDecoder, {}, {});
    return engine_->gone() ? CUDA_SUCCESS : flushed;
  }
  return CUDA_SUCCESS;
}

// Exchange sends one request and delivers each picture of the answer.
CUresult VideoParser::Exchange(wire::Request request, std::span<const std::byte> body,
                               std::span<const std::byte> bytes) {
  // A GPU that is gone answers CUDA's "unknown error", as after an Xid that lost the GPU.
  if (!engine_->Send(request, body, bytes)) return static_cast<CUresult>(kCudaErrorUnknown);
  for (;;) {
    std::optional<wire::Message> message = engine_->Receive();
    if (!message) {
      std::fprintf(stderr, "fakenv: the decoding engine is gone\n");
      return static_cast<CUresult>(kCudaErrorUnknown);
    }
    const auto type = static_cast<wire::Reply>(message->header.type);
    if (type == wire::Reply::kDone) {
      if (message->header.status == 0) return CUDA_SUCCESS;
      std::fprintf(stderr, "fakenv: the decoding engine failed: %.*s\n",
                   static_cast<int>(message->payload.size()),
                   reinterpret_cast<const char*>(message->payload.data()));
      return static_cast<CUresult>(kCudaErrorNotSupported);
    }
    std::optional<wire::UnitHeader> unit =
        type == wire::Reply::kFrame ? wire::ParseUnitHeader(message->payload, true) : std::nullopt;
    if (!unit) return static_cast<CUresult>(kCudaErrorUnknown);
    // A client whose callback failed has its error set already.
    // The rest of the answer is read and dropped, so the next exchange starts in step.
    if (!Deliver(*unit, message->payload.data() + sizeof(wire::UnitHeader))) continue;
  }
}

bool VideoParser::Deliver(const wire::UnitHeader& unit, const std::byte* nv12) {
  Handoff& handoff = CurrentHandoff();
  if (unit.width != width_ || unit.height != height_) {
    CUVIDEOFORMAT format{};
    format.codec = params_.CodecType;
    format.frame_rate.numerator = 0;
    format.frame_rate.denominator = 0;
    format.progressive_sequence = 1;
    format.coded_width = (unit.width + 15) & ~15u;
    format.coded_height = (unit.height + 15) & ~15u;
    format.display_area.right = static_cast<int>(unit.width);
    format.display_area.bottom = static_cast<int>(unit.height);
    format.chroma_format = cudaVideoChromaFormat_420;
    format.display_aspect_ratio.x = static_cast<int>(unit.width);
    format.display_aspect_ratio.y = static_cast<int>(unit.height);
    format.min_num_decode_surfaces = 8;
    format.video_signal_description.color_primaries = 2;
    format.video_signal_description.transfer_characteristics = 2;
    format.video_signal_description.matrix_coefficients = 2;
    handoff.in_sequence_callback = true;
    const int accepted = params_.pfnSequenceCallback(params_.pUserData, &format);
    handoff.in_sequence_callback = false;
    if (accepted == 0) return false;
    width_ = unit.width;
    height_ = unit.height;
    ClientRecord record = client_->record();
    record.width = width_;
    record.height = height_;
    client_->Update(record);
  }
  const int surfaces =
      params_.ulMaxNumDecodeSurfaces > 0 ? static_cast<int>(params_.ulMaxNumDecodeSurfaces) : 1;
  CUVIDPICPARAMS picture{};
  picture.PicWidthInMbs = static_cast<int>((unit.width + 15) / 16);
  picture.FrameHeightInMbs = static_cast<int>((unit.height + 15) / 16);
  picture.CurrPicIdx = next_surface_;
  picture.intra_pic_flag = unit.key_frame ? 1 : 0;
  picture.ref_pic_flag = 1;
  next_surface_ = (next_surface_ + 1) % surfaces;
  handoff.unit = &unit;
  handoff.nv12 = nv12;
  const int decoded = params_.pfnDecodePicture(params_.pUserData, &picture);
  handoff.unit = nullptr;
  handoff.nv12 = nullptr;
  if (decoded == 0) return false;
  CUVIDPARSERDISPINFO display{};
  display.picture_index = picture.CurrPicIdx;
  display.progressive_frame = 1;
  display.timestamp = static_cast<CUvideotimestamp>(unit.pts);
  return params_.pfnDisplayPicture(params_.pUserData, &display) != 0;
}

}  // namespace fakenv
