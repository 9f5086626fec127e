// URLs as the client and the gate read them, and the heads of messages.
#include "common/http/url.h"

#include <gtest/gtest.h>

#include "common/http/message_head.h"

namespace mc::http {
namespace {

TEST(UnderBase, PutsThePathUnderTheBaseWhateverItsTrailingSlashes) {
  EXPECT_EQ(UnderBase("https://tube.example", "/api/v1/config"),
            "https://tube.example/api/v1/config");
  EXPECT_EQ(UnderBase("https://tube.example//", "/api/v1/config"),
            "https://tube.example/api/v1/config");
  EXPECT_EQ(UnderBase("http://10.0.0.5:9464/pool/", "/status"), "http://10.0.0.5:9464/pool/status");
  EXPECT_EQ(UnderBase("https://tube.example///", ""), "https://tube.example");
}

TEST(ParseUrl, ReadsSchemeHostPortAndPath) {
  Result<Url> url = ParseUrl("http://127.0.0.1:9001/api/v1/runners/jobs/request?x=1#top");
  ASSERT_TRUE(url) << url.error_message();
  EXPECT_EQ(url->scheme, "http");
  EXPECT_EQ(url->host, "127.0.0.1");
  EXPECT_EQ(url->port, 9001);
  EXPECT_EQ(url->path_and_query, "/api/v1/runners/jobs/request?x=1");
  EXPECT_EQ(url->Origin(), "http://127.0.0.1:9001");
}

TEST(ParseUrl, GivesEachSchemeItsDefaultPortAndARootPath) {
  Result<Url> https = ParseUrl("HTTPS://Peertube.Example.org");
  ASSERT_TRUE(https) << https.error_message();
  EXPECT_EQ(https->scheme, "https");
  EXPECT_EQ(https->host, "peertube.example.org");
  EXPECT_EQ(https->port, 443);
  EXPECT_EQ(https->path_and_query, "/");
  EXPECT_EQ(https->Origin(), "https://peertube.example.org");
  Result<Url> http = ParseUrl("http://localhost?a=b");
  ASSERT_TRUE(http);
  EXPECT_EQ(http->port, 80);
  EXPECT_EQ(http->path_and_query, "/?a=b");
}

TEST(ParseUrl, ReadsIpv6HostsInBrackets) {
  Result<Url> url = ParseUrl("http://[::1]:9465/status");
  ASSERT_TRUE(url) << url.error_message();
  EXPECT_EQ(url->host, "::1");
  EXPECT_EQ(url->port, 9465);
  EXPECT_EQ(url->HostHeader(), "[::1]:9465");
  EXPECT_EQ(url->Origin(), "http://[::1]:9465");
  Result<Url> bare = ParseUrl("https://[2001:db8::5]");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->Origin(), "https://[2001:db8::5]");
}

TEST(ParseUrl, RefusesWhatItCannotConnectToAndSaysWhy) {
  const std::pair<const char*, const char*> cases[] = {
      {"ftp://host/", "neither http nor https"},
      {"127.0.0.1:9001", "no scheme"},
      {"http://:80/", "no host"},
      {"http://host:0/", "outside 1..65535"},
      {"http://host:70000/", "outside 1..65535"},
      {"http://host:8a/", "not a number"},
      {"http://host:/", "empty"},
      {"http://user:pw@host/", "user information"},
      {"http://[::1/", "closing"},
      {"http://[zz]/", "not an IPv6 address"},
      {"http://ho st/", "space or a control character"},
      {"http://h\xc3\xa9/", "character hosts do not"},
  };
  for (const auto& [text, why] : cases) {
    Result<Url> url = ParseUrl(text);
    ASSERT_FALSE(url) << text;
    EXPECT_TRUE(url.error().IsInvalidInput());
    EXPECT_NE(url.error_message().find(why), std::string::npos)
        << text << ": " << url.error_message();
  }
}

TEST(MessageHead, ReadsARequestHeadAndWritesItBackAsSent) {
  const std::string text =
      "POST /api/v1/runners/jobs/request?x=1 HTTP/1.1\r\nHost: gate\r\nX-Odd:  spaced value \r\n"
      "Content-Length: 12\r\n\r\n";
  Result<RequestHead> head = ParseRequestHead(text);
  ASSERT_TRUE(head) << head.error_message();
  EXPECT_EQ(head->method, "POST");
  EXPECT_EQ(head->Path(), "/api/v1/runners/jobs/request");
  EXPECT_EQ(HeaderValue(head->headers, "x-odd"), "spaced value");
  Result<BodyFraming> framing = RequestBodyFraming(*head);
  ASSERT_TRUE(framing);
  EXPECT_EQ(framing->kind, BodyFraming::Kind::kLength);
  EXPECT_EQ(framing->length, 12u);
  EXPECT_EQ(RequestHeadText(*head),
            "POST /api/v1/runners/jobs/request?x=1 HTTP/1.1\r\nHost: gate\r\n"
            "X-Odd: spaced value\r\nContent-Length: 12\r\n\r\n");
}

TEST(MessageHead, RefusesFramingThatCouldSmuggleASecondRequest) {
  Result<RequestHead> both = ParseRequestHead(
      "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n");
  ASSERT_TRUE(both);
  EXPECT_FALSE(RequestBodyFraming(*both));
  Result<RequestHead> two =
      ParseRequestHead("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n");
  ASSERT_TRUE(two);
  Result<BodyFraming> framing = RequestBodyFraming(*two);
  ASSERT_FALSE(framing);
  EXPECT_NE(framing.error_message().find("two different lengths"), std::string::npos);
  EXPECT_FALSE(ParseRequestHead("GET / HTTP/1.1\r\n folded: no\r\n\r\n"));
  EXPECT_FALSE(ParseRequestHead("GET  / HTTP/1.1\r\n\r\n"));
}

TEST(MessageHead, ReadsAStatusLineAndKnowsWhichAnswersHaveNoBody) {
  Result<ResponseHead> head = ParseResponseHead("HTTP/1.1 204 No Content\r\nX: y\r\n\r\n");
  ASSERT_TRUE(head) << head.error_message();
  EXPECT_EQ(head->status, 204);
  EXPECT_EQ(head->reason, "No Content");
  EXPECT_EQ(ResponseBodyFraming(*head, "POST")->kind, BodyFraming::Kind::kNone);
  Result<ResponseHead> open = ParseResponseHead("HTTP/1.0 200 OK\r\n\r\n");
  ASSERT_TRUE(open);
  EXPECT_EQ(ResponseBodyFraming(*open, "GET")->kind, BodyFraming::Kind::kUntilClose);
  EXPECT_EQ(ResponseBodyFraming(*open, "HEAD")->kind, BodyFraming::Kind::kNone);
  EXPECT_FALSE(ParseResponseHead("HTTP/1.1 2x0 OK\r\n\r\n"));
}

TEST(ChunkedDecoder, DecodesAcrossAnySplitAndStopsAtTheBodysEnd) {
  const std::string body = "4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nTrailer: x\r\n\r\nNEXT";
  for (std::size_t split = 0; split <= body.size(); ++split) {
    ChunkedDecoder decoder;
    std::string decoded;
    Result<std::size_t> first = decoder.Feed(std::string_view(body).substr(0, split), &decoded);
    ASSERT_TRUE(first) << first.error_message();
    Result<std::size_t> second = decoder.Feed(std::string_view(body).substr(*first), &decoded);
    ASSERT_TRUE(second) << second.error_message();
    EXPECT_TRUE(decoder.done());
    EXPECT_EQ(decoded, "Wikipedia");
    EXPECT_EQ(*first + *second, body.size() - 4) << "split at " << split;
  }
}

TEST(ChunkedDecoder, NamesAMalformedChunk) {
  ChunkedDecoder decoder;
  Result<std::size_t> bad = decoder.Feed("zz\r\n", nullptr);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error_message().find("not hexadecimal"), std::string::npos);
  ChunkedDecoder overlong;
  Result<std::size_t> wrong = overlong.Feed("2\r\nabc\r\n", nullptr);
  ASSERT_FALSE(wrong);
  EXPECT_NE(wrong.error_message().find("does not end where its size says"), std::string::npos);
}

}  // namespace
}  // namespace mc::http
