#include "probe/facts/va_facts_json.h"

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/utf8.h"

namespace mc::probe {

using nlohmann::json;

std::string VaFactsToJson(const VaFacts& facts) {
  json configs = json::array();
  for (const VaConfig& config : facts.configs) {
    json entry = {{"profile", config.profile},
                  {"entrypoint", config.entrypoint},
                  {"rtFormats", config.rt_formats}};
    // The sizes are written only where the driver stated them. So reports of drivers that state
    // none read as before.
    if (config.max_width != 0) entry["maxWidth"] = config.max_width;
    if (config.max_height != 0) entry["maxHeight"] = config.max_height;
    configs.push_back(std::move(entry));
  }
  const json document = {
      {"vendor", ValidUtf8(facts.vendor)},
      {"configs", std::move(configs)},
      {"videoProcFormats", facts.video_proc_formats},
      {"warnings", facts.warnings},
  };
  // Driver text is not always UTF-8. Replacing what is not keeps the report well formed.
  return JsonText(document, 2) + "\n";
}

Result<VaFacts> ParseVaFacts(std::string_view text) {
  json document = ParseJsonOrDiscarded(text);
  if (document.is_discarded()) return InvalidInput("the report is not JSON");
  if (!document.is_object()) return InvalidInput("the report is not a JSON object");

  JsonReader reader;
  VaFacts facts;
  auto fail = [&]() -> Result<VaFacts> { return reader.error(); };
  constexpr std::int64_t kInt32Min = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t kInt32Max = std::numeric_limits<std::int32_t>::max();

  const json* vendor = reader.Member(document, "", "vendor");
  if (!vendor || !reader.String(*vendor, "vendor", facts.vendor)) return fail();

  const json* configs = reader.Member(document, "", "configs");
  if (!configs || !reader.Array(*configs, "configs")) return fail();
  for (std::size_t i = 0; i < configs->size(); ++i) {
    const std::string path = JsonReader::Element("configs", i);
    const json& item = (*configs)[i];
    if (!reader.Object(item, path)) return fail();
    std::int64_t profile = 0, entrypoint = 0, rt_formats = 0;
    const json* p = reader.Member(item, path, "profile");
    if (!p || !reader.Int(*p, JsonReader::Child(path, "profile"), kInt32Min, kInt32Max, profile))
      return fail();
    const json* e = reader.Member(item, path, "entrypoint");
    if (!e ||
        !reader.Int(*e, JsonReader::Child(path, "entrypoint"), kInt32Min, kInt32Max, entrypoint)) {
      return fail();
    }
    const json* r = reader.Member(item, path, "rtFormats");
    if (!r || !reader.Int(*r, JsonReader::Child(path, "rtFormats"), 0,
                          std::numeric_limits<std::uint32_t>::max(), rt_formats)) {
      return fail();
    }
    std::int64_t sizes[2] = {0, 0};
    const char* size_names[2] = {"maxWidth", "maxHeight"};
    for (int k = 0; k < 2; ++k) {
      const json* size = JsonReader::OptionalMember(item, size_names[k]);
      if (size && !reader.Int(*size, JsonReader::Child(path, size_names[k]), 0,
                              std::numeric_limits<std::uint32_t>::max(), sizes[k])) {
        return fail();
      }
    }
    facts.configs.push_back(
        {static_cast<std::int32_t>(profile), static_cast<std::int32_t>(entrypoint),
         static_cast<std::uint32_t>(rt_formats), static_cast<std::uint32_t>(sizes[0]),
         static_cast<std::uint32_t>(sizes[1])});
  }

  const json* formats = reader.Member(document, "", "videoProcFormats");
  if (!formats || !reader.StringList(*formats, "videoProcFormats", facts.video_proc_formats)) {
    return fail();
  }
  // Warnings are optional, so an older child's report still reads.
  if (const json* warnings = JsonReader::OptionalMember(document, "warnings")) {
    if (!reader.StringList(*warnings, "warnings", facts.warnings)) return fail();
  }
  return facts;
}

}  // namespace mc::probe
