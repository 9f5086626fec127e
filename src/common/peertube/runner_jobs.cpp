#include "common/peertube/runner_jobs.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/http/url.h"
#include "common/peertube/admin_json.h"
#include "common/peertube/runner_paths.h"

namespace mc::peertube {
namespace {

using Json = nlohmann::json;
// Answers written back keep the server's member order.
using OrderedJson = nlohmann::ordered_json;

// Every answer is read with the depth bound, so writing one again cannot overflow the stack.
template <typename Document>
Result<Document> ParseDocument(std::string_view text) {
  return ParseJsonAs<Document>(text);
}

std::string Dump(const OrderedJson& document) { return JsonText(document); }

bool EndsWith(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

bool ReadInput(JsonReader& reader, const Json& input, const std::string& path, RunnerJob& job) {
  if (!reader.Object(input, path)) return false;
  for (const auto& [name, value] : input.items()) {
    if (!EndsWith(name, "Url")) continue;
    const std::string place = JsonReader::Child(path, name.c_str());
    if (value.is_string()) {
      job.input_urls.push_back(value.get<std::string>());
    } else if (!reader.StringList(value, place, job.input_urls)) {
      return reader.Fail(place, "expected a string or a list of strings");
    }
  }
  return true;
}

bool ReadJob(JsonReader& reader, const Json& value, const std::string& path, RunnerJob& job) {
  if (!ReadJobHead(reader, value, path, job.uuid, job.type)) return false;
  const Json* payload = ReadPayloadOutput(reader, value, path, job.resolution, job.fps);
  if (!payload) return false;
  if (const Json* input = JsonReader::OptionalMember(*payload, "input");
      input && !ReadInput(reader, *input,
                          JsonReader::Child(JsonReader::Child(path, "payload"), "input"), job))
    return false;
  return true;
}

}  // namespace

Result<std::vector<AvailableJob>> ParseAvailableJobs(std::string_view json) {
  Result<Json> document = ParseDocument<Json>(json);
  if (!document) return document.error().WithContext("the available jobs");
  JsonReader reader;
  std::vector<AvailableJob> jobs;
  const Json* list = reader.Object(*document, "(answer)")
                         ? reader.Member(*document, "", "availableJobs")
                         : nullptr;
  if (list && reader.Array(*list, "availableJobs")) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      AvailableJob job;
      if (!ReadJob(reader, (*list)[i], JsonReader::Element("availableJobs", i), job)) break;
      jobs.push_back(std::move(job));
    }
  }
  if (!reader.error_message().empty()) return reader.error();
  return jobs;
}

Result<std::string> FilterAvailableJobs(
    std::string_view json, const std::function<bool(std::size_t, const AvailableJob&)>& keep) {
  Result<std::vector<AvailableJob>> jobs = ParseAvailableJobs(json);
  if (!jobs) return jobs.error();
  Result<OrderedJson> document = ParseDocument<OrderedJson>(json);
  if (!document) return document.error();
  OrderedJson& list = (*document)["availableJobs"];
  OrderedJson kept = OrderedJson::array();
  for (std::size_t i = 0; i < jobs->size(); ++i) {
    if (keep(i, (*jobs)[i])) kept.push_back(std::move(list[i]));
  }
  list = std::move(kept);
  return Dump(*document);
}

std::string NoAvailableJobs(std::string_view json) {
  Result<OrderedJson> document = ParseDocument<OrderedJson>(json);
  if (!document || !document->is_object()) return R"({"availableJobs":[]})";
  (*document)["availableJobs"] = OrderedJson::array();
  return Dump(*document);
}

Result<AcceptedJob> ParseAcceptedJob(std::string_view json) {
  Result<Json> document = ParseDocument<Json>(json);
  if (!document) return document.error().WithContext("the accepted job");
  JsonReader reader;
  AcceptedJob job;
  const Json* value =
      reader.Object(*document, "(answer)") ? reader.Member(*document, "", "job") : nullptr;
  if (value && ReadJob(reader, *value, "job", job)) {
    if (const Json* member = reader.Member(*value, "job", "jobToken"))
      reader.String(*member, "job.jobToken", job.job_token);
  }
  if (!reader.error_message().empty()) return reader.error();
  return job;
}

std::string AbortJobJson(std::string_view runner_token, std::string_view job_token,
                         std::string_view reason) {
  return Dump(
      OrderedJson{{"runnerToken", runner_token}, {"jobToken", job_token}, {"reason", reason}});
}

Result<std::string> RewriteInputUrls(std::string_view json,
                                     const std::vector<std::string>& server_origins,
                                     std::string_view gate_origin) {
  if (Result<AcceptedJob> job = ParseAcceptedJob(json); !job) return job.error();
  Result<OrderedJson> document = ParseDocument<OrderedJson>(json);
  if (!document) return document.error();
  std::vector<std::string> origins;
  for (const std::string& origin : server_origins) {
    if (Result<http::Url> url = http::ParseUrl(origin)) origins.push_back(url->Origin());
  }
  auto rewrite = [&](OrderedJson& value) {
    if (!value.is_string()) return;
    Result<http::Url> url = http::ParseUrl(value.get<std::string>());
    if (!url) return;
    const std::string path = url->path_and_query.substr(0, url->path_and_query.find('?'));
    const bool server_origin =
        std::find(origins.begin(), origins.end(), url->Origin()) != origins.end();
    const bool job_file = ClassifyRunnerRequest("POST", path).call == RunnerCall::kFileDownload;
    if (server_origin || job_file) value = std::string(gate_origin) + url->path_and_query;
  };
  OrderedJson& payload = (*document)["job"]["payload"];
  if (!payload.contains("input") || !payload["input"].is_object()) return Dump(*document);
  for (auto& [name, value] : payload["input"].items()) {
    if (!EndsWith(name, "Url")) continue;
    if (value.is_array()) {
      for (OrderedJson& item : value) rewrite(item);
    } else {
      rewrite(value);
    }
  }
  return Dump(*document);
}

}  // namespace mc::peertube
