#include "common/http/http_message.h"

#include <gtest/gtest.h>

namespace mc::http {
namespace {

TEST(HttpRequestHead, EndsAtTheFirstBlankLineWhetherLinesEndInCrLfOrLf) {
  EXPECT_EQ(HeadEnd("GET / HTTP/1.1\r\nHost: x\r\n\r\nrest"), 27u);
  EXPECT_EQ(HeadEnd("GET / HTTP/1.0\n\n"), 16u);
  EXPECT_FALSE(HeadEnd("GET / HTTP/1.1\r\nHost: x\r\n"));
}

TEST(HttpRequestLine, GivesTheMethodAndThePathWithoutItsQuery) {
  const std::optional<RequestLine> line =
      ParseRequestLine("POST /readyz?verbose=1 HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(line);
  EXPECT_EQ(line->method, "POST");
  EXPECT_EQ(line->path, "/readyz");
}

TEST(HttpRequestLine, ALineWithNoPathIsNotARequest) {
  EXPECT_FALSE(ParseRequestLine("hello\r\n\r\n"));
  EXPECT_FALSE(ParseRequestLine("GET status HTTP/1.1\r\n\r\n"));
  EXPECT_FALSE(ParseRequestLine(" /status HTTP/1.1\r\n\r\n"));
}

TEST(HttpResponse, CarriesItsLengthTypeAndCloseAndAnAllowHeaderWhenGiven) {
  const std::string text =
      ResponseText({.status = 405, .content_type = "text/plain", .body = "no\n"}, "GET");
  EXPECT_EQ(text,
            "HTTP/1.1 405 Method Not Allowed\r\nContent-Type: text/plain\r\nContent-Length: "
            "3\r\nAllow: GET\r\n"
            "Connection: close\r\n\r\nno\n");
}

}  // namespace
}  // namespace mc::http
