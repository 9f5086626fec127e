// Reads one value out of an object from elsewhere without trusting its shape. Sources: an API
// server's answer, liken's slices. Each step checks that it is at an object. A missing member gives
// nothing, not an exception. So does a member of another type. nlohmann's own value() throws on a
// member of another type. Outside input can always hold one.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace mc {

// JsonAt follows `keys` through nested objects. Gives nullptr where one is missing.
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

// JsonStringAt gives the string at `keys`; "" when there is none.
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
