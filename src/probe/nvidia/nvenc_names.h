// Names for what NVENC answers in GUIDs and status numbers. The report names codecs and profiles
// ("HEVC", "Main10"). So a record written by hand from NVIDIA's support matrix reads like the
// matrix. A GUID without a name here keeps its text form.
#pragma once

#include <string>

#include "probe/nvidia/nvidia_loader.h"

namespace mc::probe {

// The AV1 GUIDs came with Video Codec SDK 12.0. Debian 12's nv-codec-headers (11.1) lacks them. So
// they are defined here, with the values of NVIDIA's nvEncodeAPI.h 12.0.
inline constexpr GUID kNvEncCodecAv1Guid = {
    0x0a352289, 0x0aa7, 0x4759, {0x86, 0x2d, 0x5d, 0x15, 0xcd, 0x16, 0xd2, 0x54}};
inline constexpr GUID kNvEncAv1ProfileMainGuid = {
    0x5f2a39f5, 0xf14e, 0x4f95, {0x9a, 0x9e, 0xb7, 0x6d, 0x56, 0x8f, 0xcf, 0x97}};
inline constexpr GUID kNvEncAv1ProfileHighGuid = {
    0x7c718f81, 0xabb7, 0x4a0e, {0xaf, 0xe4, 0xc8, 0x8b, 0xab, 0x95, 0x79, 0x97}};

// GuidText writes a GUID as "{6bc82762-4e63-4ca4-aa85-1e50f321f6bf}".
std::string GuidText(const GUID& guid);

// NvEncCodecName: "H264", "HEVC" or "AV1", or the GUID's text.
std::string NvEncCodecName(const GUID& codec);

// NvEncProfileName names a profile GUID within its codec: "High", "Main10". The auto-select GUID is
// "AutoSelect".
std::string NvEncProfileName(const GUID& profile);

// NvEncStatusText gives "NV_ENC_ERR_NO_ENCODE_DEVICE (1)".
std::string NvEncStatusText(NVENCSTATUS status);

// NvEncCallError gives "<call> failed: <status text>".
std::string NvEncCallError(const char* call, NVENCSTATUS status);

bool SameGuid(const GUID& a, const GUID& b);

}  // namespace mc::probe
