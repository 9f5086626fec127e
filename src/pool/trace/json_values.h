// Reading members of JSON from elsewhere without trusting its shape.
// The JSON is a trace or a PeerTube job list.
// Each reader answers false, and never throws, when a member is missing or mistyped.
// The library's own value() throws on a wrong type, which outside input can always send.
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

// NextJsonLine takes the next line off `text` for a reader of JSON Lines.
// It counts lines in `line_number` and passes over blank ones.
// It answers false when `text` is done.
bool NextJsonLine(std::string_view& text, std::string_view& line, std::size_t& line_number);

// ParseJson parses `text`. It answers a discarded value (is_discarded()) on:
//  - a syntax error;
//  - a document nested deeper than the bound every outside JSON is held to.
nlohmann::json ParseJson(std::string_view text);

}  // namespace mc::pool
