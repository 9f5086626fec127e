#include "dra/doctor/nvidia_versions.h"

#include <cctype>

#include "dra/doctor/va_driver_rules.h"

namespace mc::dra {
namespace {

bool IsDottedNumber(std::string_view text) {
  if (text.empty() || text.front() == '.' || text.back() == '.') return false;
  bool dot = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '.') {
      if (text[i - 1] == '.') return false;
      dot = true;
    } else if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      return false;
    }
  }
  return dot;
}

}  // namespace

Result<NvidiaKernelModule> ParseNvidiaKernelVersion(std::string_view text) {
  constexpr std::string_view kPrefix = "NVRM version:";
  const std::size_t start = text.find(kPrefix);
  if (start == std::string_view::npos)
    return InvalidInput("/proc/driver/nvidia/version: no line 'NVRM version: ...'");
  std::string_view line = text.substr(start + kPrefix.size());
  line = line.substr(0, line.find('\n'));
  constexpr std::string_view kModule = "Kernel Module";
  const std::size_t module = line.find(kModule);
  if (module == std::string_view::npos)
    return InvalidInput("/proc/driver/nvidia/version: the NVRM line names no 'Kernel Module'");
  NvidiaKernelModule result;
  result.open = line.substr(0, module).find("Open") != std::string_view::npos;
  // The version is the first dotted number after "Kernel Module".
  // "for x86_64" may come between.
  result.version = FirstVersion(line.substr(module + kModule.size()));
  if (result.version.empty())
    return InvalidInput("/proc/driver/nvidia/version: the NVRM line states no version");
  return result;
}

std::string LibraryFileVersion(std::string_view file_name, std::string_view stem) {
  const std::string prefix = std::string(stem) + ".so.";
  if (!file_name.starts_with(prefix)) return "";
  const std::string_view rest = file_name.substr(prefix.size());
  return IsDottedNumber(rest) ? std::string(rest) : "";
}

}  // namespace mc::dra
