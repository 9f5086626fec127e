#include "probe/gpu/sysfs_files.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include "common/base/read_file.h"
#include "common/base/text.h"

namespace mc::probe {

std::string ReadSysfsHex(const std::filesystem::path& file, std::size_t digits,
                         std::string& problem) {
  Result<std::string> content = ReadFileText(file);
  if (!content || content->empty()) {
    problem = "cannot read " + file.string();
    return {};
  }
  std::string text = content->substr(0, content->find('\n'));
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (text.starts_with("0x") || text.starts_with("0X")) text.erase(0, 2);
  const bool hex = !text.empty() && text.size() <= digits &&
                   std::all_of(text.begin(), text.end(),
                               [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  if (!hex) {
    problem = file.string() + " holds \"" + text + "\", not a hex number of at most " +
              std::to_string(digits) + " digits";
    return {};
  }
  return std::string(digits - text.size(), '0') + AsciiLower(text);
}

std::string ReadSubsystemIds(const std::filesystem::path& device, std::string& problem) {
  std::error_code error;
  if (!std::filesystem::exists(device / "subsystem_vendor", error) ||
      !std::filesystem::exists(device / "subsystem_device", error))
    return {};
  const std::string vendor = ReadSysfsHex(device / "subsystem_vendor", 4, problem);
  if (vendor.empty()) return {};
  const std::string product = ReadSysfsHex(device / "subsystem_device", 4, problem);
  return product.empty() ? std::string() : vendor + ":" + product;
}

std::string LinkTargetName(const std::filesystem::path& link) {
  std::error_code error;
  const std::filesystem::path target = std::filesystem::read_symlink(link, error);
  return error ? std::string() : target.filename().string();
}

}  // namespace mc::probe
