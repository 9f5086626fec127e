#include "pool/policy/yaml_values.h"

#include <cmath>
#include <cstring>

#include "common/base/text.h"

namespace mc::pool {

bool ReadNumber(const YAML::Node& node, double& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  const std::optional<double> number = ParseDouble(node.Scalar());
  if (!number || !std::isfinite(*number)) return false;
  out = *number;
  return true;
}

bool ReadInteger(const YAML::Node& node, int& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  const std::optional<int> number = ParseInteger<int>(node.Scalar());
  if (!number) return false;
  out = *number;
  return true;
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

std::optional<Duration> ParseDurationText(std::string text) {
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
  const std::optional<double> value = ParseDouble(text);
  if (!value || !std::isfinite(*value) || *value < 0) return std::nullopt;
  return Seconds(*value * unit);
}

bool ReadDuration(const YAML::Node& node, Duration& out) {
  if (!node.IsDefined() || !node.IsScalar()) return false;
  const std::optional<Duration> duration = ParseDurationText(node.Scalar());
  if (!duration) return false;
  out = *duration;
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
