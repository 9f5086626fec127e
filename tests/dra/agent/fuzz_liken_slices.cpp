// liken's ResourceSlices, as a watch hands them over, read for their render nodes. Any
// JSON document is tried: an array stands for the slices, anything else for one slice.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "dra/agent/liken_render_nodes.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json document = nlohmann::json::parse(data, data + size, nullptr, false);
  if (document.is_discarded()) return 0;
  std::vector<nlohmann::json> slices;
  if (document.is_array()) {
    for (const nlohmann::json& slice : document) slices.push_back(slice);
  } else {
    slices.push_back(document);
  }
  mc::dra::RenderNodesOfLikenSlices(slices);
  return 0;
}
