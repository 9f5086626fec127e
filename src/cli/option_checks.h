// Checks of command-line values that say in words what is wrong with a value, rather than
// CLI11's "not in range 0.000000 to 1.79769e+308".
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace mc {

// PositiveSeconds accepts a number of seconds greater than 0, such as "20" or "0.5".
CLI::Validator PositiveSeconds();

// OneOf accepts one of `choices`, and names them all when the value is none of them.
CLI::Validator OneOf(const std::vector<std::string>& choices, const std::string& what);

// UnknownSubcommand gives the error for a first argument that names no subcommand of `app`,
// or an empty string when it names one (or is an option, such as --help).
std::string UnknownSubcommand(const CLI::App& app, int argc, char** argv);

}  // namespace mc
