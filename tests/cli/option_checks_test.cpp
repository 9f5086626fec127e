#include "cli/option_checks.h"

#include <gtest/gtest.h>

namespace mc {
namespace {

// Parse gives CLI11's error for `arguments` on a command line with options of each numeric
// kind, on a subcommand of a subcommand, or "" when they parse.
std::string Parse(std::vector<std::string> arguments) {
  CLI::App app{"test"};
  CLI::App* outer = app.add_subcommand("outer");
  CLI::App* inner = outer->add_subcommand("inner");
  double seconds = 1;
  double fraction = 1;
  std::int64_t milliseconds = 1;
  unsigned count = 0;
  inner->add_option("--seconds", seconds)->check(MoreThanZero("seconds"));
  inner->add_option("--fraction", fraction)->check(NumberFrom(0.5, 2));
  inner->add_option("--milliseconds", milliseconds)->check(MoreThanZero("milliseconds"));
  inner->add_option("--count", count);
  ExplainNumberMistakes(app);
  arguments.insert(arguments.begin(), {"outer", "inner"});
  std::reverse(arguments.begin(), arguments.end());
  try {
    app.parse(arguments);
  } catch (const CLI::ParseError& error) {
    return error.what();
  }
  return "";
}

TEST(ExplainNumberMistakes, ANumberOfTheRightKindPasses) {
  EXPECT_EQ(Parse({"--seconds", "0.5", "--fraction", "2", "--milliseconds", "20", "--count", "0"}),
            "");
}

TEST(ExplainNumberMistakes, EachMistakeOfANestedSubcommandsNumberIsSaidInWords) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> mistakes = {
      {{"--seconds", "abc"}, "--seconds: \"abc\" is not a number of seconds"},
      {{"--seconds", "1e999"}, "--seconds: \"1e999\" is not a number of seconds"},
      {{"--seconds", "-2"},
       "--seconds: \"-2\" is negative; the number of seconds must be more than 0"},
      {{"--seconds", "0"}, "--seconds: the number of seconds must be more than 0, not 0"},
      {{"--fraction", "x"}, "--fraction: \"x\" is not a number"},
      {{"--fraction", "3"}, "--fraction: \"3\" is out of range; the number must be from 0.5 to 2"},
      {{"--milliseconds", "1.5"}, "--milliseconds: \"1.5\" is not a whole number of milliseconds"},
      {{"--milliseconds", "99999999999999999999"},
       "--milliseconds: \"99999999999999999999\" is too large a number of milliseconds"},
      {{"--count", "-1"}, "--count: \"-1\" is negative; the number must be 0 or more"},
      {{"--count", "two"}, "--count: \"two\" is not a whole number"},
  };
  for (const auto& [arguments, error] : mistakes) {
    EXPECT_EQ(Parse(arguments), error) << arguments[1];
  }
}

TEST(UnknownSubcommand, NamesTheWordAndTheSubcommandsAtEachDepth) {
  CLI::App app{"test"};
  CLI::App* pool = app.add_subcommand("pool");
  pool->add_subcommand("run");
  pool->add_subcommand("status");
  app.add_subcommand("query-va")->group("");
  EXPECT_EQ(UnknownSubcommand(app, {"nosuch", "--help"}),
            "there is no subcommand \"nosuch\"; the subcommands are pool");
  EXPECT_EQ(
      UnknownSubcommand(app, {"pool", "nosuch"}),
      "there is no subcommand \"nosuch\" of pool; the subcommands of pool are run and status");
  EXPECT_EQ(UnknownSubcommand(app, {"pool", "run", "positional"}), "");
  EXPECT_EQ(UnknownSubcommand(app, {"query-va", "/dev/dri/renderD128"}), "");
  EXPECT_EQ(UnknownSubcommand(app, {"--help"}), "");
}

TEST(OneOf, NamesEveryChoice) {
  std::string value = "xml";
  EXPECT_EQ(OneOf({"table", "json"}, "format")(value),
            "unknown format \"xml\"; the formats are table and json");
  value = "z";
  EXPECT_EQ(OneOf({"ours", "hpa"}, "policy", "policies")(value),
            "unknown policy \"z\"; the policies are ours and hpa");
}

}  // namespace
}  // namespace mc
