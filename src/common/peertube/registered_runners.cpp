#include "common/peertube/registered_runners.h"

#include "common/peertube/admin_json.h"

namespace mc::peertube {

Result<RegisteredRunnerPage> ParseRunnerList(std::string_view json) {
  Result<nlohmann::json> document = ParseAnswer(json, "the runners");
  if (!document) return document.error();
  JsonReader reader;
  RegisteredRunnerPage page;
  ReadPage(reader, *document, page.total,
           [&](const nlohmann::json& value, const std::string& path) {
             if (!reader.Object(value, path)) return false;
             RegisteredRunner runner;
             std::int64_t id = 0;
             const nlohmann::json* member = reader.Member(value, path, "id");
             if (!member || !reader.Int(*member, JsonReader::Child(path, "id"), 1, INT32_MAX, id))
               return false;
             runner.id = static_cast<int>(id);
             member = reader.Member(value, path, "name");
             if (!member || !reader.String(*member, JsonReader::Child(path, "name"), runner.name))
               return false;
             member = reader.Member(value, path, "lastContact");
             if (!member || !ReadTime(reader, *member, JsonReader::Child(path, "lastContact"),
                                      runner.last_contact_s))
               return false;
             page.runners.push_back(std::move(runner));
             return true;
           });
  if (!reader.error_message().empty())
    return InvalidInput("the runners: " + reader.error_message());
  return page;
}

}  // namespace mc::peertube
