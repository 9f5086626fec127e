#include "common/kube/watch_event.h"

#include <exception>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/text.h"

namespace mc::kube {
namespace {

struct TypeName {
  const char* name;
  WatchEvent::Type type;
};
constexpr TypeName kTypes[] = {
    {"ADDED", WatchEvent::Type::kAdded},     {"MODIFIED", WatchEvent::Type::kModified},
    {"DELETED", WatchEvent::Type::kDeleted}, {"BOOKMARK", WatchEvent::Type::kBookmark},
    {"ERROR", WatchEvent::Type::kError},
};

Result<WatchEvent> Parse(std::string_view line) {
  const auto fail = [](const std::string& what) { return InvalidInput("watch event: " + what); };
  nlohmann::json root = ParseJsonOrDiscarded(line);
  if (root.is_discarded()) return fail("not valid JSON");

  JsonReader reader;
  if (!reader.Object(root, "event")) return fail(reader.error_message());
  const nlohmann::json* type = reader.Member(root, "", "type");
  std::string type_name;
  if (!type || !reader.String(*type, "type", type_name)) return fail(reader.error_message());

  WatchEvent event;
  bool known = false;
  for (const TypeName& candidate : kTypes) {
    if (type_name == candidate.name) {
      event.type = candidate.type;
      known = true;
    }
  }
  if (!known)
    return fail("type: \"" + Excerpt(type_name, 40) +
                "\" is not ADDED, MODIFIED, DELETED, BOOKMARK or ERROR");

  nlohmann::json* object = root.contains("object") ? &root["object"] : nullptr;
  if (!object) return fail("object: missing");
  if (!reader.Object(*object, "object")) return fail(reader.error_message());

  // An ERROR carries a Status, with no resourceVersion of its own.
  if (event.type != WatchEvent::Type::kError) {
    const nlohmann::json* metadata = reader.Member(*object, "object", "metadata");
    if (!metadata || !reader.Object(*metadata, "object.metadata"))
      return fail(reader.error_message());
    const nlohmann::json* version = reader.Member(*metadata, "object.metadata", "resourceVersion");
    if (!version ||
        !reader.String(*version, "object.metadata.resourceVersion", event.resource_version)) {
      return fail(reader.error_message());
    }
    if (event.resource_version.empty()) return fail("object.metadata.resourceVersion: empty");
  }
  event.object = std::move(*object);
  return event;
}

}  // namespace

Result<WatchEvent> ParseWatchEvent(std::string_view line) {
  // The parse itself throws nothing. Every access checks its type first. The catch is for what no
  // check foresees, such as memory running out on a huge line. Nothing may leave the module as an
  // exception.
  try {
    return Parse(line);
  } catch (const std::exception& error) {
    return InvalidInput(std::string("watch event: ") + error.what());
  }
}

}  // namespace mc::kube
