// PCI addresses arrive in several spellings:
// - sysfs writes "0000:00:02.0";
// - CUDA gives numbers;
// - NVML writes an eight-digit domain.
//
// Kubernetes' DRA helpers accept one form: lowercase hex with a four-digit domain. A claim pairs
// two drivers' devices only when both spell it the same. So every address is normalised here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::probe {

// NormalisePciAddress accepts "DDDD:BB:DD.F" in any case. The domain has 1 to 8 hex digits; digits
// past four must be zero. It returns the canonical "dddd:bb:dd.f". Anything else gives nullopt.
std::optional<std::string> NormalisePciAddress(std::string_view text);

std::string FormatPciAddress(std::uint32_t domain, std::uint32_t bus, std::uint32_t device,
                             std::uint32_t function);

// DeviceNameForPciAddress: liken's DNS-label device name for a PCI device. Example:
// "pci-0000-00-02-0".
std::string DeviceNameForPciAddress(std::string_view canonical_address);

}  // namespace mc::probe
