#include "pool/kube_api/scale_json.h"

#include <limits>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"

namespace mc::pool {

Result<Scale> ParseScale(std::string_view body) {
  const auto fail = [](const std::string& what) { return InvalidInput("scale: " + what); };
  const nlohmann::json root = ParseJsonOrDiscarded(body);
  if (root.is_discarded()) return fail("not valid JSON");
  JsonReader reader;
  if (!reader.Object(root, "scale")) return fail(reader.error_message());
  Scale scale;
  const nlohmann::json* metadata = reader.Member(root, "", "metadata");
  if (!metadata || !reader.Object(*metadata, "metadata")) return fail(reader.error_message());
  const nlohmann::json* version = reader.Member(*metadata, "metadata", "resourceVersion");
  if (!version || !reader.String(*version, "metadata.resourceVersion", scale.resource_version))
    return fail(reader.error_message());
  if (const nlohmann::json* spec = JsonReader::OptionalMember(root, "spec")) {
    if (!reader.Object(*spec, "spec")) return fail(reader.error_message());
    if (const nlohmann::json* replicas = JsonReader::OptionalMember(*spec, "replicas")) {
      std::int64_t value = 0;
      if (!reader.Int(*replicas, "spec.replicas", 0, std::numeric_limits<std::int32_t>::max(),
                      value))
        return fail(reader.error_message());
      scale.replicas = static_cast<int>(value);
    }
  }
  return scale;
}

std::string ScaleUpdate(const std::string& ns, const std::string& name, int replicas,
                        const std::string& resource_version) {
  const nlohmann::json body = {
      {"apiVersion", "autoscaling/v1"},
      {"kind", "Scale"},
      {"metadata", {{"name", name}, {"namespace", ns}, {"resourceVersion", resource_version}}},
      {"spec", {{"replicas", replicas}}},
  };
  return JsonText(body);
}

std::string ScalePatch(int replicas) {
  return JsonText(nlohmann::json{{"spec", {{"replicas", replicas}}}});
}

}  // namespace mc::pool
