#include "pool/policy/yaml_values.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace mc::pool {

namespace {

bool ParseDouble(const std::string& text, double& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, out);
  return error == std::errc() && stop == end && std::isfinite(out);
}

}  // namespace

bool ReadNumber(const YAML::Node& node, double& out) {
  return node.IsDefined() && node.IsScalar() && ParseDouble(node.Scalar(), out);
}

bool ReadInteger(const YAML::Node& node, int& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  const std::string& text = node.Scalar();
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, out);
  return !text.empty() && error == std::errc() && stop == end;
}

bool ReadBool(const YAML::Node& node, bool& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  const std::string& text = node.Scalar();
  if (text == "true")
    out = true;
  else if (text == "false")
    out = false;
  else
    return false;
  return true;
}

bool ReadString(const YAML::Node& node, std::string& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  out = node.Scalar();
  return true;
}

bool ReadDuration(const YAML::Node& node, Duration& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  std::string text = node.Scalar();
  double unit = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 's':
        unit = 1;
        text.pop_back();
        break;
      case 'm':
        unit = 60;
        text.pop_back();
        break;
      case 'h':
        unit = 3600;
        text.pop_back();
        break;
      default:
        break;
    }
  }
  double value = 0;
  if (!ParseDouble(text, value) || value < 0) return false;
  out = Seconds(value * unit);
  return true;
}

Result<YAML::Node> LoadYaml(const std::string& text, const std::string& file) {
  try {
    YAML::Node root = YAML::Load(text);
    return root;
  } catch (const YAML::Exception& error) {
    return InvalidInput(file + ": line " + std::to_string(error.mark.line + 1) + ": " + error.msg);
  }
}

Error KeyError(const std::string& file, const std::string& path, const std::string& what) {
  return InvalidInput(file + ": " + path + ": " + what);
}

std::optional<std::string> UnknownKey(const YAML::Node& map, const char* const* known) {
  for (const auto& entry : map) {
    std::string key;
    if (!ReadString(entry.first, key)) return std::string("?");
    bool found = false;
    for (const char* const* name = known; *name; ++name) found = found || key == *name;
    if (!found) return key;
  }
  return std::nullopt;
}

}  // namespace mc::pool
