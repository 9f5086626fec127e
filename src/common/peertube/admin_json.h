// What the parsers of PeerTube's answers share:
// - the document, read without exceptions;
// - PeerTube's times;
// - its list pages: {"total": N, "data": [...]}.
//
// Each error names its place. Example: "data[3].createdAt: expected an ISO-8601 time".
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/json_reader.h"
#include "common/base/result.h"

namespace mc::peertube {

// ParseAnswer parses `text` as JSON. The error is "WHAT: not JSON".
Result<nlohmann::json> ParseAnswer(std::string_view text, std::string_view what);

// ReadTime reads a time into seconds since the epoch, as ParseIsoTime does.
bool ReadTime(JsonReader& reader, const nlohmann::json& value, const std::string& path,
              double& out);

// ReadJobHead reads how every runner job object starts, in both APIs. That is its uuid (a UUID) and
// its type (not empty).
bool ReadJobHead(JsonReader& reader, const nlohmann::json& job, const std::string& path,
                 std::string& uuid, std::string& type);

// ReadJobOutput reads a runner job's payload.output. It gives the resolution and fps stated, each
// optional. The runner API's jobs and the admin API's list share the shape.
bool ReadJobOutput(JsonReader& reader, const nlohmann::json& output, const std::string& path,
                   std::optional<int>& resolution, std::optional<double>& fps);

// ReadPayloadOutput reads a runner job's payload, an object. It reads its output's resolution and
// fps too. It gives the payload. nullptr where it is missing or malformed.
const nlohmann::json* ReadPayloadOutput(JsonReader& reader, const nlohmann::json& job,
                                        const std::string& path, std::optional<int>& resolution,
                                        std::optional<double>& fps);

// ReadPage reads a list page's `total`. It hands each element of `data`, with its path, to
// `element`. It stops at the first that returns false.
bool ReadPage(JsonReader& reader, const nlohmann::json& document, std::int64_t& total,
              const std::function<bool(const nlohmann::json&, const std::string&)>& element);

}  // namespace mc::peertube
