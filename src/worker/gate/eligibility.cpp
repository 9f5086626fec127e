#include "worker/gate/eligibility.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/text.h"
#include "common/peertube/runner_paths.h"

namespace mc::worker {
namespace {

// A resolution or frame rate beyond any PeerTube offers is a typing error, not a limit.
constexpr int kLargestResolution = 100000;
constexpr double kLargestFps = 1000;

Result<void> AddType(Eligibility& eligibility, std::string_view type, const std::string& place) {
  if (!peertube::FindRunnerJobType(type)) {
    std::string known;
    for (const peertube::RunnerJobType& each : peertube::kRunnerJobTypes)
      known += (known.empty() ? "" : ", ") + std::string(each.name);
    return InvalidInput(place + ": \"" + Excerpt(type, 60) + "\" is not a runner job type (" +
                        known + ")");
  }
  eligibility.job_types.insert(std::string(type));
  return Ok();
}

Result<void> AddJob(Eligibility& eligibility, std::string_view uuid, const std::string& place) {
  if (!peertube::IsUuid(uuid))
    return InvalidInput(place + ": \"" + Excerpt(uuid, 60) + "\" is not a runner job's UUID");
  if (eligibility.jobs->size() >= kLargestJobList)
    return InvalidInput(place + ": more than " + std::to_string(kLargestJobList) + " jobs");
  eligibility.jobs->insert(std::string(uuid));
  return Ok();
}

// AddEach gives each comma-separated item of `list` to `add`. It stops at the first error.
template <typename Add>
Result<void> AddEach(std::string_view list, Add add) {
  while (!list.empty()) {
    const std::size_t comma = list.find(',');
    if (Result<void> added = add(list.substr(0, comma)); !added) return added;
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
  }
  return Ok();
}

Result<int> ParseResolution(std::string_view text, const std::string& place) {
  const std::optional<int> value = ParseInteger<int>(text);
  if (!value || *value < 1 || *value > kLargestResolution)
    return InvalidInput(place + ": \"" + Excerpt(text, 20) +
                        "\" is not a resolution (a whole number of lines, such as 1080)");
  return *value;
}

Result<double> ParseFps(std::string_view text, const std::string& place) {
  const std::optional<double> value = ParseDouble(text);
  if (!value || !std::isfinite(*value) || *value <= 0 || *value > kLargestFps)
    return InvalidInput(place + ": \"" + Excerpt(text, 20) +
                        "\" is not a frame rate (such as 60 or 29.97)");
  return *value;
}

}  // namespace

Result<Eligibility> ParseEligibility(std::string_view text) {
  Eligibility eligibility;
  std::size_t index = 0;
  while (!text.empty()) {
    const std::size_t end = text.find(';');
    const std::string_view part = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++index;
    if (part.empty()) continue;
    const std::size_t equals = part.find('=');
    const std::string_view key = part.substr(0, equals);
    const std::string place =
        "eligibility part " + std::to_string(index) + " (" + Excerpt(key, 40) + ")";
    if (equals == std::string_view::npos) return InvalidInput(place + ": not KEY=VALUE");
    const std::string_view value = part.substr(equals + 1);
    if (key == "types") {
      if (Result<void> added = AddEach(
              value, [&](std::string_view type) { return AddType(eligibility, type, place); });
          !added)
        return added.error();
    } else if (key == "max-resolution") {
      Result<int> resolution = ParseResolution(value, place);
      if (!resolution) return resolution.error();
      eligibility.max_resolution = *resolution;
    } else if (key == "max-fps") {
      Result<double> fps = ParseFps(value, place);
      if (!fps) return fps.error();
      eligibility.max_fps = *fps;
    } else if (key == "jobs") {
      eligibility.jobs.emplace();
      if (Result<void> added = AddEach(
              value, [&](std::string_view uuid) { return AddJob(eligibility, uuid, place); });
          !added)
        return added.error();
    } else {
      return InvalidInput(place + ": unknown key (types, max-resolution, max-fps, jobs)");
    }
  }
  return eligibility;
}

Result<Eligibility> ParseEligibilityJson(std::string_view json) {
  Result<nlohmann::json> parsed = ParseJson(json);
  if (!parsed) return parsed.error().WithContext("eligibility");
  const nlohmann::json& document = *parsed;
  JsonReader reader;
  Eligibility eligibility;
  if (!reader.Object(document, "eligibility")) return reader.error();
  for (const auto& [name, value] : document.items()) {
    const std::string place = JsonReader::Child("eligibility", name.c_str());
    if (name == "types") {
      std::vector<std::string> types;
      if (!reader.StringList(value, place, types)) return reader.error();
      for (std::size_t i = 0; i < types.size(); ++i) {
        if (Result<void> added = AddType(eligibility, types[i], JsonReader::Element(place, i));
            !added)
          return added.error();
      }
    } else if (name == "max_resolution") {
      std::int64_t resolution = 0;
      if (!reader.Int(value, place, 1, kLargestResolution, resolution)) return reader.error();
      eligibility.max_resolution = static_cast<int>(resolution);
    } else if (name == "max_fps") {
      if (!value.is_number() || !(value.get<double>() > 0 && value.get<double>() <= kLargestFps))
        return InvalidInput(place + ": expected a frame rate above 0 and at most 1000");
      eligibility.max_fps = value.get<double>();
    } else if (name == "jobs") {
      std::vector<std::string> jobs;
      if (!reader.StringList(value, place, jobs)) return reader.error();
      eligibility.jobs.emplace();
      for (std::size_t i = 0; i < jobs.size(); ++i) {
        if (Result<void> added = AddJob(eligibility, jobs[i], JsonReader::Element(place, i));
            !added)
          return added.error();
      }
    } else {
      return InvalidInput(place + ": unknown member (types, max_resolution, max_fps, jobs)");
    }
  }
  return eligibility;
}

std::string EligibilityText(const Eligibility& eligibility) {
  const auto list = [](const std::set<std::string>& items) {
    return Joined(std::vector<std::string>(items.begin(), items.end()), ",");
  };
  std::vector<std::string> parts;
  if (!eligibility.job_types.empty()) parts.push_back("types=" + list(eligibility.job_types));
  if (eligibility.max_resolution)
    parts.push_back("max-resolution=" + std::to_string(*eligibility.max_resolution));
  if (eligibility.max_fps) {
    std::ostringstream fps;
    fps << *eligibility.max_fps;
    parts.push_back("max-fps=" + fps.str());
  }
  if (eligibility.jobs) parts.push_back("jobs=" + list(*eligibility.jobs));
  return Joined(parts, ";");
}

std::string EligibilityWords(const Eligibility& eligibility) {
  Eligibility bounds = eligibility;
  bounds.jobs.reset();
  std::string words = EligibilityText(bounds);
  if (eligibility.jobs) {
    words += (words.empty() ? "" : ";") + std::string("jobs=") +
             std::to_string(eligibility.jobs->size()) + " listed by the pool manager";
  }
  return words;
}

bool MayAdmitMore(const Eligibility& before, const Eligibility& after) {
  if (before.job_types != after.job_types || before.max_resolution != after.max_resolution ||
      before.max_fps != after.max_fps || !before.jobs || !after.jobs)
    return true;
  return !std::includes(before.jobs->begin(), before.jobs->end(), after.jobs->begin(),
                        after.jobs->end());
}

bool Eligible(const peertube::AvailableJob& job, const Eligibility& eligibility) {
  const bool transcode = peertube::IsVodTranscoding(job.type);
  if (eligibility.job_types.empty() ? !transcode : !eligibility.job_types.contains(job.type))
    return false;
  // The limits are on a transcode's output; the other kinds state none.
  if (!transcode) return true;
  if (eligibility.max_resolution &&
      (!job.resolution || *job.resolution > *eligibility.max_resolution))
    return false;
  if (eligibility.max_fps && (!job.fps || *job.fps > *eligibility.max_fps)) return false;
  return !eligibility.jobs || eligibility.jobs->contains(job.uuid);
}

}  // namespace mc::worker
