#include "common/base/json_reader.h"

#include <algorithm>
#include <limits>

namespace mc {

bool JsonReader::Fail(const std::string& path, const std::string& what) {
  if (error_.empty()) error_ = path + ": " + what;
  return false;
}

const JsonReader::Json* JsonReader::Member(const Json& object, const std::string& path,
                                           const char* name) {
  const Json* member = OptionalMember(object, name);
  if (!member) Fail(Child(path, name), "missing");
  return member;
}

const JsonReader::Json* JsonReader::OptionalMember(const Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

bool JsonReader::Object(const Json& value, const std::string& path) {
  return value.is_object() || Fail(path, "expected an object");
}

bool JsonReader::Array(const Json& value, const std::string& path) {
  return value.is_array() || Fail(path, "expected an array");
}

bool JsonReader::Bool(const Json& value, const std::string& path, bool& out) {
  if (!value.is_boolean()) return Fail(path, "expected true or false");
  out = value.get<bool>();
  return true;
}

bool JsonReader::Int(const Json& value, const std::string& path, std::int64_t low,
                     std::int64_t high, std::int64_t& out) {
  if (!value.is_number_integer()) return Fail(path, "expected an integer");
  const std::int64_t number =
      value.is_number_unsigned()
          ? static_cast<std::int64_t>(std::min<std::uint64_t>(
                value.get<std::uint64_t>(), std::numeric_limits<std::int64_t>::max()))
          : value.get<std::int64_t>();
  if (number < low || number > high) {
    return Fail(path, "value " + std::to_string(number) + " is out of range");
  }
  out = number;
  return true;
}

bool JsonReader::Number(const Json& value, const std::string& path, double low, double high,
                        double& out) {
  if (!value.is_number()) return Fail(path, "expected a number");
  const double number = value.get<double>();
  if (!(number >= low && number <= high)) return Fail(path, "value is out of range");
  out = number;
  return true;
}

bool JsonReader::String(const Json& value, const std::string& path, std::string& out) {
  if (!value.is_string()) return Fail(path, "expected a string");
  out = value.get<std::string>();
  return true;
}

bool JsonReader::StringMember(const Json& object, const std::string& path, const char* name,
                              std::string& out) {
  const Json* value = Member(object, path, name);
  return value && String(*value, Child(path, name), out);
}

bool JsonReader::StringList(const Json& value, const std::string& path,
                            std::vector<std::string>& out) {
  if (!Array(value, path)) return false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    std::string item;
    if (!String(value[i], Element(path, i), item)) return false;
    out.push_back(std::move(item));
  }
  return true;
}

std::string JsonReader::Child(const std::string& path, const char* name) {
  return path.empty() ? std::string(name) : path + "." + name;
}

std::string JsonReader::Element(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

}  // namespace mc
