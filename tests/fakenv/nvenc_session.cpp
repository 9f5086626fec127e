#include "nvenc_session.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "fakenv_faults.h"
#include "nvenc_guids.h"

namespace fakenv {
namespace {

// What a session holds in video memory besides its buffers: NVENC's own reference and
// working surfaces, modelled as one figure since no driver states it.
constexpr std::uint64_t kSessionBaseBytes = 96ull << 20;
constexpr std::uint32_t kPitchAlignment = 256;
constexpr int kNvmlEncoderH264 = 0;
constexpr int kNvmlEncoderHevc = 1;

static_assert(static_cast<int>(wire::PictureType::kIdr) == NV_ENC_PIC_TYPE_IDR);
static_assert(static_cast<int>(wire::PictureType::kI) == NV_ENC_PIC_TYPE_I);
static_assert(static_cast<int>(wire::PictureType::kP) == NV_ENC_PIC_TYPE_P);
static_assert(static_cast<int>(wire::PictureType::kB) == NV_ENC_PIC_TYPE_B);

std::optional<wire::PixelFormat> FormatOf(NV_ENC_BUFFER_FORMAT format) {
  switch (format) {
    case NV_ENC_BUFFER_FORMAT_NV12:
      return wire::PixelFormat::kNv12;
    case NV_ENC_BUFFER_FORMAT_YV12:
      return wire::PixelFormat::kYv12;
    case NV_ENC_BUFFER_FORMAT_IYUV:
      return wire::PixelFormat::kIyuv;
    default:
      return std::nullopt;
  }
}

// RateControlOf turns NVENC's rate control into the engine's:
//  - constant QP stays so;
//  - a target quality without a bitrate is constant quality;
//  - the rest is an average bitrate.
void SetRateControl(const NV_ENC_RC_PARAMS& rc, wire::EncoderSettings& settings) {
  if (rc.rateControlMode == NV_ENC_PARAMS_RC_CONSTQP) {
    settings.rate_control = wire::RateControl::kConstantQp;
    settings.const_qp = std::min<std::uint32_t>(rc.constQP.qpInterP, 51);
  } else if (rc.averageBitRate == 0 && rc.targetQuality > 0) {
    settings.rate_control = wire::RateControl::kConstantQuality;
    settings.target_quality = std::min<std::uint32_t>(rc.targetQuality, 51);
  } else {
    settings.rate_control = wire::RateControl::kAverageBitrate;
    settings.average_bitrate = rc.averageBitRate > 0 ? rc.averageBitRate : 2'000'000;
    settings.max_bitrate =
        rc.rateControlMode == NV_ENC_PARAMS_RC_CBR ? settings.average_bitrate : rc.maxBitRate;
    settings.vbv_buffer_bits = rc.vbvBufferSize;
  }
}

}  // namespace

void FillPresetConfig(const GUID& codec, NV_ENC_PRESET_CONFIG* config) {
  NV_ENC_CONFIG& cfg = config->presetCfg;
  const std::uint32_t version = cfg.version;
  std::memset(&cfg, 0, sizeof cfg);
  cfg.version = version;
  cfg.profileGUID = NV_ENC_CODEC_PROFILE_AUTOSELECT_GUID;
  cfg.gopLength = 250;
  cfg.frameIntervalP = 1;
  cfg.frameFieldMode = NV_ENC_PARAMS_FRAME_FIELD_MODE_FRAME;
  cfg.rcParams.rateControlMode = NV_ENC_PARAMS_RC_VBR;
  cfg.rcParams.averageBitRate = 2'000'000;
  if (SameGuid(codec, NV_ENC_CODEC_HEVC_GUID)) {
    cfg.encodeCodecConfig.hevcConfig.idrPeriod = 250;
    cfg.encodeCodecConfig.hevcConfig.maxNumRefFramesInDPB = 1;
  } else {
    cfg.encodeCodecConfig.h264Config.idrPeriod = 250;
    cfg.encodeCodecConfig.h264Config.maxNumRefFrames = 1;
  }
}

EncodeSession::EncodeSession(std::unique_ptr<OwnedClient> client) : client_(std::move(client)) {
  AccountMemory();
}

EncodeSession::~EncodeSession() = default;

NVENCSTATUS EncodeSession::Fail(NVENCSTATUS status, std::string reason) {
  last_error_ = "fakenv: " + std::move(reason);
  return status;
}

void EncodeSession::AccountMemory() {
  ClientRecord record = client_->record();
  record.vram_bytes = kSessionBaseBytes;
  for (const auto& [handle, input] : inputs_) record.vram_bytes += input->memory.size();
  for (const auto& [handle, bitstream] : bitstreams_)
    record.vram_bytes += bitstream->bytes.capacity();
  record.width = width_;
  record.height = height_;
  client_->Update(record);
}

NVENCSTATUS EncodeSession::Initialize(const NV_ENC_INITIALIZE_PARAMS* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  if (engine_) return Fail(NV_ENC_ERR_INVALID_CALL, "the encoder is initialised already");
  const bool hevc = SameGuid(params->encodeGUID, NV_ENC_CODEC_HEVC_GUID);
  if (!hevc && !SameGuid(params->encodeGUID, NV_ENC_CODEC_H264_GUID)) {
    return Fail(NV_ENC_ERR_UNSUPPORTED_PARAM, "the fake's engine encodes H.264 and HEVC only");
  }
  if (params->enableEncodeAsync) {
    return Fail(NV_ENC_ERR_UNSUPPORTED_PARAM, "asynchronous encoding is for Windows only");
  }
  NV_ENC_PRESET_CONFIG preset{};
  FillPresetConfig(params->encodeGUID, &preset);
  const NV_ENC_CONFIG& config = params->encodeConfig ? *params->encodeConfig : preset.presetCfg;
  if (config.frameIntervalP > 1) {
    return Fail(NV_ENC_ERR_UNSUPPORTED_PARAM, "the fake's engine codes no B-pictures");
  }
  wire::EncoderSettings settings;
  settings.codec = hevc ? wire::Codec::kHevc : wire::Codec::kH264;
  settings.width = params->encodeWidth;
  settings.height = params->encodeHeight;
  settings.fps_num = params->frameRateNum > 0 ? params->frameRateNum : 30;
  settings.fps_den = params->frameRateDen > 0 ? params->frameRateDen : 1;
  settings.preset = static_cast<std::uint32_t>(PresetRank(params->presetGUID));
  settings.profile = ProfileNumber(config.profileGUID);
  SetRateControl(config.rcParams, settings);
  const std::uint32_t idr_period = hevc ? config.encodeCodecConfig.hevcConfig.idrPeriod
                                        : config.encodeCodecConfig.h264Config.idrPeriod;
  const std::uint32_t period = idr_period > 0 ? idr_period : config.gopLength;
  settings.idr_period = config.frameIntervalP == 0           ? 1
                        : period == NVENC_INFINITE_GOPLENGTH ? 0
                                                             : period;
  const bool no_headers = hevc ? config.encodeCodecConfig.hevcConfig.disableSPSPPS
                               : config.encodeCodecConfig.h264Config.disableSPSPPS;
  settings.repeat_headers = no_headers ? 0 : 1;
  if (!wire::ParseEncoderSettings(wire::AsBytes(settings))) {
    return Fail(NV_ENC_ERR_INVALID_PARAM, "the encoder's size or frame rate is out of range");
  }

  std::string error;
  engine_ = EngineClient::Start(EngineClient::Role::kEncoder, client_->dir(), client_->record().id,
                                &error);
  if (!engine_) return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, error);
  if (!engine_->Send(wire::Request::kOpenEncoder, wire::AsBytes(settings))) {
    return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, "the engine is gone");
  }
  const NVENCSTATUS opened = ReceiveUnits();
  if (opened != NV_ENC_SUCCESS) return opened;
  width_ = settings.width;
  height_ = settings.height;
  ClientRecord record = client_->record();
  record.codec = hevc ? kNvmlEncoderHevc : kNvmlEncoderH264;
  client_->Update(record);
  AccountMemory();
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::CreateInputBuffer(NV_ENC_CREATE_INPUT_BUFFER* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  std::optional<wire::PixelFormat> format = FormatOf(params->bufferFmt);
  if (!format)
    return Fail(NV_ENC_ERR_UNSUPPORTED_PARAM, "the engine takes 8-bit 4:2:0 pictures only");
  if (params->width == 0 || params->height == 0 || params->width > wire::kLargestPictureSide ||
      params->height > wire::kLargestPictureSide) {
    return Fail(NV_ENC_ERR_INVALID_PARAM, "the input buffer's size is out of range");
  }
  auto picture = std::make_unique<Picture>();
  picture->format = *format;
  picture->pitch = (params->width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  picture->height = params->height;
  picture->memory.resize(wire::PictureBytes(*format, picture->pitch, picture->height));
  picture->pixels = picture->memory.data();
  params->inputBuffer = picture.get();
  inputs_.emplace(picture.get(), std::move(picture));
  AccountMemory();
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::DestroyInputBuffer(NV_ENC_INPUT_PTR buffer) {
  if (inputs_.erase(buffer) == 0) return NV_ENC_ERR_INVALID_PARAM;
  AccountMemory();
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::LockInputBuffer(NV_ENC_LOCK_INPUT_BUFFER* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  auto found = inputs_.find(params->inputBuffer);
  if (found == inputs_.end()) return NV_ENC_ERR_INVALID_PARAM;
  params->bufferDataPtr = found->second->memory.data();
  params->pitch = found->second->pitch;
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::UnlockInputBuffer(NV_ENC_INPUT_PTR buffer) {
  return inputs_.count(buffer) ? NV_ENC_SUCCESS : NV_ENC_ERR_INVALID_PARAM;
}

NVENCSTATUS EncodeSession::CreateBitstreamBuffer(NV_ENC_CREATE_BITSTREAM_BUFFER* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  auto bitstream = std::make_unique<Bitstream>();
  params->bitstreamBuffer = bitstream.get();
  params->bitstreamBufferPtr = nullptr;
  bitstreams_.emplace(bitstream.get(), std::move(bitstream));
  AccountMemory();
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::DestroyBitstreamBuffer(NV_ENC_OUTPUT_PTR buffer) {
  auto found = bitstreams_.find(buffer);
  if (found == bitstreams_.end()) return NV_ENC_ERR_INVALID_PARAM;
  std::erase(pending_, found->second.get());
  bitstreams_.erase(found);
  AccountMemory();
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::RegisterResource(NV_ENC_REGISTER_RESOURCE* params) {
  if (!params || !params->resourceToRegister) return NV_ENC_ERR_INVALID_PTR;
  if (params->resourceType != NV_ENC_INPUT_RESOURCE_TYPE_CUDADEVICEPTR) {
    return Fail(NV_ENC_ERR_UNIMPLEMENTED, "the fake registers CUDA device pointers only");
  }
  std::optional<wire::PixelFormat> format = FormatOf(params->bufferFormat);
  if (!format)
    return Fail(NV_ENC_ERR_UNSUPPORTED_PARAM, "the engine takes 8-bit 4:2:0 pictures only");
  if (params->pitch < params->width || params->height == 0 ||
      params->height > wire::kLargestPictureSide) {
    return Fail(NV_ENC_ERR_INVALID_PARAM, "the resource's pitch or height is out of range");
  }
  auto picture = std::make_unique<Picture>();
  picture->format = *format;
  picture->pitch = params->pitch;
  picture->height = params->height;
  picture->pixels = static_cast<const std::byte*>(params->resourceToRegister);
  params->registeredResource = picture.get();
  registered_.emplace(picture.get(), std::move(picture));
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::UnregisterResource(NV_ENC_REGISTERED_PTR resource) {
  auto found = registered_.find(resource);
  if (found == registered_.end()) return NV_ENC_ERR_RESOURCE_NOT_REGISTERED;
  std::erase_if(mapped_,
                [&](const auto& entry) { return entry.second->picture == found->second.get(); });
  registered_.erase(found);
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::MapInputResource(NV_ENC_MAP_INPUT_RESOURCE* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  auto found = registered_.find(params->registeredResource);
  if (found == registered_.end()) return NV_ENC_ERR_RESOURCE_NOT_REGISTERED;
  auto mapping = std::make_unique<Mapping>();
  mapping->picture = found->second.get();
  params->mappedResource = mapping.get();
  params->mappedBufferFmt = static_cast<NV_ENC_BUFFER_FORMAT>(found->second->format);
  mapped_.emplace(mapping.get(), std::move(mapping));
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::UnmapInputResource(NV_ENC_INPUT_PTR mapped) {
  return mapped_.erase(mapped) ? NV_ENC_SUCCESS : NV_ENC_ERR_RESOURCE_NOT_MAPPED;
}

EncodeSession::Picture* EncodeSession::FindInput(void* handle) {
  if (auto input = inputs_.find(handle); input != inputs_.end()) return input->second.get();
  if (auto mapping = mapped_.find(handle); mapping != mapped_.end())
    return mapping->second->picture;
  return nullptr;
}

NVENCSTATUS EncodeSession::EncodePicture(const NV_ENC_PIC_PARAMS* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  if (!engine_) return Fail(NV_ENC_ERR_ENCODER_NOT_INITIALIZED, "the encoder is not initialised");
  if (params->encodePicFlags & NV_ENC_PIC_FLAG_EOS) {
    if (!engine_->Send(wire::Request::kFlushEncoder, {})) {
      return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, "the engine is gone");
    }
    return ReceiveUnits();
  }
  auto output = bitstreams_.find(params->outputBitstream);
  if (output == bitstreams_.end())
    return Fail(NV_ENC_ERR_INVALID_PARAM, "no such bitstream buffer");
  Picture* input = FindInput(params->inputBuffer);
  if (!input) return Fail(NV_ENC_ERR_INVALID_PARAM, "no such input buffer or mapped resource");
  const Faults& faults = CurrentFaults();
  if (faults.encode_fails_after && pictures_ >= *faults.encode_fails_after) {
    return Fail(NV_ENC_ERR_GENERIC, "the GPU failed the encode, as FAKENV_FAULT asks");
  }
  if (input->height < height_ || input->pitch < width_) {
    return Fail(NV_ENC_ERR_INVALID_PARAM, "the picture is smaller than the encoder");
  }
  // The engine reads the picture at the encoder's size, from the buffer's own layout.
  wire::FrameHeader frame;
  frame.format = input->format;
  frame.width = width_;
  frame.height = input->height;
  frame.pitch = input->pitch;
  frame.pts = static_cast<std::int64_t>(params->inputTimeStamp);
  frame.force_idr = (params->encodePicFlags & NV_ENC_PIC_FLAG_FORCEIDR) ? 1 : 0;
  const std::span<const std::byte> pixels(
      input->pixels, wire::PictureBytes(input->format, input->pitch, input->height));
  output->second->ready = false;
  output->second->frame_index = pictures_;
  pending_.push_back(output->second.get());
  if (!engine_->Send(wire::Request::kEncodeFrame, wire::AsBytes(frame), pixels)) {
    return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, "the engine is gone");
  }
  const NVENCSTATUS status = ReceiveUnits();
  if (status != NV_ENC_SUCCESS) return status;
  ++pictures_;
  // A picture whose bitstream is still inside the codec is NVENC's "need more input".
  return pending_.empty() ? NV_ENC_SUCCESS : NV_ENC_ERR_NEED_MORE_INPUT;
}

NVENCSTATUS EncodeSession::ReceiveUnits() {
  for (;;) {
    std::optional<wire::Message> message = engine_->Receive();
    if (!message) return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, "the engine is gone");
    const auto type = static_cast<wire::Reply>(message->header.type);
    if (type == wire::Reply::kDone) {
      if (message->header.status == 0) return NV_ENC_SUCCESS;
      const auto* text = reinterpret_cast<const char*>(message->payload.data());
      return Fail(NV_ENC_ERR_GENERIC,
                  "the engine failed: " + std::string(text, message->payload.size()));
    }
    std::optional<wire::UnitHeader> unit = type == wire::Reply::kBitstream
                                               ? wire::ParseUnitHeader(message->payload, false)
                                               : std::nullopt;
    if (!unit) return Fail(NV_ENC_ERR_GENERIC, "the engine answered out of turn");
    if (pending_.empty()) continue;
    Bitstream* bitstream = pending_.front();
    pending_.pop_front();
    bitstream->unit = *unit;
    bitstream->bytes.assign(message->payload.begin() + sizeof(wire::UnitHeader),
                            message->payload.end());
    bitstream->ready = true;
  }
}

NVENCSTATUS EncodeSession::LockBitstream(NV_ENC_LOCK_BITSTREAM* params) {
  if (!params) return NV_ENC_ERR_INVALID_PTR;
  auto found = bitstreams_.find(params->outputBitstream);
  if (found == bitstreams_.end()) return NV_ENC_ERR_INVALID_PARAM;
  Bitstream& bitstream = *found->second;
  if (!bitstream.ready) {
    return params->doNotWait ? NV_ENC_ERR_LOCK_BUSY
                             : Fail(NV_ENC_ERR_INVALID_CALL, "the buffer holds no encoded picture");
  }
  params->bitstreamBufferPtr = bitstream.bytes.data();
  params->bitstreamSizeInBytes = static_cast<std::uint32_t>(bitstream.bytes.size());
  params->outputTimeStamp = static_cast<std::uint64_t>(bitstream.unit.pts);
  params->outputDuration = 0;
  params->pictureType = static_cast<NV_ENC_PIC_TYPE>(bitstream.unit.picture_type);
  params->pictureStruct = NV_ENC_PIC_STRUCT_FRAME;
  params->frameAvgQP = bitstream.unit.average_qp;
  params->frameIdx = bitstream.frame_index;
  params->numSlices = 1;
  params->hwEncodeStatus = 0;
  if (params->sliceOffsets) params->sliceOffsets[0] = 0;
  AccountMemory();
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::UnlockBitstream(NV_ENC_OUTPUT_PTR buffer) {
  auto found = bitstreams_.find(buffer);
  if (found == bitstreams_.end()) return NV_ENC_ERR_INVALID_PARAM;
  found->second->ready = false;
  return NV_ENC_SUCCESS;
}

NVENCSTATUS EncodeSession::GetSequenceParams(NV_ENC_SEQUENCE_PARAM_PAYLOAD* payload) {
  if (!payload || !payload->spsppsBuffer || !payload->outSPSPPSPayloadSize) {
    return NV_ENC_ERR_INVALID_PTR;
  }
  if (!engine_) return Fail(NV_ENC_ERR_ENCODER_NOT_INITIALIZED, "the encoder is not initialised");
  if (!engine_->Send(wire::Request::kSequenceHeaders, {})) {
    return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, "the engine is gone");
  }
  std::optional<wire::Message> message = engine_->Receive();
  if (!message) return Fail(NV_ENC_ERR_DEVICE_NOT_EXIST, "the engine is gone");
  if (message->header.type != static_cast<std::uint32_t>(wire::Reply::kHeaders)) {
    return Fail(NV_ENC_ERR_GENERIC, "the engine has no parameter sets");
  }
  if (message->payload.size() > payload->inBufferSize) {
    return Fail(NV_ENC_ERR_INVALID_PARAM, "the parameter sets do not fit the buffer");
  }
  std::memcpy(payload->spsppsBuffer, message->payload.data(), message->payload.size());
  *payload->outSPSPPSPayloadSize = static_cast<std::uint32_t>(message->payload.size());
  return NV_ENC_SUCCESS;
}

}  // namespace fakenv
