#include "pool/kube_api/event_json.h"

#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/utf8.h"

namespace mc::pool {
namespace {

constexpr std::size_t kMaxMessageBytes = 1024;

// RFC 3339 in UTC to the second, the form of an Event's firstTimestamp and lastTimestamp.
std::string Rfc3339(std::chrono::system_clock::time_point at) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(at);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

std::string EventName(const std::string& object, std::chrono::system_clock::time_point at) {
  const auto nanoseconds =
      std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
  char hex[20];
  std::snprintf(hex, sizeof hex, "%llx", static_cast<unsigned long long>(nanoseconds));
  return object + "." + hex;
}

std::string EventBody(const EventSource& source, const PoolEvent& event,
                      std::chrono::system_clock::time_point at) {
  const std::string when = Rfc3339(at);
  nlohmann::json involved = {{"apiVersion", "apps/v1"},
                             {"kind", "StatefulSet"},
                             {"namespace", source.ns},
                             {"name", source.statefulset}};
  if (!source.uid.empty()) involved["uid"] = source.uid;
  nlohmann::json body = {
      {"apiVersion", "v1"},
      {"kind", "Event"},
      {"metadata", {{"name", EventName(source.statefulset, at)}, {"namespace", source.ns}}},
      {"involvedObject", involved},
      {"type", EventTypeName(event.type)},
      {"reason", ValidUtf8(event.reason)},
      {"message", TruncateUtf8(ValidUtf8(event.message), kMaxMessageBytes)},
      {"source", {{"component", source.component}}},
      {"firstTimestamp", when},
      {"lastTimestamp", when},
      {"count", 1},
      {"reportingComponent", source.component},
  };
  if (!source.instance.empty()) body["reportingInstance"] = source.instance;
  return JsonText(body);
}

Result<std::string> ParseObjectUid(std::string_view body) {
  const auto fail = [](const std::string& what) { return InvalidInput("object: " + what); };
  const nlohmann::json root = ParseJsonOrDiscarded(body);
  if (root.is_discarded()) return fail("not valid JSON");
  JsonReader reader;
  if (!reader.Object(root, "object")) return fail(reader.error_message());
  const nlohmann::json* metadata = reader.Member(root, "", "metadata");
  if (!metadata || !reader.Object(*metadata, "metadata")) return fail(reader.error_message());
  const nlohmann::json* uid = reader.Member(*metadata, "metadata", "uid");
  std::string value;
  if (!uid || !reader.String(*uid, "metadata.uid", value)) return fail(reader.error_message());
  if (value.empty()) return fail("metadata.uid: empty");
  return value;
}

}  // namespace mc::pool
