#include "common/peertube/admin_json.h"

#include "common/base/iso_time.h"
#include "common/base/json_parse.h"
#include "common/peertube/runner_paths.h"

namespace mc::peertube {

Result<nlohmann::json> ParseAnswer(std::string_view text, std::string_view what) {
  nlohmann::json document = ParseJsonOrDiscarded(text);
  if (document.is_discarded()) return InvalidInput(std::string(what) + ": not JSON");
  return document;
}

bool ReadTime(JsonReader& reader, const nlohmann::json& value, const std::string& path,
              double& out) {
  const std::optional<double> seconds =
      value.is_string() ? ParseIsoTime(value.get_ref<const std::string&>()) : std::nullopt;
  if (!seconds) return reader.Fail(path, "expected an ISO-8601 time");
  out = *seconds;
  return true;
}

bool ReadJobHead(JsonReader& reader, const nlohmann::json& job, const std::string& path,
                 std::string& uuid, std::string& type) {
  if (!reader.Object(job, path)) return false;
  const nlohmann::json* id = reader.Member(job, path, "uuid");
  if (!id || !reader.String(*id, JsonReader::Child(path, "uuid"), uuid)) return false;
  if (!IsUuid(uuid)) return reader.Fail(JsonReader::Child(path, "uuid"), "not a UUID");
  const nlohmann::json* kind = reader.Member(job, path, "type");
  if (!kind || !reader.String(*kind, JsonReader::Child(path, "type"), type)) return false;
  if (type.empty()) return reader.Fail(JsonReader::Child(path, "type"), "empty");
  return true;
}

bool ReadJobOutput(JsonReader& reader, const nlohmann::json& output, const std::string& path,
                   std::optional<int>& resolution, std::optional<double>& fps) {
  if (!reader.Object(output, path)) return false;
  if (const nlohmann::json* value = JsonReader::OptionalMember(output, "resolution")) {
    std::int64_t height = 0;
    if (!reader.Int(*value, JsonReader::Child(path, "resolution"), 0, 100000, height)) return false;
    resolution = static_cast<int>(height);
  }
  if (const nlohmann::json* value = JsonReader::OptionalMember(output, "fps")) {
    double rate = 0;
    if (!reader.Number(*value, JsonReader::Child(path, "fps"), 0, 1000, rate)) return false;
    fps = rate;
  }
  return true;
}

const nlohmann::json* ReadPayloadOutput(JsonReader& reader, const nlohmann::json& job,
                                        const std::string& path, std::optional<int>& resolution,
                                        std::optional<double>& fps) {
  const std::string payload_path = JsonReader::Child(path, "payload");
  const nlohmann::json* payload = reader.Member(job, path, "payload");
  if (!payload || !reader.Object(*payload, payload_path)) return nullptr;
  if (const nlohmann::json* output = JsonReader::OptionalMember(*payload, "output");
      output &&
      !ReadJobOutput(reader, *output, JsonReader::Child(payload_path, "output"), resolution, fps))
    return nullptr;
  return payload;
}

bool ReadPage(JsonReader& reader, const nlohmann::json& document, std::int64_t& total,
              const std::function<bool(const nlohmann::json&, const std::string&)>& element) {
  if (!reader.Object(document, "(answer)")) return false;
  const nlohmann::json* count = reader.Member(document, "", "total");
  // PeerTube counts rows of one table. A billion is far past any real queue.
  if (!count || !reader.Int(*count, "total", 0, 1'000'000'000, total)) return false;
  const nlohmann::json* data = reader.Member(document, "", "data");
  if (!data || !reader.Array(*data, "data")) return false;
  for (std::size_t i = 0; i < data->size(); ++i) {
    if (!element((*data)[i], JsonReader::Element("data", i))) return false;
  }
  return true;
}

}  // namespace mc::peertube
