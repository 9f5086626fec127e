#include "probe/nvidia/nvenc_names.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>

namespace mc::probe {
namespace {

struct NamedGuid {
  const GUID* guid;
  std::string_view name;
};

}  // namespace

bool SameGuid(const GUID& a, const GUID& b) {
  return a.Data1 == b.Data1 && a.Data2 == b.Data2 && a.Data3 == b.Data3 &&
         std::memcmp(a.Data4, b.Data4, sizeof a.Data4) == 0;
}

std::string GuidText(const GUID& guid) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
                static_cast<unsigned>(guid.Data1), guid.Data2, guid.Data3, guid.Data4[0],
                guid.Data4[1], guid.Data4[2], guid.Data4[3], guid.Data4[4], guid.Data4[5],
                guid.Data4[6], guid.Data4[7]);
  return buffer;
}

std::string NvEncCodecName(const GUID& codec) {
  const std::array<NamedGuid, 3> names{{
      {&NV_ENC_CODEC_H264_GUID, "H264"},
      {&NV_ENC_CODEC_HEVC_GUID, "HEVC"},
      {&kNvEncCodecAv1Guid, "AV1"},
  }};
  for (const NamedGuid& named : names) {
    if (SameGuid(*named.guid, codec)) return std::string(named.name);
  }
  return GuidText(codec);
}

std::string NvEncProfileName(const GUID& profile) {
  // Each profile GUID belongs to one codec, so one table serves them all. "Main" appears for three
  // codecs with three different GUIDs.
  const std::array<NamedGuid, 13> names{{
      {&NV_ENC_CODEC_PROFILE_AUTOSELECT_GUID, "AutoSelect"},
      {&NV_ENC_H264_PROFILE_BASELINE_GUID, "Baseline"},
      {&NV_ENC_H264_PROFILE_MAIN_GUID, "Main"},
      {&NV_ENC_H264_PROFILE_HIGH_GUID, "High"},
      {&NV_ENC_H264_PROFILE_HIGH_444_GUID, "High444"},
      {&NV_ENC_H264_PROFILE_STEREO_GUID, "Stereo"},
      {&NV_ENC_H264_PROFILE_PROGRESSIVE_HIGH_GUID, "ProgressiveHigh"},
      {&NV_ENC_H264_PROFILE_CONSTRAINED_HIGH_GUID, "ConstrainedHigh"},
      {&NV_ENC_HEVC_PROFILE_MAIN_GUID, "Main"},
      {&NV_ENC_HEVC_PROFILE_MAIN10_GUID, "Main10"},
      {&NV_ENC_HEVC_PROFILE_FREXT_GUID, "FRExt"},
      {&kNvEncAv1ProfileMainGuid, "Main"},
      {&kNvEncAv1ProfileHighGuid, "High"},
  }};
  for (const NamedGuid& named : names) {
    if (SameGuid(*named.guid, profile)) return std::string(named.name);
  }
  return GuidText(profile);
}

std::string NvEncStatusText(NVENCSTATUS status) {
  const char* name = nullptr;
  switch (status) {
#define MC_NVENC_STATUS(s) \
  case s:                  \
    name = #s;             \
    break;
    MC_NVENC_STATUS(NV_ENC_SUCCESS)
    MC_NVENC_STATUS(NV_ENC_ERR_NO_ENCODE_DEVICE)
    MC_NVENC_STATUS(NV_ENC_ERR_UNSUPPORTED_DEVICE)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_ENCODERDEVICE)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_DEVICE)
    MC_NVENC_STATUS(NV_ENC_ERR_DEVICE_NOT_EXIST)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_PTR)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_EVENT)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_PARAM)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_CALL)
    MC_NVENC_STATUS(NV_ENC_ERR_OUT_OF_MEMORY)
    MC_NVENC_STATUS(NV_ENC_ERR_ENCODER_NOT_INITIALIZED)
    MC_NVENC_STATUS(NV_ENC_ERR_UNSUPPORTED_PARAM)
    MC_NVENC_STATUS(NV_ENC_ERR_LOCK_BUSY)
    MC_NVENC_STATUS(NV_ENC_ERR_NOT_ENOUGH_BUFFER)
    MC_NVENC_STATUS(NV_ENC_ERR_INVALID_VERSION)
    MC_NVENC_STATUS(NV_ENC_ERR_MAP_FAILED)
    MC_NVENC_STATUS(NV_ENC_ERR_NEED_MORE_INPUT)
    MC_NVENC_STATUS(NV_ENC_ERR_ENCODER_BUSY)
    MC_NVENC_STATUS(NV_ENC_ERR_EVENT_NOT_REGISTERD)
    MC_NVENC_STATUS(NV_ENC_ERR_GENERIC)
    MC_NVENC_STATUS(NV_ENC_ERR_INCOMPATIBLE_CLIENT_KEY)
    MC_NVENC_STATUS(NV_ENC_ERR_UNIMPLEMENTED)
    MC_NVENC_STATUS(NV_ENC_ERR_RESOURCE_REGISTER_FAILED)
    MC_NVENC_STATUS(NV_ENC_ERR_RESOURCE_NOT_REGISTERED)
    MC_NVENC_STATUS(NV_ENC_ERR_RESOURCE_NOT_MAPPED)
#undef MC_NVENC_STATUS
  }
  const std::string number = std::to_string(static_cast<int>(status));
  return name ? std::string(name) + " (" + number + ")" : "NVENCSTATUS " + number;
}

std::string NvEncCallError(const char* call, NVENCSTATUS status) {
  return std::string(call) + " failed: " + NvEncStatusText(status);
}

}  // namespace mc::probe
