#include "dra/grpc_server/message_frame.h"

#include <gtest/gtest.h>

namespace mc::dra {
namespace {

using namespace std::string_literals;

TEST(MessageFrameTest, AFramedMessageParsesBackToItself) {
  const std::string framed = FrameMessage("hello");
  EXPECT_EQ(framed, "\0\0\0\0\5hello"s);
  Result<std::string_view> parsed = ParseSingleMessage(framed);
  ASSERT_TRUE(parsed.ok()) << parsed.error_message();
  EXPECT_EQ(*parsed, "hello");
}

TEST(MessageFrameTest, AnEmptyMessageIsAMessage) {
  Result<std::string_view> parsed = ParseSingleMessage(FrameMessage(""));
  ASSERT_TRUE(parsed.ok()) << parsed.error_message();
  EXPECT_EQ(*parsed, "");
}

TEST(MessageFrameTest, ABodyWithNoMessageIsRefused) {
  Result<std::string_view> parsed = ParseSingleMessage("");
  ASSERT_FALSE(parsed.ok());
  EXPECT_TRUE(parsed.error().IsInvalidInput());
  EXPECT_NE(parsed.error_message().find("no message"), std::string::npos) << parsed.error_message();
}

TEST(MessageFrameTest, ACutPrefixIsRefusedWithItsSize) {
  Result<std::string_view> parsed = ParseSingleMessage("\0\0\0"s);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error_message().find("3 of 5 bytes"), std::string::npos)
      << parsed.error_message();
}

TEST(MessageFrameTest, ACutMessageIsRefusedWithBothLengths) {
  Result<std::string_view> parsed = ParseSingleMessage("\0\0\0\0\10abc"s);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error_message().find("3 of 8 bytes"), std::string::npos)
      << parsed.error_message();
}

TEST(MessageFrameTest, ASecondMessageAfterTheFirstIsRefused) {
  Result<std::string_view> parsed = ParseSingleMessage(FrameMessage("a") + FrameMessage("b"));
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.error_message().find("6 bytes after its one message"), std::string::npos)
      << parsed.error_message();
}

TEST(MessageFrameTest, ACompressedMessageIsUnsupported) {
  Result<std::string_view> parsed = ParseSingleMessage("\1\0\0\0\1x"s);
  ASSERT_FALSE(parsed.ok());
  EXPECT_TRUE(parsed.error().IsUnsupported());
}

TEST(MessageFrameTest, ACompressedFlagOtherThanZeroOrOneIsMalformed) {
  Result<std::string_view> parsed = ParseSingleMessage("\7\0\0\0\1x"s);
  ASSERT_FALSE(parsed.ok());
  EXPECT_TRUE(parsed.error().IsInvalidInput());
  EXPECT_NE(parsed.error_message().find("compressed flag 7"), std::string::npos)
      << parsed.error_message();
}

TEST(MessageFrameTest, ABodyIsTooLargeOnlyPastOneMessageOfTheLimit) {
  EXPECT_FALSE(BodyTooLarge(kMessagePrefixSize + kMaxRequestMessage));
  EXPECT_TRUE(BodyTooLarge(kMessagePrefixSize + kMaxRequestMessage + 1));
}

}  // namespace
}  // namespace mc::dra
