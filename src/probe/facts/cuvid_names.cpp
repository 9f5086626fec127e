#include "probe/facts/cuvid_names.h"

// Only the enums are used, for their names. Nothing NVIDIA is linked.
#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/dynlink_cuviddec.h>

#include <array>
#include <utility>

#include "common/base/text.h"

namespace mc::probe {
namespace {

template <std::size_t N>
using NameTable = std::array<std::pair<std::int32_t, std::string_view>, N>;

constexpr NameTable<12> kCodecNames{{
    {cudaVideoCodec_MPEG1, "MPEG1"},
    {cudaVideoCodec_MPEG2, "MPEG2"},
    {cudaVideoCodec_MPEG4, "MPEG4"},
    {cudaVideoCodec_VC1, "VC1"},
    {cudaVideoCodec_H264, "H264"},
    {cudaVideoCodec_JPEG, "JPEG"},
    {cudaVideoCodec_H264_SVC, "H264_SVC"},
    {cudaVideoCodec_H264_MVC, "H264_MVC"},
    {cudaVideoCodec_HEVC, "HEVC"},
    {cudaVideoCodec_VP8, "VP8"},
    {cudaVideoCodec_VP9, "VP9"},
    {cudaVideoCodec_AV1, "AV1"},
}};

constexpr NameTable<4> kChromaNames{{
    {cudaVideoChromaFormat_Monochrome, "monochrome"},
    {cudaVideoChromaFormat_420, "420"},
    {cudaVideoChromaFormat_422, "422"},
    {cudaVideoChromaFormat_444, "444"},
}};

constexpr NameTable<4> kSurfaceFormatNames{{
    {cudaVideoSurfaceFormat_NV12, "NV12"},
    {cudaVideoSurfaceFormat_P016, "P016"},
    {cudaVideoSurfaceFormat_YUV444, "YUV444"},
    {cudaVideoSurfaceFormat_YUV444_16Bit, "YUV444_16Bit"},
}};

template <std::size_t N>
std::string NameOf(const NameTable<N>& table, std::int32_t value) {
  for (const auto& [number, name] : table) {
    if (number == value) return std::string(name);
  }
  return "#" + std::to_string(value);
}

// ValueOf reads a name of the table. Or the "#<n>" form NameOf gives an unnamed number.
template <std::size_t N>
std::optional<std::int32_t> ValueOf(const NameTable<N>& table, std::string_view name) {
  for (const auto& [number, known] : table) {
    if (known == name) return number;
  }
  if (name.size() < 2 || name[0] != '#') return std::nullopt;
  const std::optional<std::int32_t> value = ParseInteger<std::int32_t>(name.substr(1));
  if (!value) return std::nullopt;
  // A number that has a name must be written by it. So one value has one form.
  for (const auto& [number, known] : table) {
    if (number == *value) return std::nullopt;
  }
  return value;
}

}  // namespace

std::string CuvidCodecName(std::int32_t codec) { return NameOf(kCodecNames, codec); }
std::optional<std::int32_t> CuvidCodecFromName(std::string_view name) {
  return ValueOf(kCodecNames, name);
}
std::string CuvidChromaName(std::int32_t chroma) { return NameOf(kChromaNames, chroma); }
std::optional<std::int32_t> CuvidChromaFromName(std::string_view name) {
  return ValueOf(kChromaNames, name);
}
std::string CuvidSurfaceFormatName(std::int32_t format) {
  return NameOf(kSurfaceFormatNames, format);
}
std::optional<std::int32_t> CuvidSurfaceFormatFromName(std::string_view name) {
  return ValueOf(kSurfaceFormatNames, name);
}

std::string DecoderCapsLabel(std::int32_t codec, std::int32_t chroma, std::int32_t bit_depth) {
  std::string chroma_text = CuvidChromaName(chroma);
  if (chroma_text.size() == 3 && chroma_text[0] != '#') {
    chroma_text = std::string{chroma_text[0], ':', chroma_text[1], ':', chroma_text[2]};
  }
  return CuvidCodecName(codec) + " " + chroma_text + " " + std::to_string(bit_depth) + "-bit";
}

}  // namespace mc::probe
