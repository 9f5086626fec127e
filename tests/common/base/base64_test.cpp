#include "common/base/base64.h"

#include <gtest/gtest.h>

namespace mc {
namespace {

TEST(Base64, DecodesEveryLengthOfTheLastGroup) {
  EXPECT_EQ(DecodeBase64("").value(), "");
  EXPECT_EQ(DecodeBase64("Zg==").value(), "f");
  EXPECT_EQ(DecodeBase64("Zm8=").value(), "fo");
  EXPECT_EQ(DecodeBase64("Zm9v").value(), "foo");
  EXPECT_EQ(DecodeBase64("Zm9vYg==").value(), "foob");
}

TEST(Base64, PaddingMayBeLeftOut) {
  EXPECT_EQ(DecodeBase64("Zg").value(), "f");
  EXPECT_EQ(DecodeBase64("Zm8").value(), "fo");
}

TEST(Base64, LineBreaksAreSkipped) { EXPECT_EQ(DecodeBase64("Zm9v\nYmFy\r\n").value(), "foobar"); }

TEST(Base64, EveryByteValueComesThrough) {
  // "+/" are the alphabet's last two characters, 62 and 63; "////" is three 0xff bytes.
  EXPECT_EQ(DecodeBase64("////").value(), "\xff\xff\xff");
  EXPECT_EQ(DecodeBase64("+++/").value(), "\xfb\xef\xbf");
  EXPECT_EQ(DecodeBase64("AAAA").value(), std::string(3, '\0'));
}

TEST(Base64, ACharacterOutsideTheAlphabetIsAnErrorNamingItsOffset) {
  Result<std::string> decoded = DecodeBase64("Zm9v Zm9v");
  ASSERT_FALSE(decoded);
  EXPECT_EQ(decoded.error_message(), "invalid base64: unexpected character at offset 4");
  EXPECT_FALSE(DecodeBase64("Zm9v-_"));  // the URL alphabet is not the standard one
}

TEST(Base64, TextAfterPaddingOrAHalfGroupIsAnError) {
  EXPECT_FALSE(DecodeBase64("Zg==Zg=="));
  EXPECT_FALSE(DecodeBase64("Z"));
  EXPECT_FALSE(DecodeBase64("Zg="));
  EXPECT_FALSE(DecodeBase64("Zm9v="));
  EXPECT_FALSE(DecodeBase64("Zg==="));
}

}  // namespace
}  // namespace mc
