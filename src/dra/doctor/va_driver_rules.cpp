#include "dra/doctor/va_driver_rules.h"

#include <cctype>
#include <charconv>

namespace mc::dra {
namespace {

struct KernelDrivers {
  std::string_view kernel_driver;
  std::string_view va_drivers[2];
  std::size_t count;
};

// libva's own map, by the DRM driver's name.
// For these GPUs that is the PCI driver's name in sysfs too.
// NVIDIA differs: its DRM driver is nvidia-drm, its PCI driver nvidia.
constexpr KernelDrivers kVaDriversByKernelDriver[] = {
    {"xe", {"iHD"}, 1},          {"i915", {"iHD", "i965"}, 2}, {"radeon", {"r600", "radeonsi"}, 2},
    {"amdgpu", {"radeonsi"}, 1}, {"nvidia", {"nvidia"}, 1},    {"nvidia-drm", {"nvidia"}, 1},
};

constexpr std::pair<std::string_view, std::string_view> kPackages[] = {
    {"iHD", "intel-media-va-driver-non-free (or intel-media-va-driver)"},
    {"i965", "i965-va-driver-shaders (or i965-va-driver)"},
    {"radeonsi", "mesa-va-drivers"},
    {"r600", "mesa-va-drivers"},
    {"nvidia", "nvidia-vaapi-driver"},
};

// How each driver begins its vendor string (vaQueryVendorString).
constexpr std::pair<std::string_view, std::string_view> kVendorPrefixes[] = {
    {"Intel iHD driver", "iHD"},
    {"Intel i965 driver", "i965"},
    {"Mesa Gallium driver", "Mesa"},
    {"VA-API NVDEC driver", "nvidia"},
};

constexpr VersionRule kVersionRules[] = {
    {"xe", "iHD", "24.2.0",
     "intel-media-driver turns its support of the xe kernel driver on from 24.2"},
    {"xe", "i965", "", "the i965 driver knows only the i915 kernel driver"},
};

}  // namespace

std::span<const std::string_view> VaDriversFor(std::string_view kernel_driver) {
  for (const KernelDrivers& entry : kVaDriversByKernelDriver) {
    if (entry.kernel_driver == kernel_driver) return {entry.va_drivers, entry.count};
  }
  return {};
}

std::string_view LibvaDefaultDriversDir() { return MEDIA_CAP_LIBVA_DRIVERS_DIR; }

std::string_view VaDriverPackage(std::string_view va_driver) {
  for (const auto& [driver, package] : kPackages) {
    if (driver == va_driver) return package;
  }
  return "";
}

std::string FirstVersion(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) continue;
    if (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '.'))
      continue;
    std::size_t end = i;
    int dots = 0;
    while (end < text.size()) {
      const char c = text[end];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++end;
      } else if (c == '.' && end + 1 < text.size() &&
                 std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
        ++dots;
        ++end;
      } else {
        break;
      }
    }
    if (dots > 0) return std::string(text.substr(i, end - i));
    i = end;
  }
  return "";
}

int CompareVersions(std::string_view a, std::string_view b) {
  while (!a.empty() || !b.empty()) {
    auto take = [](std::string_view& text) {
      const std::size_t dot = text.find('.');
      const std::string_view part = text.substr(0, dot);
      text = dot == std::string_view::npos ? std::string_view() : text.substr(dot + 1);
      unsigned long long value = 0;
      std::from_chars(part.data(), part.data() + part.size(), value);
      return value;
    };
    const unsigned long long x = take(a);
    const unsigned long long y = take(b);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

VaDriverIdentity IdentifyVaDriver(std::string_view vendor) {
  VaDriverIdentity identity;
  for (const auto& [prefix, driver] : kVendorPrefixes) {
    if (vendor.find(prefix) != std::string_view::npos) {
      identity.driver = driver;
      break;
    }
  }
  identity.version = FirstVersion(vendor);
  return identity;
}

std::optional<VersionRule> BrokenVersionRule(std::string_view kernel_driver,
                                             std::string_view va_driver, std::string_view version) {
  for (const VersionRule& rule : kVersionRules) {
    if (rule.kernel_driver != kernel_driver || rule.va_driver != va_driver) continue;
    if (rule.minimum.empty() || CompareVersions(version, rule.minimum) < 0) return rule;
  }
  return std::nullopt;
}

}  // namespace mc::dra
