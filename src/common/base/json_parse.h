// The one entry for JSON from outside:
// - a server's answer;
// - a request body;
// - a peer's document;
// - a file.
//
// nlohmann/json parses without recursion. But dump, compare and copy recurse once a level. A
// document nested 100,000 deep would overflow the stack after it was read. ParseJson refuses such a
// document while reading it. Nothing deeper than kJsonDepthLimit levels is ever held. So every
// later step is safe.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc {

// The deepest nesting of objects and arrays a document may have. Every document the project reads
// stays within a dozen. That holds for PeerTube, Kubernetes, a worker and a file.
inline constexpr int kJsonDepthLimit = 64;

namespace json_parse_detail {

// DepthBoundedSax builds the value as the library's own parser does. It stops at the first object
// or array beyond the limit. It also stops at the first syntax error. It keeps what went wrong.
template <class Json>
class DepthBoundedSax {
 public:
  using Integer = typename Json::number_integer_t;
  using Unsigned = typename Json::number_unsigned_t;
  using Float = typename Json::number_float_t;
  using String = typename Json::string_t;
  using Binary = typename Json::binary_t;

  DepthBoundedSax(Json& root, int max_depth) : dom_(root, false), max_depth_(max_depth) {}

  const std::string& error_message() const { return error_; }

  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(Integer value) { return dom_.number_integer(value); }
  bool number_unsigned(Unsigned value) { return dom_.number_unsigned(value); }
  bool number_float(Float value, const String& text) { return dom_.number_float(value, text); }
  bool string(String& value) { return dom_.string(value); }
  bool binary(Binary& value) { return dom_.binary(value); }
  bool key(String& value) { return dom_.key(value); }
  bool start_object(std::size_t size) { return Enter() && dom_.start_object(size); }
  bool end_object() { return Leave() && dom_.end_object(); }
  bool start_array(std::size_t size) { return Enter() && dom_.start_array(size); }
  bool end_array() { return Leave() && dom_.end_array(); }

  template <class Exception>
  bool parse_error(std::size_t byte, const std::string&, const Exception& exception) {
    // Error 406: a number beyond a double's range, such as 1e330.
    error_ = exception.id == 406 ? "not JSON: a number out of range at byte " + std::to_string(byte)
                                 : "not JSON (at byte " + std::to_string(byte) + ")";
    return false;
  }

 private:
  bool Enter() {
    if (++depth_ <= max_depth_) return true;
    error_ =
        "not JSON this program reads: nested deeper than " + std::to_string(max_depth_) + " levels";
    return false;
  }
  bool Leave() {
    --depth_;
    return true;
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom_;
  int max_depth_;
  int depth_ = 0;
  std::string error_;
};

}  // namespace json_parse_detail

// ParseJsonAs reads `text` as one JSON document of type Json. Json is nlohmann::json, or
// ordered_json to keep member order. A syntax error names its byte. Nesting deeper than `max_depth`
// is invalid input naming the bound.
template <class Json>
Result<Json> ParseJsonAs(std::string_view text, int max_depth = kJsonDepthLimit) {
  Json root;
  json_parse_detail::DepthBoundedSax<Json> sax(root, max_depth);
  bool parsed = false;
  try {
    parsed = Json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const nlohmann::json::exception&) {
    return InvalidInput("not JSON");
  }
  if (!parsed) return InvalidInput(sax.error_message().empty() ? "not JSON" : sax.error_message());
  return root;
}

// ParseJson is ParseJsonAs for nlohmann::json. Most readers walk that type.
inline Result<nlohmann::json> ParseJson(std::string_view text, int max_depth = kJsonDepthLimit) {
  return ParseJsonAs<nlohmann::json>(text, max_depth);
}

// ParseJsonOrDiscarded is ParseJson for a reader that tests is_discarded(). It answers as
// nlohmann::json::parse(text, nullptr, false) does. A failure is the discarded value.
inline nlohmann::json ParseJsonOrDiscarded(std::string_view text) {
  Result<nlohmann::json> value = ParseJson(text);
  return value ? std::move(*value) : nlohmann::json(nlohmann::json::value_t::discarded);
}

}  // namespace mc
