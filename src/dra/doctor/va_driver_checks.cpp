#include "dra/doctor/va_driver_checks.h"

#include <filesystem>
#include <vector>

#include "common/base/text.h"
#include "dra/doctor/va_driver_rules.h"

namespace mc::dra {
namespace {

constexpr char kDriver[] = "va-driver";
constexpr char kVersion[] = "va-driver-version";

std::vector<std::string> SearchDirs(const LibvaSettings& libva) {
  std::vector<std::string> dirs;
  if (!libva.drivers_path || libva.drivers_path->empty()) {
    dirs.push_back(libva.default_dir);
    return dirs;
  }
  std::string_view path = *libva.drivers_path;
  while (!path.empty()) {
    const std::size_t colon = path.find(':');
    const std::string_view dir = path.substr(0, colon);
    if (!dir.empty()) dirs.emplace_back(dir);
    path = colon == std::string_view::npos ? std::string_view() : path.substr(colon + 1);
  }
  return dirs;
}

std::string Where(const LibvaSettings& libva, const std::vector<std::string>& dirs) {
  return Joined(dirs, ":") + (libva.drivers_path && !libva.drivers_path->empty()
                                  ? " (LIBVA_DRIVERS_PATH)"
                                  : " (libva's default)");
}

}  // namespace

CheckResults CheckVaDrivers(const NodeInput& input) {
  CheckResults results;
  const std::vector<std::string> dirs = SearchDirs(input.libva);
  for (const probe::DeviceReport& report : input.probe.reports) {
    if (report.gpu.render_node.empty()) continue;
    const std::string node = WhereIs(report);
    const bool nvidia = IsNvidia(report);
    std::vector<std::string> candidates;
    const bool named = input.libva.driver_name && !input.libva.driver_name->empty();
    if (named) {
      candidates.push_back(*input.libva.driver_name);
    } else {
      for (std::string_view name : VaDriversFor(report.gpu.kernel_driver))
        candidates.emplace_back(name);
    }
    if (candidates.empty()) {
      results.push_back(Warn(kDriver,
                             node + ": libva knows no VA driver for the kernel driver '" +
                                 report.gpu.kernel_driver + "'",
                             "name the driver with LIBVA_DRIVER_NAME"));
      continue;
    }
    std::string found;
    for (const std::string& candidate : candidates) {
      for (const std::string& dir : dirs) {
        const std::string file = dir + "/" + candidate + "_drv_video.so";
        std::error_code error;
        if (found.empty() && std::filesystem::exists(file, error)) found = file;
      }
      if (!found.empty()) {
        results.push_back(Ok(kDriver, node + ": libva loads " + candidate +
                                          (named ? " (LIBVA_DRIVER_NAME)" : "") + " from " +
                                          found));
        break;
      }
    }
    if (!found.empty()) continue;
    std::vector<std::string> files;
    for (const std::string& candidate : candidates) files.push_back(candidate + "_drv_video.so");
    const std::string finding = node + " (" + report.gpu.kernel_driver + "): no " +
                                Joined(files, " or ") + " in " + Where(input.libva, dirs);
    std::string remedy;
    for (const std::string& candidate : candidates) {
      const std::string_view package = VaDriverPackage(candidate);
      if (!package.empty())
        remedy += (remedy.empty() ? "install " : ", or ") + std::string(package);
    }
    remedy += (remedy.empty() ? "" : "; ") +
              std::string("or point LIBVA_DRIVERS_PATH at the directory that holds it");
    if (named)
      remedy = "LIBVA_DRIVER_NAME names a driver that is not there: unset it, or " + remedy;
    if (nvidia) {
      // NVIDIA GPUs are asked through NVIDIA's own APIs.
      // So a missing VA driver costs only other VA-API programs on this node.
      results.push_back(Warn(kDriver, finding + "; this project asks NVIDIA's own APIs instead",
                             remedy + ", if VA-API programs should use this GPU"));
    } else {
      results.push_back(Fail(kDriver, finding, remedy));
    }
  }
  return results;
}

CheckResults CheckVaDriverVersions(const NodeInput& input) {
  CheckResults results;
  for (const probe::DeviceReport& report : input.probe.reports) {
    if (IsNvidia(report)) continue;
    const std::string node = WhereIs(report);
    if (report.failure) {
      results.push_back(Fail(kVersion, node + ": the VA driver did not answer: " + *report.failure,
                             "the render-node-access and va-driver lines name the usual causes; "
                             "docs/troubleshooting.md lists the others"));
      continue;
    }
    const VaDriverIdentity identity = IdentifyVaDriver(report.driver);
    const std::string kernel =
        report.gpu.kernel_driver.empty() ? "an unknown kernel driver" : report.gpu.kernel_driver;
    if (identity.version.empty()) {
      results.push_back(
          Warn(kVersion,
               node + ": the driver's vendor string states no version: '" + report.driver + "'",
               "compare with vainfo --display drm --device " + report.gpu.render_node));
      continue;
    }
    const std::string name = identity.driver.empty() ? "the driver" : identity.driver;
    if (std::optional<VersionRule> rule =
            BrokenVersionRule(report.gpu.kernel_driver, identity.driver, identity.version)) {
      results.push_back(
          Fail(kVersion,
               node + ": " + name + " " + identity.version + " on " + kernel + ": " +
                   std::string(rule->why),
               rule->minimum.empty()
                   ? "install the driver libva tries first for " + kernel + " (see va-driver)"
                   : "install " + name + " " + std::string(rule->minimum) + " or later"));
      continue;
    }
    results.push_back(
        Ok(kVersion, node + ": " + name + " " + identity.version + " on " + kernel + " answered"));
  }
  return results;
}

}  // namespace mc::dra
