// The agent's own slices as the server holds them are outside input too: anyone with the
// rights may write them. Any JSON array stands for the slices the watch holds; the plan
// and the comparison with what was sent must hold up against every shape.
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "dra/slices/resource_slices.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json document = nlohmann::json::parse(data, data + size, nullptr, false);
  if (document.is_discarded() || !document.is_array()) return 0;
  const mc::dra::SliceOwner owner{
      .driver = "media.liken.sh", .node_name = "worker-1", .node_uid = "uid"};
  std::map<std::string, nlohmann::json> current;
  std::size_t index = 0;
  for (const nlohmann::json& slice : document)
    current[mc::dra::SliceName(owner, index++ % 3)] = slice;
  const std::vector<mc::probe::Device> devices = {
      {.name = "a", .attributes = {{"decodeH264", true}}}};
  for (const mc::dra::SliceWrite& write : mc::dra::PlanSliceWrites(owner, devices, current)) {
    for (const auto& [name, slice] : current) mc::dra::SliceDifferences(write.object, slice);
  }
  return 0;
}
