// A recorded `vainfo` text, read into the facts the fake VA driver restates:
//  - the vendor string;
//  - the profile/entrypoint pairs;
//  - their render-target formats, when the text is a `vainfo -a` one.
// Dumps are taken as people posted them: prompt lines, libva's info lines, tabs or spaces.
// So the reader keeps the lines it knows and skips the rest.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::fakeva {

// VainfoConfig is one listed profile/entrypoint pair.
// va.h numbers them (VAProfile*, VAEntrypoint*).
// It has the VA_RT_FORMAT_* mask the driver states for it.
struct VainfoConfig {
  int profile = 0;
  int entrypoint = 0;
  std::uint32_t rt_formats = 0;

  bool operator==(const VainfoConfig&) const = default;
};

struct VainfoDump {
  // Whether vaInitialize succeeded in the recorded run.
  // Then the text has vainfo's "Driver version" line.
  // A failed run's dump makes the fake driver fail its init.
  bool initialised = false;
  // The text after "Driver version: ", right-trimmed.
  std::string vendor;
  // Every pair once, in the order the text first lists it.
  // Pairs whose profile or entrypoint va.h does not name are left out.
  // Each rt_formats is non-zero. VA_RT_FORMAT_YUV420 is given to:
  //  - every pair of a plain dump;
  //  - a pair a `vainfo -a` dump shows no known render-target format for.
  std::vector<VainfoConfig> configs;
  // Whether the text is a `vainfo -a` one, which states render-target formats.
  bool has_formats = false;

  bool operator==(const VainfoDump&) const = default;
};

// ParseVainfoDump reads a vainfo text.
// It fails only when the text holds no line of vainfo's or libva's output: no dump.
// A dump of a failed run is a value with initialised == false.
Result<VainfoDump> ParseVainfoDump(std::string_view text);

// ReadVainfoDump reads and parses the file at `path`.
Result<VainfoDump> ReadVainfoDump(const std::filesystem::path& path);

}  // namespace mc::fakeva
