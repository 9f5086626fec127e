// JsonReader walks a parsed report and keeps the path of its member. So every error names its
// place. Example: "decoders[2].bitDepth: expected an integer". A report is outside input to the
// parent. A child confused by its driver may print anything. So every read checks type and range
// before taking a value.
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

  // The first error met, or empty. Later failures do not overwrite it.
  const std::string& error_message() const { return error_; }
  // The first error as an Error. What a reader finds wrong is always invalid input.
  Error error() const { return InvalidInput(error_); }

  // Fail records "path: what" unless an error is recorded. Returns false.
  bool Fail(const std::string& path, const std::string& what);

  // Member finds `name` in `object`, whose path is `path`. A missing member is an error.
  const Json* Member(const Json& object, const std::string& path, const char* name);
  // OptionalMember is Member for a member that may be absent. Absent gives nullptr, and no error.
  static const Json* OptionalMember(const Json& object, const char* name);

  bool Object(const Json& value, const std::string& path);
  bool Array(const Json& value, const std::string& path);
  bool Bool(const Json& value, const std::string& path, bool& out);
  bool Int(const Json& value, const std::string& path, std::int64_t low, std::int64_t high,
           std::int64_t& out);
  // Number takes an integer or a fraction. JSON cannot carry NaN, so the range is the whole check.
  bool Number(const Json& value, const std::string& path, double low, double high, double& out);
  bool String(const Json& value, const std::string& path, std::string& out);
  bool StringList(const Json& value, const std::string& path, std::vector<std::string>& out);
  // StringMember is Member and String at once. `name` is required, in `object` at `path`.
  bool StringMember(const Json& object, const std::string& path, const char* name,
                    std::string& out);

  // Child gives the path of a member or element below `path`.
  static std::string Child(const std::string& path, const char* name);
  static std::string Element(const std::string& path, std::size_t index);

 private:
  std::string error_;
};

}  // namespace mc
