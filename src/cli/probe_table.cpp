#include "cli/probe_table.h"

#include <algorithm>

#include "capabilities/capability_table.h"

namespace mc {
namespace {

std::string StringAttribute(const Device& device, const char* name) {
  const AttributeValue* value = device.Attribute(name);
  return (value && std::holds_alternative<std::string>(*value)) ? std::get<std::string>(*value)
                                                                : std::string("<none>");
}

}  // namespace

std::string ProbeTable(const std::vector<DeviceReport>& reports) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"NAME", "RENDER NODE", "VA DRIVER"};
  for (const Capability& capability : kCapabilities) header.emplace_back(capability.name);
  rows.push_back(header);
  for (const DeviceReport& report : reports) {
    std::vector<std::string> row = {report.device.name, report.gpu.render_node,
                                    report.facts ? StringAttribute(report.device, "vaDriver")
                                                 : std::string("<query failed>")};
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
