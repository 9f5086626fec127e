#include "common/peertube/runner_job_list.h"

#include <algorithm>

#include "common/http/client.h"
#include "common/peertube/admin_json.h"
#include "common/peertube/runner_paths.h"

namespace mc::peertube {
namespace {

using Json = nlohmann::json;

bool ReadUuid(JsonReader& reader, const Json& value, const std::string& path, std::string& out) {
  if (!reader.String(value, path, out)) return false;
  return IsUuid(out) || reader.Fail(path, "not a UUID");
}

// The video's UUID as the input file's URL names it: ".../files/videos/{uuid}/...".
std::string VideoUuidOfInputUrl(const Json& payload) {
  const Json* input = JsonReader::OptionalMember(payload, "input");
  const Json* url = input ? JsonReader::OptionalMember(*input, "videoFileUrl") : nullptr;
  if (!url || !url->is_string()) return "";
  const std::string& text = url->get_ref<const std::string&>();
  constexpr std::string_view kMarker = "/files/videos/";
  const std::size_t at = text.find(kMarker);
  if (at == std::string::npos) return "";
  const std::string uuid = text.substr(at + kMarker.size(), 36);
  return IsUuid(uuid) ? uuid : "";
}

bool ReadJob(JsonReader& reader, const Json& value, const std::string& path, PendingJob& job) {
  if (!ReadJobHead(reader, value, path, job.uuid, job.type)) return false;

  const std::string state_path = JsonReader::Child(path, "state");
  const Json* state = reader.Member(value, path, "state");
  if (!state || !reader.Object(*state, state_path)) return false;
  const Json* id = reader.Member(*state, state_path, "id");
  std::int64_t state_id = 0;
  if (!id || !reader.Int(*id, JsonReader::Child(state_path, "id"), 1, 1000, state_id)) return false;
  job.state = static_cast<int>(state_id);

  const Json* created = reader.Member(value, path, "createdAt");
  if (!created ||
      !ReadTime(reader, *created, JsonReader::Child(path, "createdAt"), job.created_at_s))
    return false;
  if (const Json* priority = JsonReader::OptionalMember(value, "priority")) {
    std::int64_t number = 0;
    if (!reader.Int(*priority, JsonReader::Child(path, "priority"), 0, 1000000, number))
      return false;
    job.priority = static_cast<int>(number);
  }
  job.waiting_since_s = job.created_at_s;
  if (const Json* updated = JsonReader::OptionalMember(value, "updatedAt")) {
    double updated_s = 0;
    if (!ReadTime(reader, *updated, JsonReader::Child(path, "updatedAt"), updated_s)) return false;
    job.waiting_since_s = std::max(job.created_at_s, updated_s);
  }

  const Json* payload = ReadPayloadOutput(reader, value, path, job.resolution, job.fps);
  if (!payload) return false;

  // privatePayload is the admin list's own member. It may be null for jobs that keep nothing
  // private. A job type to come may keep no video in it.
  if (const Json* secret = JsonReader::OptionalMember(value, "privatePayload");
      secret && !secret->is_null()) {
    const std::string secret_path = JsonReader::Child(path, "privatePayload");
    if (!reader.Object(*secret, secret_path)) return false;
    if (const Json* video = JsonReader::OptionalMember(*secret, "videoUUID");
        video &&
        !ReadUuid(reader, *video, JsonReader::Child(secret_path, "videoUUID"), job.video_uuid))
      return false;
  }
  if (job.video_uuid.empty()) job.video_uuid = VideoUuidOfInputUrl(*payload);
  return true;
}

}  // namespace

Result<RunnerJobPage> ParseRunnerJobList(std::string_view json) {
  Result<Json> document = ParseAnswer(json, "the runner jobs");
  if (!document) return document.error();
  JsonReader reader;
  RunnerJobPage page;
  ReadPage(reader, *document, page.total, [&](const Json& value, const std::string& path) {
    PendingJob job;
    if (!ReadJob(reader, value, path, job)) return false;
    page.jobs.push_back(std::move(job));
    return true;
  });
  if (!reader.error_message().empty())
    return InvalidInput("the runner jobs: " + reader.error_message());
  return page;
}

std::string PendingJobsTarget(const std::vector<std::string>& types, std::int64_t start,
                              int count) {
  std::vector<std::pair<std::string, std::string>> query{
      {"stateOneOf", std::to_string(kJobPending)}};
  for (const std::string& type : types) query.emplace_back("typeOneOf", type);
  query.emplace_back("start", std::to_string(start));
  query.emplace_back("count", std::to_string(count));
  query.emplace_back("sort", "createdAt");
  return "/api/v1/runners/jobs?" + http::FormEncode(query);
}

}  // namespace mc::peertube
