#include "cli/probe_table.h"

#include <algorithm>

#include "capabilities/capability_table.h"

namespace mc {
namespace {

}  // namespace

std::string ProbeTable(const std::vector<DeviceReport>& reports) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"NAME", "API", "RENDER NODE", "DRIVER"};
  for (const Capability& capability : kCapabilities) header.emplace_back(capability.name);
  rows.push_back(header);
  for (const DeviceReport& report : reports) {
    const AttributeValue* api = report.device.Attribute("api");
    std::vector<std::string> row = {
        report.device.name, api ? std::get<std::string>(*api) : std::string("<none>"),
        report.gpu.render_node.empty() ? std::string("<none>") : report.gpu.render_node,
        report.failure ? std::string("<query failed>") : report.driver};
    for (const Capability& capability : kCapabilities) {
      const AttributeValue* value = report.device.Attribute(std::string(capability.name));
      row.emplace_back(value && std::get<bool>(*value) ? "true" : "false");
    }
    rows.push_back(std::move(row));
  }

  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 3, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace mc
