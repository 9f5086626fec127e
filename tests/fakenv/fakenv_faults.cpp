#include "fakenv_faults.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace fakenv {
namespace {

// ReadCount reads the N of "name:N" when `entry` starts with "name:".
bool ReadCount(std::string_view entry, std::string_view name, std::optional<std::uint64_t>& out) {
  if (entry.size() <= name.size() + 1 || entry.substr(0, name.size()) != name ||
      entry[name.size()] != ':') {
    return false;
  }
  const std::string_view digits = entry.substr(name.size() + 1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) return false;
  out = value;
  return true;
}

}  // namespace

std::optional<Faults> ParseFaults(std::string_view text, std::string_view* unknown) {
  Faults faults;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view entry = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    if (entry.empty()) continue;
    if (entry == "unattributed") {
      faults.unattributed = true;
    } else if (!ReadCount(entry, "encode-fails-after", faults.encode_fails_after) &&
               !ReadCount(entry, "engine-dies-after", faults.engine_dies_after)) {
      if (unknown) *unknown = entry;
      return std::nullopt;
    }
  }
  return faults;
}

// FaultText is FAKENV_FAULT, else what the file FAKENV_FAULT_FILE holds at start.
// A test writes that file to make the fake fail from the next process on.
// A real GPU may fail so, in the middle of a worker's life.
std::string FaultText() {
  if (const char* text = std::getenv("FAKENV_FAULT"); text && *text) return text;
  const char* path = std::getenv("FAKENV_FAULT_FILE");
  if (!path || !*path) return "";
  std::FILE* file = std::fopen(path, "r");
  if (!file) return "";
  char buffer[256] = {};
  const std::size_t got = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  std::string text(buffer, got);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

const Faults& CurrentFaults() {
  static const Faults faults = [] {
    const std::string text = FaultText();
    std::string_view unknown;
    std::optional<Faults> parsed = ParseFaults(text, &unknown);
    if (!parsed) {
      std::fprintf(stderr, "fakenv: FAKENV_FAULT names a fault the fake does not know: %s\n",
                   std::string(unknown).c_str());
      std::abort();
    }
    return *parsed;
  }();
  return faults;
}

}  // namespace fakenv
