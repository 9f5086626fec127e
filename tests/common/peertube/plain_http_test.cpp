// Plain http:// to PeerTube: taken on this host, refused beyond it unless allowed, and said.
#include "common/peertube/plain_http.h"

#include <gtest/gtest.h>

namespace mc::peertube {
namespace {

http::Url At(const std::string& text) {
  Result<http::Url> url = http::ParseUrl(text);
  EXPECT_TRUE(url) << url.error_message();
  return url ? *url : http::Url{};
}

TEST(PlainHttp, LoopbackIsLocalhostAndTheLoopbackNetworksOnly) {
  for (const char* host : {"localhost", "127.0.0.1", "127.8.9.10", "::1"})
    EXPECT_TRUE(IsLoopback(host)) << host;
  for (const char* host : {"10.0.0.1", "128.0.0.1", "::2", "localhost.example.org",
                           "127.0.0.1.example.org", "0.0.0.0", ""})
    EXPECT_FALSE(IsLoopback(host)) << host;
}

TEST(PlainHttp, HttpBeyondThisHostIsRefusedNamingTheSecretsAndTheWayToAllowIt) {
  Result<void> refused =
      CheckPlainHttp(At("http://videos.example.org"), false, "the token", "--allow-plain-http");
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().IsInvalidInput());
  EXPECT_EQ(refused.error_message(),
            "http://videos.example.org is plain http: the token would cross the network in "
            "clear; use https, or --allow-plain-http where that network is private");
  EXPECT_TRUE(CheckPlainHttp(At("http://videos.example.org"), true, "the token", "x"));
  EXPECT_TRUE(CheckPlainHttp(At("https://videos.example.org"), false, "the token", "x"));
  EXPECT_TRUE(CheckPlainHttp(At("http://127.0.0.1:9000"), false, "the token", "x"));
}

TEST(PlainHttp, AnAllowedHttpBeyondThisHostIsSaidInTheLogAndNothingElseIs) {
  EXPECT_EQ(PlainHttpWarning(At("http://10.0.0.5:9000"), "the tokens", "--allow-plain-http"),
            "PeerTube at http://10.0.0.5:9000 is reached without TLS (--allow-plain-http): the "
            "tokens cross the network in clear");
  EXPECT_EQ(PlainHttpWarning(At("https://10.0.0.5"), "the token", "x"), "");
  EXPECT_EQ(PlainHttpWarning(At("http://[::1]:9000"), "the token", "x"), "");
}

}  // namespace
}  // namespace mc::peertube
