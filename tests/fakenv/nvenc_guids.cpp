#include "nvenc_guids.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace fakenv {
namespace {

struct NamedGuid {
  std::string_view codec;  // empty for a codec GUID itself
  std::string_view name;
  GUID guid;
};

// Values of NVIDIA's nvEncodeAPI.h (11.1 for H.264 and HEVC, 12.0 for AV1).
// clang-format off: one GUID to an entry, as nvEncodeAPI.h lists them.
constexpr std::array<NamedGuid, 18> kGuids{{
    {"", "H264", {0x6bc82762, 0x4e63, 0x4ca4, {0xaa, 0x85, 0x1e, 0x50, 0xf3, 0x21, 0xf6, 0xbf}}},
    {"", "HEVC", {0x790cdc88, 0x4522, 0x4d7b, {0x94, 0x25, 0xbd, 0xa9, 0x97, 0x5f, 0x76, 0x03}}},
    {"", "AV1", {0x0a352289, 0x0aa7, 0x4759, {0x86, 0x2d, 0x5d, 0x15, 0xcd, 0x16, 0xd2, 0x54}}},
    {"H264",
     "AutoSelect",
     {0xbfd6f8e7, 0x233c, 0x4341, {0x8b, 0x3e, 0x48, 0x18, 0x52, 0x38, 0x03, 0xf4}}},
    {"HEVC",
     "AutoSelect",
     {0xbfd6f8e7, 0x233c, 0x4341, {0x8b, 0x3e, 0x48, 0x18, 0x52, 0x38, 0x03, 0xf4}}},
    {"AV1",
     "AutoSelect",
     {0xbfd6f8e7, 0x233c, 0x4341, {0x8b, 0x3e, 0x48, 0x18, 0x52, 0x38, 0x03, 0xf4}}},
    {"H264",
     "Baseline",
     {0x0727bcaa, 0x78c4, 0x4c83, {0x8c, 0x2f, 0xef, 0x3d, 0xff, 0x26, 0x7c, 0x6a}}},
    {"H264",
     "Main",
     {0x60b5c1d4, 0x67fe, 0x4790, {0x94, 0xd5, 0xc4, 0x72, 0x6d, 0x7b, 0x6e, 0x6d}}},
    {"H264",
     "High",
     {0xe7cbc309, 0x4f7a, 0x4b89, {0xaf, 0x2a, 0xd5, 0x37, 0xc9, 0x2b, 0xe3, 0x10}}},
    {"H264",
     "High444",
     {0x7ac663cb, 0xa598, 0x4960, {0xb8, 0x44, 0x33, 0x9b, 0x26, 0x1a, 0x7d, 0x52}}},
    {"H264",
     "Stereo",
     {0x40847bf5, 0x33f7, 0x4601, {0x90, 0x84, 0xe8, 0xfe, 0x3c, 0x1d, 0xb8, 0xb7}}},
    {"H264",
     "ProgressiveHigh",
     {0xb405afac, 0xf32b, 0x417b, {0x89, 0xc4, 0x9a, 0xbe, 0xed, 0x3e, 0x59, 0x78}}},
    {"H264",
     "ConstrainedHigh",
     {0xaec1bd87, 0xe85b, 0x48f2, {0x84, 0xc3, 0x98, 0xbc, 0xa6, 0x28, 0x50, 0x72}}},
    {"HEVC",
     "Main",
     {0xb514c39a, 0xb55b, 0x40fa, {0x87, 0x8f, 0xf1, 0x25, 0x3b, 0x4d, 0xfd, 0xec}}},
    {"HEVC",
     "Main10",
     {0xfa4d2b6c, 0x3a5b, 0x411a, {0x80, 0x18, 0x0a, 0x3f, 0x5e, 0x3c, 0x9b, 0xe5}}},
    {"HEVC",
     "FRExt",
     {0x51ec32b5, 0x1b4c, 0x453c, {0x9c, 0xbd, 0xb6, 0x16, 0xbd, 0x62, 0x13, 0x41}}},
    {"AV1", "Main", {0x5f2a39f5, 0xf14e, 0x4f95, {0x9a, 0x9e, 0xb7, 0x6d, 0x56, 0x8f, 0xcf, 0x97}}},
    {"AV1", "High", {0x7c718f81, 0xabb7, 0x4a0e, {0xaf, 0xe4, 0xc8, 0x8b, 0xab, 0x95, 0x79, 0x97}}},
}};
// clang-format on

}  // namespace

bool SameGuid(const GUID& a, const GUID& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

GUID GuidOf(std::string_view codec, std::string_view name) {
  for (const NamedGuid& named : kGuids) {
    if (named.codec == codec && named.name == name && !name.empty()) return named.guid;
  }
  GUID guid{};
  unsigned d[11];
  const std::string text(name);
  if (std::sscanf(text.c_str(), "{%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x}", &d[0], &d[1], &d[2],
                  &d[3], &d[4], &d[5], &d[6], &d[7], &d[8], &d[9], &d[10]) == 11) {
    guid.Data1 = d[0];
    guid.Data2 = static_cast<std::uint16_t>(d[1]);
    guid.Data3 = static_cast<std::uint16_t>(d[2]);
    for (int i = 0; i < 8; ++i) guid.Data4[i] = static_cast<std::uint8_t>(d[3 + i]);
    return guid;
  }
  std::fprintf(stderr, "fakenv: the record names an NVENC GUID \"%s\" the fake does not know\n",
               text.c_str());
  std::abort();
}

int PresetRank(const GUID& preset) {
  const GUID* presets[] = {&NV_ENC_PRESET_P1_GUID, &NV_ENC_PRESET_P2_GUID, &NV_ENC_PRESET_P3_GUID,
                           &NV_ENC_PRESET_P4_GUID, &NV_ENC_PRESET_P5_GUID, &NV_ENC_PRESET_P6_GUID,
                           &NV_ENC_PRESET_P7_GUID};
  for (int rank = 1; rank <= 7; ++rank) {
    if (SameGuid(*presets[rank - 1], preset)) return rank;
  }
  return 4;
}

unsigned ProfileNumber(const GUID& profile) {
  if (SameGuid(profile, NV_ENC_H264_PROFILE_BASELINE_GUID)) return 66;
  if (SameGuid(profile, NV_ENC_H264_PROFILE_MAIN_GUID)) return 77;
  if (SameGuid(profile, NV_ENC_H264_PROFILE_HIGH_GUID)) return 100;
  if (SameGuid(profile, NV_ENC_HEVC_PROFILE_MAIN_GUID)) return 1;
  return 0;
}

}  // namespace fakenv
