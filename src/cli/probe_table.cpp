#include "cli/probe_table.h"

#include <algorithm>

#include "capabilities/capability_table.h"

namespace mc {

using Group = CapabilityLabel::Group;

const std::vector<CapabilityLabel> kCapabilityLabels = {
    {"decodeH264", Group::kDecodes, "H.264"},
    {"decodeHEVCMain", Group::kDecodes, "HEVC"},
    {"decodeHEVCMain10", Group::kDecodes, "HEVC 10-bit"},
    {"decodeAV1Main", Group::kDecodes, "AV1"},
    {"decodeAV1Main10", Group::kDecodes, "AV1 10-bit"},
    {"decodeVP9", Group::kDecodes, "VP9"},
    {"decodeVP9Profile2", Group::kDecodes, "VP9 10-bit"},
    {"decodeVP8", Group::kDecodes, "VP8"},
    {"decodeVC1", Group::kDecodes, "VC-1"},
    {"decodeMPEG2", Group::kDecodes, "MPEG-2"},
    {"encodeH264", Group::kEncodes, "H.264"},
    {"encodeHEVCMain", Group::kEncodes, "HEVC"},
    {"encodeHEVCMain10", Group::kEncodes, "HEVC 10-bit"},
    {"encodeAV1Main", Group::kEncodes, "AV1"},
    {"encodeAV1Main10", Group::kEncodes, "AV1 10-bit"},
    {"encodeH264LowPower", Group::kEncodesLowPower, "H.264"},
    {"encodeHEVCMainLowPower", Group::kEncodesLowPower, "HEVC"},
    {"encodeHEVCMain10LowPower", Group::kEncodesLowPower, "HEVC 10-bit"},
    {"scale8bit", Group::kScales, "8-bit"},
    {"scale10bit", Group::kScales, "10-bit"},
};

namespace {

constexpr std::string_view kNone = "-";

bool Holds(const Device& device, std::string_view capability) {
  const AttributeValue* value = device.Attribute(std::string(capability));
  return value && std::holds_alternative<bool>(*value) && std::get<bool>(*value);
}

std::string TextAttribute(const Device& device, const char* name, std::string_view otherwise) {
  const AttributeValue* value = device.Attribute(name);
  return value && std::holds_alternative<std::string>(*value) ? std::get<std::string>(*value)
                                                              : std::string(otherwise);
}

// ListOf joins the labels of a group's capabilities the device holds, or gives "-".
std::string ListOf(const Device& device, Group group) {
  std::string list;
  for (const CapabilityLabel& label : kCapabilityLabels) {
    if (label.group != group || !Holds(device, label.capability)) continue;
    if (!list.empty()) list += ", ";
    list += label.label;
  }
  return list.empty() ? std::string(kNone) : list;
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

std::string ProbeTable(const std::vector<DeviceReport>& reports) {
  std::string out;
  for (const DeviceReport& report : reports) {
    if (!out.empty()) out += "\n";
    const Device& device = report.device;
    out += device.name + "  " + TextAttribute(device, "name", "(no model name)") + "\n";
    out += "  api            " + TextAttribute(device, "api", "none") + " on " +
           (report.gpu.render_node.empty() ? report.gpu.pci_address : report.gpu.render_node) +
           "\n";
    if (report.failure) {
      out += "  query failed   " + *report.failure + "\n";
      continue;
    }
    out += "  driver         " + report.driver + "\n";
    out += "  decodes        " + ListOf(device, Group::kDecodes) + "\n";
    out += "  encodes        " + ListOf(device, Group::kEncodes) + "\n";
    out += "  low-power      " + ListOf(device, Group::kEncodesLowPower) + "\n";
    out += "  scales         " + ListOf(device, Group::kScales) + "\n";
    for (const auto& [name, capacity] : device.capacity) {
      if (name == "encodeSessions")
        out += "  sessions       " + std::to_string(capacity.value) + "\n";
    }
  }
  return out;
}

std::string ProbeWideTable(const std::vector<DeviceReport>& reports) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> header = {"NAME", "API", "RENDER NODE", "DRIVER"};
  for (const Capability& capability : kCapabilities) header.emplace_back(capability.name);
  rows.push_back(header);
  for (const DeviceReport& report : reports) {
    std::vector<std::string> row = {
        report.device.name, TextAttribute(report.device, "api", "<none>"),
        report.gpu.render_node.empty() ? std::string("<none>") : report.gpu.render_node,
        report.failure ? std::string("<query failed>") : report.driver};
    for (const Capability& capability : kCapabilities) {
      row.emplace_back(Holds(report.device, capability.name) ? "true" : "false");
    }
    rows.push_back(std::move(row));
  }
  return AlignedColumns(rows);
}

}  // namespace mc
