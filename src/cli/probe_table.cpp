#include "cli/probe_table.h"

#include <algorithm>
#include <string_view>

#include "cli/capability_lists.h"
#include "cli/wrapped_cell.h"
#include "probe/capabilities/capability_table.h"
#include "probe/capabilities/encode_session_cap.h"

namespace mc {
namespace {

using Work = probe::Listing::Work;

constexpr std::string_view kNone = "none";

std::string TextAttribute(const probe::Device& device, const char* name,
                          std::string_view otherwise) {
  const probe::AttributeValue* value = device.Attribute(name);
  return value && std::holds_alternative<std::string>(*value) ? std::get<std::string>(*value)
                                                              : std::string(otherwise);
}

// ApiName gives the API the way its vendor writes it; the attribute holds it in lower case
// for selectors.
std::string ApiName(const probe::Device& device) {
  const std::string api = TextAttribute(device, "api", "");
  if (api == "vaapi") return "VA-API";
  if (api == "nvidia") return "NVIDIA";
  return api.empty() ? std::string(kNone) : api;
}

// Where the GPU is asked: its render node, or, for an NVIDIA GPU without one, its PCI address.
std::string ApiPlace(const probe::DeviceReport& report) {
  return report.gpu.render_node.empty() ? "at " + report.gpu.pci_address
                                        : "on " + report.gpu.render_node;
}

std::string ListOrNone(const probe::Device& device, Work work) {
  const std::string list = CapabilityList(device, work);
  return list.empty() ? std::string(kNone) : list;
}

// What a GPU encodes takes two lines when it has both encoders: the full-power one, then
// the low-power one (VA-API's EncSliceLP) after "LP:".
std::vector<std::string> EncoderLines(const probe::Device& device) {
  std::vector<std::string> lines;
  if (std::string full = CapabilityList(device, Work::kEncode); !full.empty())
    lines.push_back(std::move(full));
  if (std::string low_power = CapabilityList(device, Work::kEncodeLowPower); !low_power.empty())
    lines.push_back("LP: " + low_power);
  if (lines.empty()) lines.emplace_back(kNone);
  return lines;
}

std::string GpuBlock(const probe::DeviceReport& report) {
  const probe::Device& device = report.device;
  // The heading's model name wraps under itself, as the cells' values do under theirs.
  std::string out = WrappedCell(device.name, {TextAttribute(device, "name", "(no model name)")},
                                {.indent = 0, .value_column = device.name.size() + 2});
  out += WrappedCell("api", {ApiName(device) + " " + ApiPlace(report)});
  if (report.failure) return out + WrappedCell("query failed", {*report.failure});
  out += WrappedCell("driver", {report.driver});
  out += WrappedCell("decodes", {ListOrNone(device, Work::kDecode)});
  out += WrappedCell("encodes", EncoderLines(device));
  out += WrappedCell("scales", {ListOrNone(device, Work::kScale)});
  for (const auto& [name, capacity] : device.capacity) {
    if (name == probe::kEncodeSessionsCapacity)
      out += WrappedCell("sessions", {std::to_string(capacity.value)});
  }
  return out;
}

std::string AlignedColumns(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
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

}  // namespace

std::string ProbeTable(const std::vector<probe::DeviceReport>& reports) {
  std::string out;
  for (const probe::DeviceReport& report : reports) {
    if (!out.empty()) out += "\n";
    out += GpuBlock(report);
  }
  return out;
}

std::string ProbeWideTable(const std::vector<probe::DeviceReport>& reports) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"NAME", "API", "RENDER NODE", "DRIVER"};
  for (const probe::Capability& capability : probe::kCapabilities)
    header.emplace_back(capability.name);
  rows.push_back(header);
  for (const probe::DeviceReport& report : reports) {
    std::vector<std::string> row = {
        report.device.name, TextAttribute(report.device, "api", "<none>"),
        report.gpu.render_node.empty() ? std::string("<none>") : report.gpu.render_node,
        report.failure ? std::string("<query failed>") : report.driver};
    for (const probe::Capability& capability : probe::kCapabilities) {
      row.emplace_back(HoldsCapability(report.device, capability.name) ? "true" : "false");
    }
    rows.push_back(std::move(row));
  }
  return AlignedColumns(rows);
}

}  // namespace mc
