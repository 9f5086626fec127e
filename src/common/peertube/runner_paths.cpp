#include "common/peertube/runner_paths.h"

#include <array>
#include <cctype>
#include <utility>

namespace mc::peertube {
namespace {

constexpr std::string_view kJobsPrefix = "/api/v1/runners/jobs/";

// The calls about one job, by the path segment after the job's UUID.
constexpr std::array<std::pair<std::string_view, RunnerCall>, 5> kJobCalls{{
    {"accept", RunnerCall::kAccept},
    {"update", RunnerCall::kUpdate},
    {"success", RunnerCall::kSuccess},
    {"error", RunnerCall::kError},
    {"abort", RunnerCall::kAbort},
}};

}  // namespace

bool IsUuid(std::string_view text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : !std::isxdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

ClassifiedRequest ClassifyRunnerRequest(std::string_view method, std::string_view path) {
  // Every runner API call is a POST, downloads included.
  if (method != "POST") return {};
  if (path == "/api/v1/runners/register") return {.call = RunnerCall::kRegister};
  if (path == "/api/v1/runners/jobs/request") return {.call = RunnerCall::kJobsRequest};
  if (path.substr(0, kJobsPrefix.size()) != kJobsPrefix) return {};
  const std::string_view rest = path.substr(kJobsPrefix.size());
  const std::string_view uuid = rest.substr(0, rest.find('/'));
  if (!IsUuid(uuid) || rest.size() == uuid.size()) return {};
  const std::string_view tail = rest.substr(uuid.size() + 1);
  for (const auto& [name, call] : kJobCalls) {
    if (tail == name) return {.call = call, .job_uuid = std::string(uuid)};
  }
  if (tail.substr(0, 6) == "files/" && tail.size() > 6)
    return {.call = RunnerCall::kFileDownload, .job_uuid = std::string(uuid)};
  return {};
}

std::string_view RunnerCallName(RunnerCall call) {
  switch (call) {
    case RunnerCall::kJobsRequest:
      return "jobs-request";
    case RunnerCall::kAccept:
      return "accept";
    case RunnerCall::kUpdate:
      return "update";
    case RunnerCall::kSuccess:
      return "success";
    case RunnerCall::kError:
      return "error";
    case RunnerCall::kAbort:
      return "abort";
    case RunnerCall::kFileDownload:
      return "file-download";
    case RunnerCall::kRegister:
      return "register";
    case RunnerCall::kOther:
      return "other";
  }
  return "other";
}

}  // namespace mc::peertube
