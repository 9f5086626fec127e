#include "cli/option_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>

#include "common/base/text.h"

namespace mc {
namespace {

// A validator named so says in its description which unit its option counts.
constexpr std::string_view kUnitValidator = "unit";

// Listed joins "a", "b" and "c" as "a, b and c".
std::string Listed(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

std::string Quoted(const std::string& value) { return "\"" + value + "\""; }

// A number as people write it: 1000 and 0.01, not 1000.000000.
std::string Plain(double number) {
  std::ostringstream text;
  text << number;
  return text.str();
}

// The numbers CLI11 reads into an option, by the type name it gives the option's variable.
enum class NumberKind { kNone, kReal, kInteger, kCount };

NumberKind KindOf(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::string base = type.substr(0, type.find(':'));
  if (base == "FLOAT") return NumberKind::kReal;
  if (base == "INT") return NumberKind::kInteger;
  if (base == "UINT") return NumberKind::kCount;
  return NumberKind::kNone;
}

std::string UnitOf(CLI::Option& option) {
  try {
    return option.get_validator(std::string(kUnitValidator))->get_description();
  } catch (const CLI::OptionNotFound&) {
    return "";
  }
}

// NumberCheck says what is wrong with a value that is not a number of `kind`, or nothing.
std::string NumberCheck(const std::string& value, NumberKind kind, const std::string& unit) {
  const std::string of_unit = unit.empty() ? "" : " of " + unit;
  if (kind == NumberKind::kReal) {
    const std::optional<double> number = ParseDouble(value);
    if (!number || !std::isfinite(*number)) return Quoted(value) + " is not a number" + of_unit;
    return "";
  }
  if (kind == NumberKind::kCount && value.starts_with('-'))
    return Quoted(value) + " is negative; the number" + of_unit + " must be 0 or more";
  if (ParseInteger<long long>(value)) return "";
  // Digits alone, with a sign at most, that still do not parse are out of range.
  const std::string_view digits = std::string_view(value).substr(value.starts_with('-') ? 1 : 0);
  if (!digits.empty() &&
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return Quoted(value) + " is too large a number" + of_unit;
  return Quoted(value) + " is not a whole number" + of_unit;
}

void ExplainNumberMistakesOf(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const NumberKind kind = KindOf(*option);
    if (kind == NumberKind::kNone) continue;
    const std::string unit = UnitOf(*option);
    // transform puts the check first, ahead of the option's own checks, which may then
    // take the value for a number.
    option->transform(CLI::Validator(
        [kind, unit](std::string& value) { return NumberCheck(value, kind, unit); }, ""));
  }
  for (CLI::App* subcommand : app.get_subcommands([](CLI::App*) { return true; }))
    ExplainNumberMistakesOf(*subcommand);
}

}  // namespace

void ExplainNumberMistakes(CLI::App& app) { ExplainNumberMistakesOf(app); }

CLI::Validator MoreThanZero(const std::string& unit) {
  CLI::Validator validator(
      [unit](std::string& value) -> std::string {
        const double number = std::strtod(value.c_str(), nullptr);
        if (number < 0)
          return Quoted(value) + " is negative; the number of " + unit + " must be more than 0";
        if (number == 0) return "the number of " + unit + " must be more than 0, not " + value;
        return "";
      },
      unit);
  return validator.name(std::string(kUnitValidator));
}

CLI::Validator NumberFrom(double low, double high) {
  return CLI::Validator(
      [low, high](std::string& value) -> std::string {
        const double number = std::strtod(value.c_str(), nullptr);
        if (number >= low && number <= high) return "";
        return Quoted(value) + " is out of range; the number must be from " + Plain(low) + " to " +
               Plain(high);
      },
      Plain(low) + " to " + Plain(high));
}

CLI::Validator OneOf(const std::vector<std::string>& choices, const std::string& what,
                     const std::string& plural) {
  return CLI::Validator(
      [choices, what,
       plural = plural.empty() ? what + "s" : plural](std::string& value) -> std::string {
        for (const std::string& choice : choices) {
          if (value == choice) return "";
        }
        return "unknown " + what + " " + Quoted(value) + "; the " + plural + " are " +
               Listed(choices);
      },
      Listed(choices));
}

std::string UnknownSubcommand(const CLI::App& app, const std::vector<std::string>& arguments) {
  const CLI::App* parent = &app;
  for (const std::string& word : arguments) {
    if (word.starts_with('-')) break;
    const std::vector<const CLI::App*> subcommands =
        parent->get_subcommands([](const CLI::App*) { return true; });
    if (subcommands.empty()) return "";
    const CLI::App* named = nullptr;
    std::vector<std::string> names;
    for (const CLI::App* subcommand : subcommands) {
      if (subcommand->get_name() == word) named = subcommand;
      // Internal subcommands have no group; they are not offered to people.
      if (!subcommand->get_group().empty()) names.push_back(subcommand->get_name());
    }
    if (!named) {
      const std::string of = parent == &app ? "" : " of " + parent->get_name();
      return "there is no subcommand " + Quoted(word) + of + "; the subcommands" + of + " are " +
             Listed(names);
    }
    parent = named;
  }
  return "";
}

}  // namespace mc
