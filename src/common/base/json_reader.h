// JsonReader walks a parsed report and keeps the path of the member it is at, so that every
// error names its place, such as "decoders[2].bitDepth: expected an integer". A report is
// outside input to the parent (a child confused by its driver may print anything), so
// every read checks the type and the range before it takes a value.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc {

class JsonReader {
 public:
  using Json = nlohmann::json;

  // The first error met, or empty; later failures do not overwrite it.
  const std::string& error() const { return error_; }
  // The first error as an Error: what a reader finds wrong is always invalid input.
  Error failure() const { return InvalidInput(error_); }

  // Fail records "path: what" as the error when none is recorded yet, and returns false.
  bool Fail(const std::string& path, const std::string& what);

  // Member finds `name` in `object`, whose own path is `path`; a missing member is an error.
  const Json* Member(const Json& object, const std::string& path, const char* name);
  // OptionalMember is Member for a member that may be absent: nullptr, and no error.
  static const Json* OptionalMember(const Json& object, const char* name);

  bool Object(const Json& value, const std::string& path);
  bool Array(const Json& value, const std::string& path);
  bool Bool(const Json& value, const std::string& path, bool& out);
  bool Int(const Json& value, const std::string& path, std::int64_t low, std::int64_t high,
           std::int64_t& out);
  // Number takes an integer or a fraction; NaN cannot arrive in JSON, so the range is the
  // whole check.
  bool Number(const Json& value, const std::string& path, double low, double high, double& out);
  bool String(const Json& value, const std::string& path, std::string& out);
  bool StringList(const Json& value, const std::string& path, std::vector<std::string>& out);
  // StringMember is Member and String at once: `name`, required, of `object` at `path`.
  bool StringMember(const Json& object, const std::string& path, const char* name,
                    std::string& out);

  // Child gives the path of a member or an element below `path`.
  static std::string Child(const std::string& path, const char* name);
  static std::string Element(const std::string& path, std::size_t index);

 private:
  std::string error_;
};

}  // namespace mc
