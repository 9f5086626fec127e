// Reading scalars out of a YAML file written by a person, without trusting its shape.
// Each reader answers false rather than throwing when the node:
//  - is missing;
//  - is of another kind;
//  - cannot be read as asked.
// The caller then names the key and its place in its error.
#pragma once

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>

#include "common/base/result.h"
#include "pool/policy/time.h"

namespace mc::pool {

bool ReadNumber(const YAML::Node& node, double& out);
bool ReadInteger(const YAML::Node& node, int& out);
bool ReadBool(const YAML::Node& node, bool& out);
bool ReadString(const YAML::Node& node, std::string& out);
// A duration is a number of seconds, or a number with a unit: "45s", "20m", "1h".
bool ReadDuration(const YAML::Node& node, Duration& out);
std::optional<Duration> ParseDurationText(std::string text);

// LoadYaml parses `text`; a syntax error becomes an InvalidInput naming `file` and the line.
Result<YAML::Node> LoadYaml(const std::string& text, const std::string& file);

// KeyError is "FILE: PATH: WHAT", the one shape of every error about a YAML key.
Error KeyError(const std::string& file, const std::string& path, const std::string& what);

// UnknownKey names the first key of `map` not among `known` (a null-terminated list).
// So a misspelt key is an error rather than a silently kept default.
std::optional<std::string> UnknownKey(const YAML::Node& map, const char* const* known);

}  // namespace mc::pool
