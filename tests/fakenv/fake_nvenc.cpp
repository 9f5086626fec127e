// The fake of libnvidia-encode.so.1: an NVENC API instance.
// Its sessions list the record's codecs, profiles and caps, and really encode.
// Each session's pictures go to an engine process (nvenc_session.h).
// A session is on the GPU of the CUDA context it is opened with.
// It answers from that GPU's record.
// The session cap is the record's, per GPU, across processes.
// It is kept in that GPU's state directory (fakenv_state.h).
#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/nvEncodeAPI.h>

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cuda_client.h"
#include "fake_record.h"
#include "fakenv_faults.h"
#include "fakenv_state.h"
#include "nvenc_guids.h"
#include "nvenc_session.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

using fakenv::EncodeSession;

// The driver's whole state in this process:
//  - the open sessions, by handle;
//  - the record of the GPU each is on.
struct NvencDriver {
  std::mutex mutex;
  std::map<void*, std::unique_ptr<EncodeSession>> sessions;
  std::map<void*, const fakenv::Record*> gpus;
};

NvencDriver& Driver() {
  static NvencDriver driver;
  return driver;
}

EncodeSession* Find(void* encoder) {
  std::lock_guard<std::mutex> lock(Driver().mutex);
  auto found = Driver().sessions.find(encoder);
  return found == Driver().sessions.end() ? nullptr : found->second.get();
}

// GpuOf gives the record of an open session's GPU.
// It gives nullptr for a handle that is none.
const fakenv::Record* GpuOf(void* encoder) {
  std::lock_guard<std::mutex> lock(Driver().mutex);
  auto found = Driver().gpus.find(encoder);
  return found == Driver().gpus.end() ? nullptr : found->second;
}

const mc::probe::NvEncoderCodec* CodecOf(void* encoder, const GUID& guid) {
  const fakenv::Record* gpu = GpuOf(encoder);
  if (!gpu) return nullptr;
  for (const mc::probe::NvEncoderCodec& codec : gpu->report->encoder.codecs) {
    if (fakenv::SameGuid(fakenv::GuidOf("", codec.codec), guid)) return &codec;
  }
  return nullptr;
}

NVENCSTATUS NVENCAPI OpenSession(NV_ENC_OPEN_ENCODE_SESSION_EX_PARAMS* params, void** encoder) {
  if (!params || !encoder) return NV_ENC_ERR_INVALID_PTR;
  if (params->deviceType != NV_ENC_DEVICE_TYPE_CUDA || !params->device)
    return NV_ENC_ERR_INVALID_DEVICE;
  // The session is on the GPU of the client's context.
  const std::optional<int> device = fakenv::ContextDevice(static_cast<CUcontext>(params->device));
  const fakenv::Record* gpu = device ? fakenv::DeviceRecord(*device) : nullptr;
  if (!gpu || !gpu->report) return NV_ENC_ERR_INVALID_DEVICE;
  const fakenv::Record& record = *gpu;
  const mc::probe::NvEncoderFacts& facts = record.report->encoder;
  // A GPU without an encoder, such as the H200, refuses here.
  // It gives the status its driver gave.
  if (facts.open_status != 0) return static_cast<NVENCSTATUS>(facts.open_status);
  if (!facts.available) return NV_ENC_ERR_GENERIC;
  fakenv::ClientRecord client;
  client.kind = fakenv::ClientKind::kEncoder;
  client.attributed = fakenv::CurrentFaults().unattributed ? 0 : 1;
  bool limited = false;
  std::string error;
  std::unique_ptr<fakenv::OwnedClient> owned = fakenv::OwnedClient::Register(
      fakenv::DeviceStateDir(*device), client, record.replay.session_limit, &limited, &error);
  // A driver over its consumer cap refuses the session.
  // It says out of memory, status 10.
  // ffmpeg users meet it as "OpenEncodeSessionEx failed: out of memory (10)".
  if (limited) return NV_ENC_ERR_OUT_OF_MEMORY;
  if (!owned) {
    std::fprintf(stderr, "fakenv: %s\n", error.c_str());
    return NV_ENC_ERR_GENERIC;
  }
  auto session = std::make_unique<EncodeSession>(std::move(owned));
  std::lock_guard<std::mutex> lock(Driver().mutex);
  *encoder = session.get();
  Driver().gpus.emplace(session.get(), gpu);
  Driver().sessions.emplace(session.get(), std::move(session));
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI DestroyEncoder(void* encoder) {
  std::unique_ptr<EncodeSession> session;
  {
    std::lock_guard<std::mutex> lock(Driver().mutex);
    auto found = Driver().sessions.find(encoder);
    if (found == Driver().sessions.end()) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
    session = std::move(found->second);
    Driver().sessions.erase(found);
    Driver().gpus.erase(encoder);
  }
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI GetEncodeGuidCount(void* encoder, std::uint32_t* count) {
  const fakenv::Record* gpu = GpuOf(encoder);
  if (!gpu) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
  *count = static_cast<std::uint32_t>(gpu->report->encoder.codecs.size());
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI GetEncodeGuids(void* encoder, GUID* guids, std::uint32_t size,
                                    std::uint32_t* count) {
  const fakenv::Record* gpu = GpuOf(encoder);
  if (!gpu) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
  const auto& codecs = gpu->report->encoder.codecs;
  std::uint32_t n = 0;
  for (; n < size && n < codecs.size(); ++n) guids[n] = fakenv::GuidOf("", codecs[n].codec);
  *count = n;
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI GetProfileGuidCount(void* encoder, GUID codec_guid, std::uint32_t* count) {
  if (!Find(encoder)) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
  const mc::probe::NvEncoderCodec* codec = CodecOf(encoder, codec_guid);
  if (!codec) return NV_ENC_ERR_INVALID_PARAM;
  *count = static_cast<std::uint32_t>(codec->profiles.size());
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI GetProfileGuids(void* encoder, GUID codec_guid, GUID* guids,
                                     std::uint32_t size, std::uint32_t* count) {
  if (!Find(encoder)) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
  const mc::probe::NvEncoderCodec* codec = CodecOf(encoder, codec_guid);
  if (!codec) return NV_ENC_ERR_INVALID_PARAM;
  std::uint32_t n = 0;
  for (; n < size && n < codec->profiles.size(); ++n)
    guids[n] = fakenv::GuidOf(codec->codec, codec->profiles[n]);
  *count = n;
  return NV_ENC_SUCCESS;
}

// Caps the record does not state answer 0, which ffmpeg reads as "not supported".
// So there are no B-pictures, lookahead, temporal AQ or 4:4:4.
// The engine codes none of them.
NVENCSTATUS NVENCAPI GetEncodeCaps(void* encoder, GUID codec_guid, NV_ENC_CAPS_PARAM* param,
                                   int* value) {
  if (!Find(encoder)) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
  const mc::probe::NvEncoderCodec* codec = CodecOf(encoder, codec_guid);
  if (!codec || !param || !value) return NV_ENC_ERR_INVALID_PARAM;
  switch (param->capsToQuery) {
    case NV_ENC_CAPS_SUPPORT_10BIT_ENCODE:
      *value = codec->supports_10bit ? 1 : 0;
      break;
    case NV_ENC_CAPS_WIDTH_MAX:
      *value = codec->max_width;
      break;
    case NV_ENC_CAPS_HEIGHT_MAX:
      *value = codec->max_height;
      break;
    case NV_ENC_CAPS_SUPPORT_CABAC:
      *value = 1;
      break;
    default:
      *value = 0;
      break;
  }
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI GetPresetConfigEx(void* encoder, GUID codec, GUID, NV_ENC_TUNING_INFO,
                                       NV_ENC_PRESET_CONFIG* config) {
  if (!Find(encoder)) return NV_ENC_ERR_INVALID_ENCODERDEVICE;
  if (!CodecOf(encoder, codec) || !config) return NV_ENC_ERR_INVALID_PARAM;
  fakenv::FillPresetConfig(codec, config);
  return NV_ENC_SUCCESS;
}

NVENCSTATUS NVENCAPI GetPresetConfig(void* encoder, GUID codec, GUID preset,
                                     NV_ENC_PRESET_CONFIG* config) {
  return GetPresetConfigEx(encoder, codec, preset, NV_ENC_TUNING_INFO_HIGH_QUALITY, config);
}

// Each of these passes one call on to the session the handle names.
#define FAKENV_SESSION_CALL(name, method, Argument)                                \
  NVENCSTATUS NVENCAPI name(void* encoder, Argument argument) {                    \
    EncodeSession* session = Find(encoder);                                        \
    return session ? session->method(argument) : NV_ENC_ERR_INVALID_ENCODERDEVICE; \
  }
FAKENV_SESSION_CALL(InitializeEncoder, Initialize, NV_ENC_INITIALIZE_PARAMS*)
FAKENV_SESSION_CALL(CreateInputBuffer, CreateInputBuffer, NV_ENC_CREATE_INPUT_BUFFER*)
FAKENV_SESSION_CALL(DestroyInputBuffer, DestroyInputBuffer, NV_ENC_INPUT_PTR)
FAKENV_SESSION_CALL(LockInputBuffer, LockInputBuffer, NV_ENC_LOCK_INPUT_BUFFER*)
FAKENV_SESSION_CALL(UnlockInputBuffer, UnlockInputBuffer, NV_ENC_INPUT_PTR)
FAKENV_SESSION_CALL(CreateBitstreamBuffer, CreateBitstreamBuffer, NV_ENC_CREATE_BITSTREAM_BUFFER*)
FAKENV_SESSION_CALL(DestroyBitstreamBuffer, DestroyBitstreamBuffer, NV_ENC_OUTPUT_PTR)
FAKENV_SESSION_CALL(RegisterResource, RegisterResource, NV_ENC_REGISTER_RESOURCE*)
FAKENV_SESSION_CALL(UnregisterResource, UnregisterResource, NV_ENC_REGISTERED_PTR)
FAKENV_SESSION_CALL(MapInputResource, MapInputResource, NV_ENC_MAP_INPUT_RESOURCE*)
FAKENV_SESSION_CALL(UnmapInputResource, UnmapInputResource, NV_ENC_INPUT_PTR)
FAKENV_SESSION_CALL(EncodePicture, EncodePicture, NV_ENC_PIC_PARAMS*)
FAKENV_SESSION_CALL(LockBitstream, LockBitstream, NV_ENC_LOCK_BITSTREAM*)
FAKENV_SESSION_CALL(UnlockBitstream, UnlockBitstream, NV_ENC_OUTPUT_PTR)
FAKENV_SESSION_CALL(GetSequenceParams, GetSequenceParams, NV_ENC_SEQUENCE_PARAM_PAYLOAD*)
#undef FAKENV_SESSION_CALL

const char* NVENCAPI GetLastErrorString(void* encoder) {
  EncodeSession* session = Find(encoder);
  return session ? session->last_error() : "fakenv: no such encoder";
}

// The fake encodes on the default stream only.
// It accepts the streams a client names, as the driver does.
NVENCSTATUS NVENCAPI SetIoCudaStreams(void* encoder, NV_ENC_CUSTREAM_PTR, NV_ENC_CUSTREAM_PTR) {
  return Find(encoder) ? NV_ENC_SUCCESS : NV_ENC_ERR_INVALID_ENCODERDEVICE;
}

// Unimplemented answers every entry point the fake does not offer.
// So no slot of the function list is left null for a client to call.
template <typename... Arguments>
NVENCSTATUS NVENCAPI Unimplemented(Arguments...) {
  return NV_ENC_ERR_UNIMPLEMENTED;
}

// ApiVersionOf reads "major.minor" as NvEncodeAPIGetMaxSupportedVersion writes it.
std::uint32_t ApiVersionOf(const std::string& text) {
  unsigned major = 0, minor = 0;
  if (std::sscanf(text.c_str(), "%u.%u", &major, &minor) != 2) return (12u << 4) | 0u;
  return (major << 4) | (minor & 0xF);
}

}  // namespace

FAKENV_EXPORT NVENCSTATUS NVENCAPI NvEncodeAPIGetMaxSupportedVersion(std::uint32_t* version) {
  if (!version) return NV_ENC_ERR_INVALID_PTR;
  *version = ApiVersionOf(fakenv::CurrentRecord().report->encoder.max_api_version);
  return NV_ENC_SUCCESS;
}

FAKENV_EXPORT NVENCSTATUS NVENCAPI NvEncodeAPICreateInstance(NV_ENCODE_API_FUNCTION_LIST* list) {
  if (!list) return NV_ENC_ERR_INVALID_PTR;
  // The structure's version carries the client's API version in its low bits.
  // A version the driver does not speak is refused, as the real driver does.
  // NVENCAPI_STRUCT_VERSION(v) = major | v << 16 | minor << 24 | 7 << 28.
  const std::uint32_t client_major = list->version & 0xFFFFu;
  const std::uint32_t client_minor = (list->version >> 24) & 0x0Fu;
  const std::uint32_t max = ApiVersionOf(fakenv::CurrentRecord().report->encoder.max_api_version);
  if ((client_major << 4 | client_minor) > max) return NV_ENC_ERR_INVALID_VERSION;
  list->nvEncOpenEncodeSession = Unimplemented;
  list->nvEncOpenEncodeSessionEx = OpenSession;
  list->nvEncDestroyEncoder = DestroyEncoder;
  list->nvEncGetEncodeGUIDCount = GetEncodeGuidCount;
  list->nvEncGetEncodeGUIDs = GetEncodeGuids;
  list->nvEncGetEncodeProfileGUIDCount = GetProfileGuidCount;
  list->nvEncGetEncodeProfileGUIDs = GetProfileGuids;
  list->nvEncGetEncodeCaps = GetEncodeCaps;
  list->nvEncGetInputFormatCount = Unimplemented;
  list->nvEncGetInputFormats = Unimplemented;
  list->nvEncGetEncodePresetCount = Unimplemented;
  list->nvEncGetEncodePresetGUIDs = Unimplemented;
  list->nvEncGetEncodePresetConfig = GetPresetConfig;
  list->nvEncGetEncodePresetConfigEx = GetPresetConfigEx;
  list->nvEncInitializeEncoder = InitializeEncoder;
  list->nvEncCreateInputBuffer = CreateInputBuffer;
  list->nvEncDestroyInputBuffer = DestroyInputBuffer;
  list->nvEncLockInputBuffer = LockInputBuffer;
  list->nvEncUnlockInputBuffer = UnlockInputBuffer;
  list->nvEncCreateBitstreamBuffer = CreateBitstreamBuffer;
  list->nvEncDestroyBitstreamBuffer = DestroyBitstreamBuffer;
  list->nvEncEncodePicture = EncodePicture;
  list->nvEncLockBitstream = LockBitstream;
  list->nvEncUnlockBitstream = UnlockBitstream;
  list->nvEncGetEncodeStats = Unimplemented;
  list->nvEncGetSequenceParams = GetSequenceParams;
  list->nvEncGetSequenceParamEx = Unimplemented;
  list->nvEncRegisterAsyncEvent = Unimplemented;
  list->nvEncUnregisterAsyncEvent = Unimplemented;
  list->nvEncMapInputResource = MapInputResource;
  list->nvEncUnmapInputResource = UnmapInputResource;
  list->nvEncRegisterResource = RegisterResource;
  list->nvEncUnregisterResource = UnregisterResource;
  list->nvEncInvalidateRefFrames = Unimplemented;
  list->nvEncReconfigureEncoder = Unimplemented;
  list->nvEncCreateMVBuffer = Unimplemented;
  list->nvEncDestroyMVBuffer = Unimplemented;
  list->nvEncRunMotionEstimationOnly = Unimplemented;
  list->nvEncGetLastErrorString = GetLastErrorString;
  list->nvEncSetIOCudaStreams = SetIoCudaStreams;
  return NV_ENC_SUCCESS;
}
