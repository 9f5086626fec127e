// PCI addresses arrive in several spellings: sysfs writes "0000:00:02.0", CUDA gives
// numbers, NVML writes an eight-digit domain. Kubernetes' DRA helpers accept one form,
// lowercase hex with a four-digit domain, and a claim pairs two drivers' devices only when
// both spell it the same, so every address is normalised here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mc::probe {

// NormalisePciAddress accepts "DDDD:BB:DD.F" with a domain of 1 to 8 hex digits (wider
// domains must have their extra digits zero) and any case, and returns the canonical
// "dddd:bb:dd.f". Anything else gives nullopt.
std::optional<std::string> NormalisePciAddress(std::string_view text);

std::string FormatPciAddress(std::uint32_t domain, std::uint32_t bus, std::uint32_t device,
                             std::uint32_t function);

// DeviceNameForPciAddress gives the DNS-label device name liken uses for a PCI device,
// such as "pci-0000-00-02-0".
std::string DeviceNameForPciAddress(std::string_view canonical_address);

}  // namespace mc::probe
