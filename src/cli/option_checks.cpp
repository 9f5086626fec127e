#include "cli/option_checks.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace mc {
namespace {

// Listed joins "a", "b" and "c" as "a, b and c".
std::string Listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

}  // namespace

CLI::Validator PositiveSeconds() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        char* end = nullptr;
        errno = 0;
        const double seconds = std::strtod(value.c_str(), &end);
        if (value.empty() || end != value.c_str() + value.size() || errno == ERANGE ||
            !std::isfinite(seconds)) {
          return "\"" + value + "\" is not a number of seconds";
        }
        if (seconds <= 0) return "the number of seconds must be more than 0, not " + value;
        return "";
      },
      "SECONDS");
}

CLI::Validator OneOf(const std::vector<std::string>& choices, const std::string& what) {
  return CLI::Validator(
      [choices, what](std::string& value) -> std::string {
        for (const std::string& choice : choices) {
          if (value == choice) return "";
        }
        return "unknown " + what + " \"" + value + "\"; the " + what + "s are " + Listed(choices);
      },
      Listed(choices));
}

std::string UnknownSubcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return "";
  const std::string first = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* subcommand : app.get_subcommands({})) {
    if (subcommand->get_name() == first) return "";
    // Internal subcommands have no group; they are not offered to people.
    if (!subcommand->get_group().empty()) names.push_back(subcommand->get_name());
  }
  return "there is no subcommand \"" + first + "\"; the subcommands are " + Listed(names);
}

}  // namespace mc
