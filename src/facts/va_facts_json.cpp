#include "facts/va_facts_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>

#include "base/utf8.h"

namespace mc {
namespace {

using nlohmann::json;

// Reader walks a parsed document and keeps the path of the member it is at, so that
// every error names its place.
class Reader {
 public:
  std::string error;

  bool Fail(const std::string& path, const std::string& what) {
    if (error.empty()) error = path + ": " + what;
    return false;
  }

  bool Int(const json& value, const std::string& path, std::int64_t low, std::int64_t high,
           std::int64_t& out) {
    if (!value.is_number_integer()) return Fail(path, "expected an integer");
    const std::int64_t number = value.is_number_unsigned()
                                    ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                                          value.get<std::uint64_t>(),
                                          std::numeric_limits<std::int64_t>::max()))
                                    : value.get<std::int64_t>();
    if (number < low || number > high) {
      return Fail(path, "value " + std::to_string(number) + " is out of range");
    }
    out = number;
    return true;
  }

  bool String(const json& value, const std::string& path, std::string& out) {
    if (!value.is_string()) return Fail(path, "expected a string");
    out = value.get<std::string>();
    return true;
  }

  const json* Member(const json& object, const std::string& path, const char* name) {
    auto it = object.find(name);
    if (it == object.end()) {
      Fail(path.empty() ? name : path + "." + name, "missing");
      return nullptr;
    }
    return &*it;
  }

  bool StringList(const json& value, const std::string& path, std::vector<std::string>& out) {
    if (!value.is_array()) return Fail(path, "expected an array");
    for (std::size_t i = 0; i < value.size(); ++i) {
      std::string item;
      if (!String(value[i], path + "[" + std::to_string(i) + "]", item)) return false;
      out.push_back(std::move(item));
    }
    return true;
  }
};

}  // namespace

std::string VaFactsToJson(const VaFacts& facts) {
  json configs = json::array();
  for (const VaConfig& config : facts.configs) {
    configs.push_back({{"profile", config.profile},
                       {"entrypoint", config.entrypoint},
                       {"rtFormats", config.rt_formats}});
  }
  const json document = {
      {"vendor", ValidUtf8(facts.vendor)},
      {"configs", std::move(configs)},
      {"videoProcFormats", facts.video_proc_formats},
      {"warnings", facts.warnings},
  };
  // Driver text is not always UTF-8; replacing what is not keeps the report well formed.
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

Result<VaFacts> ParseVaFacts(std::string_view text) {
  json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return Error{"the report is not JSON"};
  if (!document.is_object()) return Error{"the report is not a JSON object"};

  Reader reader;
  VaFacts facts;
  auto fail = [&]() -> Result<VaFacts> { return Error{reader.error}; };

  const json* vendor = reader.Member(document, "", "vendor");
  if (!vendor || !reader.String(*vendor, "vendor", facts.vendor)) return fail();

  const json* configs = reader.Member(document, "", "configs");
  if (!configs) return fail();
  if (!configs->is_array()) {
    reader.Fail("configs", "expected an array");
    return fail();
  }
  for (std::size_t i = 0; i < configs->size(); ++i) {
    const std::string path = "configs[" + std::to_string(i) + "]";
    const json& item = (*configs)[i];
    if (!item.is_object()) {
      reader.Fail(path, "expected an object");
      return fail();
    }
    std::int64_t profile = 0, entrypoint = 0, rt_formats = 0;
    const json* p = reader.Member(item, path, "profile");
    if (!p || !reader.Int(*p, path + ".profile", std::numeric_limits<std::int32_t>::min(),
                          std::numeric_limits<std::int32_t>::max(), profile)) {
      return fail();
    }
    const json* e = reader.Member(item, path, "entrypoint");
    if (!e || !reader.Int(*e, path + ".entrypoint", std::numeric_limits<std::int32_t>::min(),
                          std::numeric_limits<std::int32_t>::max(), entrypoint)) {
      return fail();
    }
    const json* r = reader.Member(item, path, "rtFormats");
    if (!r || !reader.Int(*r, path + ".rtFormats", 0, std::numeric_limits<std::uint32_t>::max(),
                          rt_formats)) {
      return fail();
    }
    facts.configs.push_back({static_cast<std::int32_t>(profile),
                             static_cast<std::int32_t>(entrypoint),
                             static_cast<std::uint32_t>(rt_formats)});
  }

  const json* formats = reader.Member(document, "", "videoProcFormats");
  if (!formats || !reader.StringList(*formats, "videoProcFormats", facts.video_proc_formats)) {
    return fail();
  }
  // Warnings are optional so that a report from an older child still reads.
  if (auto it = document.find("warnings"); it != document.end()) {
    if (!reader.StringList(*it, "warnings", facts.warnings)) return fail();
  }
  return facts;
}

}  // namespace mc
