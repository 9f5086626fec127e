#include "common/peertube/peertube_versions.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/text.h"

namespace mc::peertube {
namespace {

// The largest part taken. A version with a larger one is not PeerTube's.
constexpr int kLargestPart = 999;

bool Within(const Version& version, std::string_view from, std::string_view to) {
  const Result<Version> low = ParseVersion(from.empty() ? "0.0.0" : from);
  const Result<Version> high = ParseVersion(to.empty() ? "999.999.999" : to);
  return low && high && version.Key() >= low->Key() && version.Key() <= high->Key();
}

}  // namespace

Result<Version> ParseVersion(std::string_view text) {
  std::string_view rest = text;
  if (rest.starts_with('v')) rest.remove_prefix(1);
  const std::size_t end = rest.find_first_of("-+");
  const std::string_view numbers = rest.substr(0, end);
  Version version{.text = std::string(text)};
  int* parts[] = {&version.major, &version.minor, &version.patch};
  std::string_view left = numbers;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t dot = left.find('.');
    if ((i < 2) != (dot != std::string_view::npos))
      return InvalidInput("\"" + Excerpt(text, 40) + "\" is not a version (MAJOR.MINOR.PATCH)");
    const std::optional<int> part = ParseInteger<int>(left.substr(0, dot));
    if (!part || *part < 0 || *part > kLargestPart)
      return InvalidInput("\"" + Excerpt(text, 40) + "\" is not a version (MAJOR.MINOR.PATCH)");
    *parts[i] = *part;
    left = dot == std::string_view::npos ? std::string_view() : left.substr(dot + 1);
  }
  return version;
}

Result<Version> ParseServerVersion(std::string_view config_json) {
  const nlohmann::json config = ParseJsonOrDiscarded(config_json);
  JsonReader reader;
  const nlohmann::json* member = nullptr;
  std::string text;
  if (config.is_discarded() || !reader.Object(config, "") ||
      !(member = reader.Member(config, "", "serverVersion")) ||
      !reader.String(*member, "serverVersion", text))
    return InvalidInput("PeerTube's config: " + (reader.error_message().empty()
                                                     ? std::string("not JSON")
                                                     : reader.error_message()));
  Result<Version> version = ParseVersion(text);
  if (!version) return InvalidInput("PeerTube's config: serverVersion: " + version.error_message());
  return version;
}

Result<Version> ParseRunnerVersion(std::string_view output) {
  const std::string line(Trim(output.substr(0, output.find('\n'))));
  Result<Version> version = ParseVersion(line);
  if (!version) return InvalidInput("the runner's --version: " + version.error_message());
  return version;
}

std::string_view SupportName(Support support) {
  switch (support) {
    case Support::kTested:
      return "tested";
    case Support::kByContract:
      return "by-contract";
    case Support::kUnknown:
      return "unknown";
    case Support::kBreaks:
      return "breaks";
  }
  return "unknown";
}

SupportVerdict JudgeVersions(const std::optional<Version>& server,
                             const std::optional<Version>& runner) {
  for (const VersionRule& rule : kVersionRules) {
    const bool server_any = rule.server_from.empty() && rule.server_to.empty();
    const bool runner_any = rule.runner_from.empty() && rule.runner_to.empty();
    if (!server_any && (!server || !Within(*server, rule.server_from, rule.server_to))) continue;
    if (!runner_any && (!runner || !Within(*runner, rule.runner_from, rule.runner_to))) continue;
    return {rule.support, std::string(rule.advice)};
  }
  if (!server || !runner) {
    return {Support::kUnknown, std::string("the ") + (!server ? "server's" : "runner's") +
                                   " version could not be read"};
  }
  return {Support::kUnknown,
          "neither tested nor checked by contract: run worker self-test and one upload before "
          "relying on it"};
}

}  // namespace mc::peertube
