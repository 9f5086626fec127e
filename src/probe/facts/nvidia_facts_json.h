// The JSON form of NvidiaFacts: the report `query-nvidia PCI` prints on stdout. The parent reads it
// back with ParseNvidiaFacts, as outside input. Codecs, chroma formats and surface formats are
// written by name, not as cuvid's numbers. So a record written by hand from NVIDIA's support matrix
// reads like the matrix.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"

namespace mc::probe {

std::string NvidiaFactsToJson(const NvidiaFacts& facts);

// ParseNvidiaFacts names the first thing wrong, with its place in the document. Example:
// "decoders[2].chroma: unknown chroma format \"4:2:1\"".
Result<NvidiaFacts> ParseNvidiaFacts(std::string_view json);

}  // namespace mc::probe
