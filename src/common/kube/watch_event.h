// One line of a watch stream: {"type": "...", "object": {...}}. The stream is outside input. So the
// parser checks every part it reads, and has a fuzz target.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::kube {

struct WatchEvent {
  enum class Type { kAdded, kModified, kDeleted, kBookmark, kError };
  Type type = Type::kAdded;
  // The object. For kError it is the Status object. Its `code` 410 means the resource version is
  // too old. The caller must then list again.
  nlohmann::json object;
  // object.metadata.resourceVersion, which every type but kError carries.
  std::string resource_version;
};

Result<WatchEvent> ParseWatchEvent(std::string_view line);

}  // namespace mc::kube
