// Reading one value out of an object from elsewhere (an API server's answer, liken's slices)
// without trusting its shape: each step checks that it is at an object, and a member that
// is missing or of another type gives nothing rather than an exception. nlohmann's own
// value() throws when a member exists with another type, which outside input can always do.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mc {

// JsonAt follows `keys` through nested objects; nullptr where one is missing.
inline const nlohmann::json* JsonAt(const nlohmann::json& object,
                                    std::initializer_list<const char*> keys) {
  const nlohmann::json* at = &object;
  for (const char* key : keys) {
    if (!at->is_object()) return nullptr;
    auto found = at->find(key);
    if (found == at->end()) return nullptr;
    at = &*found;
  }
  return at;
}

// JsonStringAt gives the string at `keys`, or "" when there is none.
inline std::string JsonStringAt(const nlohmann::json& object,
                                std::initializer_list<const char*> keys) {
  const nlohmann::json* value = JsonAt(object, keys);
  return value && value->is_string() ? value->get<std::string>() : "";
}

inline std::optional<std::int64_t> JsonIntAt(const nlohmann::json& object,
                                             std::initializer_list<const char*> keys) {
  const nlohmann::json* value = JsonAt(object, keys);
  if (!value || !value->is_number_integer()) return std::nullopt;
  return value->get<std::int64_t>();
}

}  // namespace mc
