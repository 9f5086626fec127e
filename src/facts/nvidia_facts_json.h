// The JSON form of NvidiaFacts, the report `query-nvidia PCI` prints on stdout. The parent
// reads it back with ParseNvidiaFacts, which treats the text as outside input. Codecs,
// chroma formats and surface formats are written by name rather than as cuvid's numbers,
// so that a record written by hand from NVIDIA's support matrix reads like the matrix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "facts/nvidia_facts.h"

namespace mc {

std::string NvidiaFactsToJson(const NvidiaFacts& facts);

// ParseNvidiaFacts names the first thing that is wrong, with its place in the document, for
// example "decoders[2].chroma: unknown chroma format \"4:2:1\"".
Result<NvidiaFacts> ParseNvidiaFacts(std::string_view json);

// The names the report uses: cudaVideoCodec as "H264", "HEVC", "AV1", ...;
// cudaVideoChromaFormat as "monochrome", "420", "422", "444"; cudaVideoSurfaceFormat as
// "NV12", "P016", "YUV444", "YUV444_16Bit". A number without a name is written "#<n>".
std::string CuvidCodecName(std::int32_t codec);
std::optional<std::int32_t> CuvidCodecFromName(std::string_view name);
std::string CuvidChromaName(std::int32_t chroma);
std::optional<std::int32_t> CuvidChromaFromName(std::string_view name);
std::string CuvidSurfaceFormatName(std::int32_t format);
std::optional<std::int32_t> CuvidSurfaceFormatFromName(std::string_view name);

// DecoderCapsLabel names one decode question for logs, such as "HEVC 4:2:0 10-bit".
std::string DecoderCapsLabel(std::int32_t codec, std::int32_t chroma, std::int32_t bit_depth);

}  // namespace mc
