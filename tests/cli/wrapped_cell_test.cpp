#include "cli/wrapped_cell.h"

#include <gtest/gtest.h>

namespace mc {
namespace {

constexpr CellLayout kNarrow{.indent = 2, .value_column = 10, .width = 24};

TEST(WrappedCell, AShortValueIsOneLineWithItsLabel) {
  EXPECT_EQ(WrappedCell("api", {"VA-API"}, kNarrow), "  api     VA-API\n");
}

TEST(WrappedCell, ALongValueWrapsBetweenWordsUnderTheValueColumn) {
  EXPECT_EQ(WrappedCell("driver", {"one two three four five six"}, kNarrow),
            "  driver  one two three\n"
            "          four five six\n");
}

TEST(WrappedCell, EachParagraphStartsALineOfItsOwn) {
  EXPECT_EQ(WrappedCell("scales", {"h264", "LP: hevc"}, kNarrow),
            "  scales  h264\n"
            "          LP: hevc\n");
}

TEST(WrappedCell, AWordWiderThanTheRoomKeepsALineOfItsOwnWhole) {
  EXPECT_EQ(WrappedCell("api", {"on /a/very/long/render/node/path x"}, kNarrow),
            "  api     on\n"
            "          /a/very/long/render/node/path\n"
            "          x\n");
}

TEST(WrappedCell, ALabelWiderThanTheColumnPushesItsValueTwoSpacesOn) {
  EXPECT_EQ(WrappedCell("query failed", {"why"}, kNarrow), "  query failed  why\n");
}

TEST(WrappedCell, NoLineEndsInSpaces) {
  EXPECT_EQ(WrappedCell("scales", {""}, kNarrow), "  scales\n");
}

TEST(WrappedCell, WidthCountsCharactersNotBytes) {
  // "é" is two bytes and one column: 14 characters of words fit the 14 columns left.
  EXPECT_EQ(WrappedCell("name", {"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9 12345678"}, kNarrow),
            "  name    \xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9 12345678\n");
  EXPECT_EQ(DisplayWidth("\xC3\xA9t\xC3\xA9"), 3u);
}

}  // namespace
}  // namespace mc
