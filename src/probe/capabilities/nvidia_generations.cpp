#include "probe/capabilities/nvidia_generations.h"

#include <array>
#include <optional>

#include "probe/capabilities/nvidia_rules.h"

namespace mc::probe {
namespace {

// Expectation is one cell of the tables. It is a capability the table says a generation has (true)
// or lacks (false). A cell the tables leave open has no entry.
struct Expectation {
  std::string_view capability;
  bool expected;
};

struct Generation {
  std::string_view compute_capability;
  std::string_view name;
  // Which NVIDIA table the row comes from, for the warning's words.
  std::string_view source;
  std::array<Expectation, 9> cells;
  std::size_t cell_count;
};

// The cells read NVIDIA's rows literally:
// - the NVENC matrix for encode: H.264, HEVC 8/10-bit, AV1;
// - the NVDEC matrix for decode: H.264, HEVC 8/10-bit, VP9, AV1;
// - for the compute-class dies, only that they have no NVENC.
//
// The compute-class decoders differ by die and are left open. The table keeps one generation to a
// few lines, as NVIDIA's matrix reads.
// clang-format off
constexpr std::array<Generation, 8> kGenerations{{
    {"6.1", "Pascal", "the NVENC/NVDEC support matrix",
     {{{"encodeH264", true}, {"encodeHEVCMain", true}, {"encodeHEVCMain10", true},
       {"encodeAV1Main", false}, {"decodeH264", true}, {"decodeHEVCMain", true},
       {"decodeHEVCMain10", true}, {"decodeVP9", true}, {"decodeAV1Main", false}}},
     9},
    {"7.5", "Turing", "the NVENC/NVDEC support matrix",
     {{{"encodeH264", true}, {"encodeHEVCMain", true}, {"encodeHEVCMain10", true},
       {"encodeAV1Main", false}, {"decodeH264", true}, {"decodeHEVCMain", true},
       {"decodeHEVCMain10", true}, {"decodeVP9", true}, {"decodeAV1Main", false}}},
     9},
    {"8.0", "Ampere (compute-class, A100/A30)", "the compute-class note",
     {{{"encodeH264", false}, {"encodeHEVCMain", false}, {"encodeAV1Main", false}}},
     3},
    {"8.6", "Ampere", "the NVENC/NVDEC support matrix",
     {{{"encodeH264", true}, {"encodeHEVCMain", true}, {"encodeHEVCMain10", true},
       {"encodeAV1Main", false}, {"decodeH264", true}, {"decodeHEVCMain", true},
       {"decodeHEVCMain10", true}, {"decodeVP9", true}, {"decodeAV1Main", true}}},
     9},
    {"8.9", "Ada", "the NVENC/NVDEC support matrix",
     {{{"encodeH264", true}, {"encodeHEVCMain", true}, {"encodeHEVCMain10", true},
       {"encodeAV1Main", true}, {"decodeH264", true}, {"decodeHEVCMain", true},
       {"decodeHEVCMain10", true}, {"decodeVP9", true}, {"decodeAV1Main", true}}},
     9},
    {"9.0", "Hopper (compute-class, H100/H200)", "the compute-class note",
     {{{"encodeH264", false}, {"encodeHEVCMain", false}, {"encodeAV1Main", false}}},
     3},
    {"10.0", "Blackwell (compute-class, B100/B200)", "the compute-class note",
     {{{"encodeH264", false}, {"encodeHEVCMain", false}, {"encodeAV1Main", false}}},
     3},
    {"12.0", "Blackwell", "the NVENC/NVDEC support matrix",
     {{{"encodeH264", true}, {"encodeHEVCMain", true}, {"encodeHEVCMain10", true},
       {"encodeAV1Main", true}, {"decodeH264", true}, {"decodeHEVCMain", true},
       {"decodeHEVCMain10", true}, {"decodeVP9", true}, {"decodeAV1Main", true}}},
     9},
}};
// clang-format on

const Generation* FindGeneration(std::string_view compute_capability) {
  for (const Generation& generation : kGenerations) {
    if (generation.compute_capability == compute_capability) return &generation;
  }
  return nullptr;
}

std::optional<bool> ValueOf(const CapabilityValues& values, std::string_view name) {
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    if (kCapabilities[i].name == name) return values[i];
  }
  return std::nullopt;
}

}  // namespace

std::string_view NvidiaGeneration(std::string_view compute_capability) {
  const Generation* generation = FindGeneration(compute_capability);
  return generation ? generation->name : std::string_view();
}

std::vector<std::string> GenerationTableWarnings(const NvidiaFacts& facts,
                                                 const CapabilityValues& values) {
  std::vector<std::string> warnings;
  const Generation* generation = FindGeneration(facts.compute_capability);
  if (!generation) return warnings;
  for (std::size_t i = 0; i < generation->cell_count; ++i) {
    const Expectation& cell = generation->cells[i];
    const std::optional<bool> stated = ValueOf(values, cell.capability);
    if (!stated || *stated == cell.expected) continue;
    warnings.push_back("NVIDIA's generation table (" + std::string(generation->source) +
                       ", docs/probe/nvidia.md) expects " + std::string(cell.capability) + "=" +
                       (cell.expected ? "true" : "false") + " on " + std::string(generation->name) +
                       " (compute capability " + facts.compute_capability +
                       "), but the driver's statement gives " + (*stated ? "true" : "false") +
                       ", which is what is published");
  }
  return warnings;
}

std::vector<std::string> NvidiaWarnings(const NvidiaFacts& facts) {
  std::vector<std::string> warnings = facts.warnings;
  if (!facts.encoder.available)
    warnings.push_back("the encoder is unavailable: " + facts.encoder.unavailable_reason);
  for (std::string& warning : GenerationTableWarnings(facts, EvaluateNvidiaFacts(facts))) {
    warnings.push_back(std::move(warning));
  }
  return warnings;
}

}  // namespace mc::probe
