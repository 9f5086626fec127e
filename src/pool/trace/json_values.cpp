#include "pool/trace/json_values.h"

#include <cmath>

#include "common/base/json_parse.h"

namespace mc::pool {

const nlohmann::json* Member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

bool ReadJsonNumber(const nlohmann::json* value, double& out) {
  if (!value || !value->is_number()) return false;
  out = value->get<double>();
  return std::isfinite(out);
}

bool ReadJsonInteger(const nlohmann::json* value, long long low, long long high, long long& out) {
  if (!value || !value->is_number_integer()) return false;
  if (value->is_number_unsigned()) {
    const auto number = value->get<unsigned long long>();
    if (number > static_cast<unsigned long long>(high)) return false;
    out = static_cast<long long>(number);
  } else {
    out = value->get<long long>();
  }
  return out >= low && out <= high;
}

bool ReadJsonString(const nlohmann::json* value, std::string& out) {
  if (!value || !value->is_string()) return false;
  out = value->get<std::string>();
  return true;
}

bool ReadJsonBool(const nlohmann::json* value, bool& out) {
  if (!value || !value->is_boolean()) return false;
  out = value->get<bool>();
  return true;
}

bool NextJsonLine(std::string_view& text, std::string_view& line, std::size_t& line_number) {
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    ++line_number;
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) return true;
  }
  return false;
}

nlohmann::json ParseJson(std::string_view text) { return ParseJsonOrDiscarded(text); }

}  // namespace mc::pool
