#include "common/base/utf8.h"

#include <gtest/gtest.h>

namespace mc {
namespace {

TEST(ValidUtf8, LeavesValidTextUnchanged) {
  EXPECT_EQ(ValidUtf8("Intel iHD driver - 24.1.0 (ünïcode ✓ 😀)"),
            "Intel iHD driver - 24.1.0 (ünïcode ✓ 😀)");
}

TEST(ValidUtf8, ReplacesEachInvalidByteWithTheReplacementCharacter) {
  EXPECT_EQ(ValidUtf8("a\xff"
                      "b"),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(ValidUtf8("\xC3"), "\xEF\xBF\xBD");                  // a cut two-byte character
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // an overlong slash
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
  EXPECT_EQ(ValidUtf8("\xF4\x90\x80\x80").substr(0, 3), "\xEF\xBF\xBD");         // above U+10FFFF
}

TEST(TruncateUtf8, KeepsTextThatFits) { EXPECT_EQ(TruncateUtf8("short", 64), "short"); }

TEST(TruncateUtf8, CutsAtTheLimitInPlainAscii) {
  EXPECT_EQ(TruncateUtf8(std::string(70, 'x'), 64), std::string(64, 'x'));
}

TEST(TruncateUtf8, NeverSplitsACharacterThatCrossesTheLimit) {
  const std::string text = std::string(62, 'x') + "✓";  // 62 + 3 bytes
  EXPECT_EQ(TruncateUtf8(text, 64), std::string(62, 'x'));
  EXPECT_EQ(TruncateUtf8(text, 65), text);
}

}  // namespace
}  // namespace mc
