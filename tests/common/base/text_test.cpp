#include "common/base/text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace mc {
namespace {

TEST(Excerpt, CutsBetweenCharactersAndReplacesWhatIsNotText) {
  // "é" is two bytes: a cut after the first would leave half a character.
  EXPECT_EQ(Excerpt("ab\xc3\xa9"
                    "cd",
                    3),
            "ab");
  EXPECT_EQ(Excerpt("ab\xc3\xa9"
                    "cd",
                    4),
            "ab\xc3\xa9");
  EXPECT_EQ(Excerpt("a\xff"
                    "b\nc",
                    20),
            "a\xef\xbf\xbd"
            "b c");
  EXPECT_EQ(Excerpt(std::string(100000, 'x'), 5), "xxxxx");
  EXPECT_EQ(Excerpt("", 5), "");
}

TEST(WithoutSecret, ReplacesEveryOccurrenceEvenOneInsideTheMark) {
  EXPECT_EQ(WithoutSecret("Bearer t0k, again t0k", "t0k"), "Bearer [redacted], again [redacted]");
  // A secret that is part of "[redacted]" must not be found in it again for ever.
  EXPECT_EQ(WithoutSecret("e", "e"), "[redacted]");
  EXPECT_EQ(WithoutSecret("[redacted]", "redacted"), "[[redacted]]");
  EXPECT_EQ(WithoutSecret("no secret here", ""), "no secret here");
}

TEST(Trim, DropsWhiteSpaceAtBothEnds) { EXPECT_EQ(Trim(" \t token \r\n"), "token"); }

TEST(Trim, KeepsWhiteSpaceInside) { EXPECT_EQ(Trim("  a b  "), "a b"); }

TEST(Trim, GivesNothingForOnlyWhiteSpace) {
  EXPECT_EQ(Trim(" \t\r\n\f\v"), "");
  EXPECT_EQ(Trim(""), "");
}

TEST(Trim, DropsOnlyTheCharactersItIsGiven) { EXPECT_EQ(Trim(" value\r ", " \t"), "value\r"); }

TEST(AsciiLower, LowersLettersAndLeavesTheRest) {
  EXPECT_EQ(AsciiLower("HTTPS://Host-9.Example"), "https://host-9.example");
}

TEST(AsciiLower, LeavesBytesBeyondAsciiAsTheyWere) {
  EXPECT_EQ(AsciiLower("\xC3\x89T\xC3\x89"), "\xC3\x89t\xC3\x89");
}

TEST(Joined, PutsTheSeparatorBetweenEachTwoItems) {
  EXPECT_EQ(Joined({"a", "b", "c"}, ", "), "a, b, c");
}

TEST(Joined, GivesOneItemAsItIsAndNoItemsAsNothing) {
  EXPECT_EQ(Joined({"only"}, "; "), "only");
  EXPECT_EQ(Joined({}, "; "), "");
}

TEST(PrometheusLabelValue, EscapesABackslashAQuoteAndALineFeedAndNothingElse) {
  EXPECT_EQ(PrometheusLabelValue("a\\b\"c\nd\te"), "a\\\\b\\\"c\\nd\te");
  EXPECT_EQ(PrometheusLabelValue("pci-0000-01-00-0"), "pci-0000-01-00-0");
}

TEST(JoinLines, TrimsEachLineAndDropsTheEmptyOnes) {
  EXPECT_EQ(JoinLines("  first \n\n\t second\r\n"), "first; second");
}

TEST(ParseInteger, ReadsAWholeDecimalNumber) {
  EXPECT_EQ(ParseInteger<int>("1080"), 1080);
  EXPECT_EQ(ParseInteger<int>("-3"), -3);
  EXPECT_EQ(ParseInteger<std::uint64_t>("18446744073709551615"), UINT64_MAX);
}

TEST(ParseInteger, RefusesTheEmptyStringAndAnythingAroundTheDigits) {
  EXPECT_EQ(ParseInteger<int>(""), std::nullopt);
  EXPECT_EQ(ParseInteger<int>(" 1"), std::nullopt);
  EXPECT_EQ(ParseInteger<int>("1 "), std::nullopt);
  EXPECT_EQ(ParseInteger<int>("+1"), std::nullopt);
  EXPECT_EQ(ParseInteger<int>("12abc"), std::nullopt);
  EXPECT_EQ(ParseInteger<int>("1.5"), std::nullopt);
  EXPECT_EQ(ParseInteger<int>("0x10"), std::nullopt);
}

TEST(ParseInteger, RefusesANumberTheTypeCannotHold) {
  EXPECT_EQ(ParseInteger<int>("2147483648"), std::nullopt);
  EXPECT_EQ(ParseInteger<std::int8_t>("128"), std::nullopt);
  EXPECT_EQ(ParseInteger<unsigned>("-1"), std::nullopt);
}

TEST(ParseDouble, ReadsAWholeDecimalNumber) {
  EXPECT_EQ(ParseDouble("29.97"), 29.97);
  EXPECT_EQ(ParseDouble("60"), 60.0);
  EXPECT_EQ(ParseDouble("-0.5"), -0.5);
  EXPECT_EQ(ParseDouble("1e3"), 1000.0);
}

TEST(ParseDouble, RefusesTheEmptyStringAndAnythingAroundTheNumber) {
  EXPECT_EQ(ParseDouble(""), std::nullopt);
  EXPECT_EQ(ParseDouble(" 1.5"), std::nullopt);
  EXPECT_EQ(ParseDouble("1.5s"), std::nullopt);
  EXPECT_EQ(ParseDouble("+1.5"), std::nullopt);
}

TEST(ParseDouble, RefusesANumberBeyondADoublesRange) {
  EXPECT_EQ(ParseDouble("1e999"), std::nullopt);
}

TEST(ParseDouble, ReadsInfinityAsItIsWritten) {
  const std::optional<double> value = ParseDouble("inf");
  ASSERT_TRUE(value.has_value());
  EXPECT_TRUE(std::isinf(*value));
}

}  // namespace
}  // namespace mc
