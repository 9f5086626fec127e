// JSON written from values that may hold outside text. nlohmann/json's writer throws on bytes that
// are not UTF-8. Here they become U+FFFD instead. So outside text cannot make a document fail to
// write. That covers what a driver, a server, a peer or an upload put in it. Every JSON the project
// writes goes through JsonText.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mc {

// JsonText writes `value` compactly, or with `indent` spaces a level.
template <class Json>
std::string JsonText(const Json& value, int indent = -1) {
  return value.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace mc
