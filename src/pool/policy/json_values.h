// Reading members of JSON from elsewhere (a trace, a PeerTube job list) without trusting
// its shape: each reader answers false, never throws, when a member is missing or of
// another type. nlohmann's own value() throws on a wrong type, which outside input can
// always send.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace mc::pool {

// Member is `object[key]`, or nullptr when `object` is no object or has no such member.
const nlohmann::json* Member(const nlohmann::json& object, const char* key);

bool ReadJsonNumber(const nlohmann::json* value, double& out);
bool ReadJsonInteger(const nlohmann::json* value, long long low, long long high, long long& out);
bool ReadJsonString(const nlohmann::json* value, std::string& out);
bool ReadJsonBool(const nlohmann::json* value, bool& out);

// NextJsonLine takes the next line off `text` for a reader of JSON Lines, counting it in
// `line_number` and passing over blank ones; false when `text` is done.
bool NextJsonLine(std::string_view& text, std::string_view& line, std::size_t& line_number);

// ParseJson parses `text`, answering a discarded value (is_discarded()) on a syntax error.
nlohmann::json ParseJson(std::string_view text);

}  // namespace mc::pool
