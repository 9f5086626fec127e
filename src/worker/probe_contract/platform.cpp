#include "worker/probe_contract/platform.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <vector>

#include "common/base/read_file.h"
#include "common/base/text.h"

namespace mc::worker {
namespace {

std::string FirstLine(const std::string& path) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return "";
  return text->substr(0, text->find('\n'));
}

}  // namespace

Platform DetectPlatform(const PlatformRoots& roots) {
  Platform platform;
  platform.kernel = FirstLine(roots.proc + "/sys/kernel/osrelease");
  const std::string version = FirstLine(roots.proc + "/version");
  std::error_code error;
  const bool dxg = std::filesystem::exists(roots.dev + "/dxg", error);
  const bool microsoft = AsciiLower(platform.kernel).find("microsoft") != std::string::npos ||
                         AsciiLower(version).find("microsoft") != std::string::npos;
  platform.wsl2 = dxg || microsoft;
  std::vector<std::string> seen;
  if (dxg) seen.push_back(roots.dev + "/dxg exists");
  if (microsoft) seen.push_back("the kernel is Microsoft's (" + platform.kernel + ")");
  if (seen.empty()) {
    platform.evidence =
        "no " + roots.dev + "/dxg and a kernel not Microsoft's (" +
        (platform.kernel.empty() ? std::string("release unknown") : platform.kernel) + ")";
  } else {
    for (std::size_t i = 0; i < seen.size(); ++i) platform.evidence += (i ? "; " : "") + seen[i];
  }
  return platform;
}

}  // namespace mc::worker
