#include "dra/agent/eviction_guard.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <system_error>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/read_file.h"

namespace mc::dra {
namespace {

constexpr int kMostEvictions = static_cast<int>(std::size(kEvictionWaits));
// The record's format.
// With it a later agent tells an older file from a malformed one.
constexpr std::int64_t kRecordVersion = 1;
// Far beyond any real time: the year 2106.
// Yet within what the system clock holds.
// It counts nanoseconds in 64 bits, up to the year 2262.
// A later second would overflow on conversion.
constexpr std::int64_t kLatestUnixSeconds = std::int64_t{1} << 32;

std::int64_t UnixSeconds(WallClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

}  // namespace

EvictionDecision DecideSelfEviction(const std::vector<std::string>& missing,
                                    const EvictionRecords& records, WallClock::time_point now) {
  EvictionDecision decision;
  for (const std::string& node : missing) {
    const auto found = records.find(node);
    const EvictionRecord record = found == records.end() ? EvictionRecord{} : found->second;
    if (record.evictions >= kMostEvictions) {
      decision.given_up.push_back(node);
      continue;
    }
    const WallClock::time_point due = record.last + kEvictionWaits[record.evictions];
    if (record.evictions == 0 || due <= now) {
      decision.evict_for.push_back(node);
    } else if (decision.next_due == WallClock::time_point{} || due < decision.next_due) {
      decision.next_due = due;
    }
  }
  return decision;
}

EvictionRecords AfterEviction(const EvictionRecords& records,
                              const std::vector<std::string>& missing,
                              const std::vector<std::string>& nodes, WallClock::time_point now) {
  EvictionRecords next;
  for (const std::string& node : missing) {
    if (const auto found = records.find(node); found != records.end()) next[node] = found->second;
  }
  for (const std::string& node : nodes) {
    EvictionRecord& record = next[node];
    ++record.evictions;
    record.last = now;
  }
  return next;
}

std::string EvictionRecordsJson(const EvictionRecords& records) {
  nlohmann::json nodes = nlohmann::json::object();
  for (const auto& [name, record] : records)
    nodes[name] = {{"evictions", record.evictions}, {"last_unix_s", UnixSeconds(record.last)}};
  return JsonText(nlohmann::json{{"version", kRecordVersion}, {"render_nodes", nodes}}, 2) + "\n";
}

Result<EvictionRecords> ParseEvictionRecords(const std::string& text) {
  const nlohmann::json document = ParseJsonOrDiscarded(text);
  if (document.is_discarded()) return InvalidInput("not JSON");
  JsonReader reader;
  // One integer member of `object`, read with its range checked.
  auto read_int = [&reader](const nlohmann::json& object, const std::string& path, const char* name,
                            std::int64_t low, std::int64_t high, std::int64_t& out) {
    const nlohmann::json* member = reader.Member(object, path, name);
    return member && reader.Int(*member, JsonReader::Child(path, name), low, high, out);
  };
  std::int64_t version = 0;
  if (!reader.Object(document, "") ||
      !read_int(document, "", "version", kRecordVersion, kRecordVersion, version))
    return reader.error();
  const nlohmann::json* nodes = reader.Member(document, "", "render_nodes");
  if (!nodes || !reader.Object(*nodes, "render_nodes")) return reader.error();
  EvictionRecords records;
  for (const auto& [name, value] : nodes->items()) {
    const std::string path = JsonReader::Child("render_nodes", name.c_str());
    std::int64_t evictions = 0, last = 0;
    if (!reader.Object(value, path) ||
        !read_int(value, path, "evictions", 0, kMostEvictions, evictions) ||
        !read_int(value, path, "last_unix_s", 0, kLatestUnixSeconds, last))
      return reader.error();
    records[name] = {.evictions = static_cast<int>(evictions),
                     .last = WallClock::time_point(std::chrono::seconds(last))};
  }
  return records;
}

Result<EvictionRecords> LoadEvictionRecords(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::exists(file, error) && !error) return EvictionRecords{};
  Result<std::string> text = ReadFileText(file);
  if (!text) return text.error();
  Result<EvictionRecords> records = ParseEvictionRecords(*text);
  if (!records) return InvalidInput(file.string() + ": " + records.error_message());
  return records;
}

Result<void> SaveEvictionRecords(const std::filesystem::path& file,
                                 const EvictionRecords& records) {
  const std::filesystem::path temporary = file.string() + ".new";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << EvictionRecordsJson(records);
    out.flush();
    if (!out) return Internal(temporary.string() + ": could not be written");
  }
  std::error_code error;
  std::filesystem::rename(temporary, file, error);
  if (error) return Internal(file.string() + ": could not be replaced: " + error.message());
  return Ok();
}

}  // namespace mc::dra
