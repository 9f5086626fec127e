// Checks of command-line values that say in words what is wrong with a value. They replace
// CLI11's "Value abc not in range 0.000000 to 1797693…" with its three hundred digits.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace mc {

// ExplainNumberMistakes adds a first check to every numeric option of `app` and its
// subcommands, at any depth. It checks the value is a number of the option's kind:
//  - `"abc" is not a number of seconds`;
//  - `"1.5" is not a whole number`;
//  - `"-2" is negative` for a count.
// Call it once, after every option is declared, so no option is left to CLI11's own words.
// The unit is the one MoreThanZero or NumberFrom names for the option, if any.
void ExplainNumberMistakes(CLI::App& app);

// MoreThanZero accepts a number greater than 0 of `unit` ("seconds"), such as "20" or "0.5".
// It and NumberFrom read the value as a number. ExplainNumberMistakes' check, run before
// them, has made sure it is one.
CLI::Validator MoreThanZero(const std::string& unit);

// NumberFrom accepts a number from `low` to `high`, both included.
CLI::Validator NumberFrom(double low, double high);

// OneOf accepts one of `choices`, and names them all when the value is none of them: "unknown
// format "xml"; the formats are table and json". `plural` is what + "s" unless given.
CLI::Validator OneOf(const std::vector<std::string>& choices, const std::string& what,
                     const std::string& plural = "");

// UnknownSubcommand gives the error for a word that names no subcommand where one is due.
// Examples: `media-capabilities nosuch`, `media-capabilities worker nosuch --help`. It gives
// an empty string when every such word names one. `arguments` are those after the program's
// name. It reads them up to the first option: it cannot tell an option's value from a
// subcommand's name.
std::string UnknownSubcommand(const CLI::App& app, const std::vector<std::string>& arguments);

}  // namespace mc
