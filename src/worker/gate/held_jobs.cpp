#include "worker/gate/held_jobs.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/read_file.h"

namespace mc::worker {
namespace {

using Json = nlohmann::json;

// More jobs than any runner holds at once. A longer list is not this worker's file.
constexpr std::size_t kMostHeldJobs = 1024;

std::string SystemError(const std::string& what, const std::string& path) {
  return "cannot " + what + " " + path + ": " + std::strerror(errno);
}

// WriteWhole writes `text` to a new file at `path`, mode 0600. It flushes it to the disk.
Result<void> WriteWhole(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Unavailable(SystemError("make", path));
  std::string_view left = text;
  while (!left.empty()) {
    const ssize_t wrote = write(fd, left.data(), left.size());
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      const Error error = Unavailable(SystemError("write", path));
      close(fd);
      return error;
    }
    left.remove_prefix(static_cast<std::size_t>(wrote));
  }
  const bool synced = fsync(fd) == 0;
  const Error error = Unavailable(SystemError("write", path));
  close(fd);
  if (!synced) return error;
  return Ok();
}

// A UUID names a job in the abort's URL path. Nothing but its own characters may pass.
bool IsJobUuid(std::string_view uuid) {
  if (uuid.empty() || uuid.size() > 64) return false;
  return std::all_of(uuid.begin(), uuid.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == '-';
  });
}

}  // namespace

std::string HeldJobsPath(const std::string& state_dir) {
  return (std::filesystem::path(state_dir) / "held-jobs.json").string();
}

std::string HeldJobsJson(const std::vector<HeldJob>& jobs) {
  Json list = Json::array();
  for (const HeldJob& job : jobs) list.push_back({{"uuid", job.uuid}, {"jobToken", job.job_token}});
  return JsonText(Json{{"jobs", list}}) + "\n";
}

Result<std::vector<HeldJob>> ParseHeldJobs(std::string_view text) {
  Result<Json> document = ParseJson(text);
  if (!document) return document.error();
  JsonReader reader;
  std::vector<HeldJob> jobs;
  const Json* list =
      reader.Object(*document, "(file)") ? reader.Member(*document, "", "jobs") : nullptr;
  if (list && reader.Array(*list, "jobs")) {
    if (list->size() > kMostHeldJobs)
      return InvalidInput("jobs: more than " + std::to_string(kMostHeldJobs) + " jobs");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string path = JsonReader::Element("jobs", i);
      HeldJob job;
      if (!reader.Object((*list)[i], path) ||
          !reader.StringMember((*list)[i], path, "uuid", job.uuid) ||
          !reader.StringMember((*list)[i], path, "jobToken", job.job_token))
        break;
      if (!IsJobUuid(job.uuid) || job.job_token.empty()) {
        reader.Fail(path, "expected a job's UUID (hexadecimal digits and dashes) and a jobToken");
        break;
      }
      jobs.push_back(std::move(job));
    }
  }
  if (!reader.error_message().empty()) return reader.error();
  return jobs;
}

Result<std::vector<HeldJob>> ReadHeldJobs(const std::string& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return std::vector<HeldJob>{};
  Result<std::string> text = ReadFileText(path);
  if (!text) return Unavailable(text.error_message());
  Result<std::vector<HeldJob>> jobs = ParseHeldJobs(*text);
  if (!jobs) return jobs.error().WithContext(path);
  return jobs;
}

Result<void> WriteHeldJobs(const std::string& path, const std::vector<HeldJob>& jobs) {
  const std::string fresh = path + ".new";
  if (Result<void> written = WriteWhole(fresh, HeldJobsJson(jobs)); !written) return written;
  if (std::rename(fresh.c_str(), path.c_str()) != 0)
    return Unavailable(SystemError("replace", path));
  return Ok();
}

}  // namespace mc::worker
