// JSON written from values that may hold outside text. nlohmann/json's writer throws on bytes
// that are not UTF-8; here they become U+FFFD instead, so that no document, answer, request
// body or record can be made to fail by what a driver, a server, a peer or an upload put in
// it. Every JSON the project writes goes through JsonText.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mc {

// JsonText is `value` written compactly, or with `indent` spaces a level.
template <class Json>
std::string JsonText(const Json& value, int indent = -1) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace mc
