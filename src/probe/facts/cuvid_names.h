// The names of NVIDIA's cuvid enums in this project's reports, records and logs. The enums are
// cudaVideoCodec, cudaVideoChromaFormat and cudaVideoSurfaceFormat. These name them through this
// table:
// - the JSON form of NvidiaFacts;
// - the capability rules;
// - the NVDEC query.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::probe {

// The names the report uses:
// - cudaVideoCodec: "H264", "HEVC", "AV1", ...;
// - cudaVideoChromaFormat: "monochrome", "420", "422", "444";
// - cudaVideoSurfaceFormat: "NV12", "P016", "YUV444", "YUV444_16Bit".
//
// A number without a name is written "#<n>".
std::string CuvidCodecName(std::int32_t codec);
std::optional<std::int32_t> CuvidCodecFromName(std::string_view name);
std::string CuvidChromaName(std::int32_t chroma);
std::optional<std::int32_t> CuvidChromaFromName(std::string_view name);
std::string CuvidSurfaceFormatName(std::int32_t format);
std::optional<std::int32_t> CuvidSurfaceFormatFromName(std::string_view name);

// DecoderCapsLabel names one decode question for logs. Example: "HEVC 4:2:0 10-bit".
std::string DecoderCapsLabel(std::int32_t codec, std::int32_t chroma, std::int32_t bit_depth);

}  // namespace mc::probe
