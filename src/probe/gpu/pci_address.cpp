#include "probe/gpu/pci_address.h"

#include <cctype>
#include <cstdio>

namespace mc::probe {
namespace {

// ParseHex reads the hex digits of all of `text` into `out`. False on a non-hex character or empty
// text.
bool ParseHex(std::string_view text, std::uint32_t& out) {
  if (text.empty()) return false;
  std::uint64_t value = 0;
  for (char c : text) {
    const int digit = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
                      : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                                  : -1;
    if (digit < 0) return false;
    value = value * 16 + static_cast<std::uint64_t>(digit);
    if (value > 0xFFFFFFFFu) return false;
  }
  out = static_cast<std::uint32_t>(value);
  return true;
}

}  // namespace

std::optional<std::string> NormalisePciAddress(std::string_view text) {
  const auto first_colon = text.find(':');
  const auto second_colon = text.find(':', first_colon == text.npos ? 0 : first_colon + 1);
  const auto dot = text.find('.', second_colon == text.npos ? 0 : second_colon + 1);
  if (first_colon == text.npos || second_colon == text.npos || dot == text.npos) {
    return std::nullopt;
  }
  const std::string_view domain_text = text.substr(0, first_colon);
  const std::string_view bus_text = text.substr(first_colon + 1, second_colon - first_colon - 1);
  const std::string_view device_text = text.substr(second_colon + 1, dot - second_colon - 1);
  const std::string_view function_text = text.substr(dot + 1);
  std::uint32_t domain = 0, bus = 0, device = 0, function = 0;
  if (domain_text.size() > 8 || bus_text.size() != 2 || device_text.size() != 2 ||
      function_text.size() != 1 || !ParseHex(domain_text, domain) || !ParseHex(bus_text, bus) ||
      !ParseHex(device_text, device) || !ParseHex(function_text, function)) {
    return std::nullopt;
  }
  // A PCI device number has five bits and a function three. Linux names no domain wider than 16
  // bits in four digits.
  if (domain > 0xFFFF || device > 0x1F || function > 7) return std::nullopt;
  return FormatPciAddress(domain, bus, device, function);
}

std::string FormatPciAddress(std::uint32_t domain, std::uint32_t bus, std::uint32_t device,
                             std::uint32_t function) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%04x:%02x:%02x.%x", domain & 0xFFFFu, bus & 0xFFu,
                device & 0x1Fu, function & 0x7u);
  return buffer;
}

std::string DeviceNameForPciAddress(std::string_view canonical_address) {
  std::string name = "pci-";
  for (char c : canonical_address) name += (c == ':' || c == '.') ? '-' : c;
  return name;
}

}  // namespace mc::probe
