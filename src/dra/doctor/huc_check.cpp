#include "dra/doctor/huc_check.h"

#include <fcntl.h>
#include <i915_drm.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "common/base/read_file.h"
#include "dra/doctor/huc_info.h"

namespace mc::dra {
namespace {

namespace fs = std::filesystem;

constexpr char kHuc[] = "huc-firmware";
// VAEntrypointEncSliceLP in va.h.
constexpr std::int32_t kEncSliceLP = 8;

bool ListsLowPowerEncode(const probe::DeviceReport& report) {
  if (!report.va_facts) return false;
  return std::ranges::any_of(report.va_facts->configs, [](const probe::VaConfig& config) {
    return config.entrypoint == kEncSliceLP;
  });
}

// What one source said of the HuC: running or not, in words, or why it could not say.
struct HucAnswer {
  bool known = false;
  bool running = false;
  std::string said;    // what was found, when known
  std::string status;  // the firmware state of debugfs, when it came from there
  std::string firmware;
  std::string why_not;  // why the source could not say, when not known
};

// AskI915 is I915_PARAM_HUC_STATUS on the render node:
//  - 1 when the HuC is loaded and authenticated;
//  - 0 when it is not;
//  - ENODEV when the GPU has none.
HucAnswer AskI915(const std::string& render_node) {
  HucAnswer answer;
  const int fd = open(render_node.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    answer.why_not = "cannot open " + render_node + ": " + std::strerror(errno);
    return answer;
  }
  int value = -1;
  drm_i915_getparam param{};
  param.param = I915_PARAM_HUC_STATUS;
  param.value = &value;
  const int result = ioctl(fd, DRM_IOCTL_I915_GETPARAM, &param);
  const int why = errno;
  close(fd);
  if (result != 0 && why == ENODEV) {
    answer = {.known = true, .running = false, .said = "i915 says this GPU has no HuC"};
  } else if (result != 0) {
    answer.why_not = "I915_PARAM_HUC_STATUS on " + render_node + ": " + std::strerror(why);
  } else {
    answer = {.known = true,
              .running = value == 1,
              .said = value == 1 ? "i915 says the HuC is loaded and authenticated"
                                 : "i915 says the HuC is not loaded"};
  }
  return answer;
}

// CardMinor is N of the cardN beside the render node in sysfs, which names the GPU's
// directory in debugfs.
std::string CardMinor(const NodeRoots& roots, const std::string& node) {
  std::error_code error;
  const fs::path drm = fs::path(roots.discovery.sysfs) / "class/drm" / node / "device/drm";
  for (const fs::directory_entry& entry : fs::directory_iterator(drm, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("card")) return name.substr(4);
  }
  return "";
}

// HucInfoFiles are the huc_info files of the GPU's GTs in debugfs: gt/uc/huc_info. Where there
// are several GTs: gt0/uc/huc_info, gt1/uc/huc_info, and so on. The HuC is on the media GT.
std::vector<fs::path> HucInfoFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("gt")) files.push_back(entry.path() / "uc/huc_info");
  }
  std::ranges::sort(files);
  return files;
}

HucAnswer AskDebugfs(const NodeRoots& roots, const probe::DeviceReport& report) {
  HucAnswer answer;
  const std::string node = probe::RenderNodeForPath(report.gpu.render_node);
  std::vector<fs::path> dirs;
  if (const std::string minor = CardMinor(roots, node); !minor.empty())
    dirs.push_back(fs::path(roots.Debugfs()) / "dri" / minor);
  if (!report.gpu.pci_address.empty())
    dirs.push_back(fs::path(roots.Debugfs()) / "dri" / report.gpu.pci_address);
  if (dirs.empty()) {
    answer.why_not = "sysfs shows no card beside " + node + " to find its debugfs directory";
    return answer;
  }
  std::string reasons;
  for (const fs::path& dir : dirs) {
    std::error_code error;
    if (!fs::is_directory(dir, error)) {
      reasons += (reasons.empty() ? "" : "; ") + dir.string() + " is not there or not readable";
      continue;
    }
    const std::vector<fs::path> files = HucInfoFiles(dir);
    if (files.empty()) {
      reasons += (reasons.empty() ? "" : "; ") + dir.string() + " holds no gt*/uc/huc_info";
      continue;
    }
    HucAnswer first_state;
    for (const fs::path& file : files) {
      Result<std::string> text = ReadFileText(file);
      if (!text) {
        reasons += (reasons.empty() ? "" : "; ") + text.error_message();
        continue;
      }
      Result<HucInfo> info = ParseHucInfo(*text);
      if (!info) {
        reasons += (reasons.empty() ? "" : "; ") + file.string() + ": " + info.error_message();
        continue;
      }
      HucAnswer state{.known = true,
                      .running = HucRunning(*info),
                      .said = file.string() + " says " + info->status +
                              (info->firmware.empty() ? "" : " (" + info->firmware + ")"),
                      .status = info->status,
                      .firmware = info->firmware};
      if (state.running) return state;
      // A GT without the HuC says N/A; the media GT's state is the one to tell.
      if (!first_state.known || (first_state.status == "N/A" && state.status != "N/A"))
        first_state = state;
    }
    if (first_state.known) return first_state;
  }
  answer.why_not = reasons;
  return answer;
}

std::string NotRunningRemedy(const HucAnswer& answer, const std::string& kernel) {
  if (answer.status == "MISSING") {
    return "install the firmware file " +
           (answer.firmware.empty() ? std::string("of the HuC") : answer.firmware) +
           " (Debian: firmware-misc-nonfree; upstream: linux-firmware) and reload " + kernel;
  }
  if (answer.status == "DISABLED" && kernel == "i915") {
    return "i915 loads the HuC on Gen9 to Gen11 only when told: boot with i915.enable_guc=2";
  }
  return "dmesg | grep -i huc says why; until the HuC runs, ask for full-power encode (the "
         "encode* attributes) rather than the low-power one";
}

}  // namespace

CheckResults CheckHucFirmware(const NodeInput& input) {
  CheckResults results;
  for (const probe::DeviceReport& report : input.probe.reports) {
    const std::string& kernel = report.gpu.kernel_driver;
    if (kernel != "i915" && kernel != "xe") continue;
    const std::string node = WhereIs(report);
    if (!ListsLowPowerEncode(report)) {
      results.push_back(Ok(kHuc, node + ": the driver lists no low-power encode, which alone "
                                        "needs the HuC"));
      continue;
    }
    HucAnswer answer;
    std::string reasons;
    if (kernel == "i915") {
      answer = AskI915(report.gpu.render_node);
      if (!answer.known) reasons = answer.why_not;
    }
    if (!answer.known) {
      answer = AskDebugfs(input.roots, report);
      if (!answer.known) reasons += (reasons.empty() ? "" : "; ") + answer.why_not;
    }
    if (!answer.known) {
      results.push_back(Warn(kHuc,
                             node +
                                 ": the driver lists low-power encode, and the HuC's state "
                                 "cannot be read: " +
                                 reasons,
                             "run the doctor as root with debugfs mounted (mount -t debugfs none "
                             "/sys/kernel/debug), or read dmesg | grep -i huc"));
    } else if (answer.running) {
      results.push_back(Ok(kHuc, node + ": " + answer.said));
    } else {
      results.push_back(Fail(kHuc, node + ": the driver lists low-power encode, but " + answer.said,
                             NotRunningRemedy(answer, kernel)));
    }
  }
  return results;
}

}  // namespace mc::dra
