// What is known of VA drivers, as data:
//  - which drivers libva tries for each kernel driver;
//  - the Debian package that ships each;
//  - how a driver names itself in its vendor string;
//  - the kernel drivers a VA driver supports only from some version on.
// The first is libva's table in va_drm_utils.c, keyed by sysfs's PCI driver names.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mc::dra {

// The VA drivers libva tries for the GPU's kernel driver, in its order.
// "i915" gives iHD, then i965.
// Empty for a kernel driver libva has no entry for.
std::span<const std::string_view> VaDriversFor(std::string_view kernel_driver);

// Where libva looks for drivers when LIBVA_DRIVERS_PATH is unset.
// It is its build's own directory, as its pkg-config file states it.
std::string_view LibvaDefaultDriversDir();

// The Debian package that ships <name>_drv_video.so, or empty when none is known.
std::string_view VaDriverPackage(std::string_view va_driver);

// The VA driver a vendor string is from, and the version it states.
// "Intel iHD driver ... - 24.1.5 ()" is iHD.
// Either is empty when the string does not say.
struct VaDriverIdentity {
  std::string driver;
  std::string version;
};
VaDriverIdentity IdentifyVaDriver(std::string_view vendor);

// FirstVersion finds the first "N.N" or "N.N.N..." in `text`, or empty.
std::string FirstVersion(std::string_view text);

// CompareVersions orders two dotted versions number by number.
// A missing number is 0.
int CompareVersions(std::string_view a, std::string_view b);

// A kernel driver that a VA driver supports only from `minimum` on.
// With an empty minimum, it does not support it at all.
struct VersionRule {
  std::string_view kernel_driver;
  std::string_view va_driver;
  std::string_view minimum;
  std::string_view why;
};

// The rule that `version` of `va_driver` breaks on `kernel_driver`, if any.
std::optional<VersionRule> BrokenVersionRule(std::string_view kernel_driver,
                                             std::string_view va_driver, std::string_view version);

}  // namespace mc::dra
