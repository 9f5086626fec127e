// The one-shot client against the project's own small server and against Python's
// http.server, over plain TCP and over TLS with a certificate made for the test.
#include "http/client.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "http/http_server.h"
#include "support/temp_dir.h"
#include "test_peer.h"

namespace mc::http {
namespace {

using testing::MakeTestCertificate;
using testing::PeerProcess;

Url MustParse(const std::string& text) {
  Result<Url> url = ParseUrl(text);
  EXPECT_TRUE(url) << url.error();
  return url ? *url : Url{};
}

// A port on which nothing listens: bound, read back and closed again.
int ClosedPort() {
  Result<Listener> listener = Listen("127.0.0.1:0");
  EXPECT_TRUE(listener);
  const int port = listener->port;
  close(listener->fd);
  return port;
}

TEST(Client, GetsTheProjectsOwnServersAnswer) {
  Routes routes;
  routes["/status"] = [] { return Response{.content_type = "application/json", .body = "{}\n"}; };
  Result<std::unique_ptr<Server>> server = Server::Start("127.0.0.1:0", routes);
  ASSERT_TRUE(server) << server.error();
  Result<ClientResponse> answer =
      Request(MustParse("http://" + (*server)->address() + "/status"), {});
  ASSERT_TRUE(answer) << answer.error();
  EXPECT_EQ(answer->status, 200);
  EXPECT_EQ(answer->Header("content-type"), "application/json");
  EXPECT_EQ(answer->body, "{}\n");
  Result<ClientResponse> missing =
      Request(MustParse("http://" + (*server)->address() + "/nothing"), {});
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
}

TEST(Client, SendsJsonAndFormBodiesWithTheirTypesAndLengths) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  Result<ClientResponse> json =
      Request(MustParse(peer.Origin() + "/echo"), JsonRequest("POST", R"({"a":1})"));
  ASSERT_TRUE(json) << json.error();
  const nlohmann::json echo = nlohmann::json::parse(json->body);
  EXPECT_EQ(echo["method"], "POST");
  EXPECT_EQ(echo["body"], R"({"a":1})");
  bool typed = false;
  for (const auto& header : echo["headers"]) {
    if (header[0] == "Content-Type") typed = header[1] == "application/json";
  }
  EXPECT_TRUE(typed);

  Result<ClientResponse> form =
      Request(MustParse(peer.Origin() + "/echo"),
              WithBearer(FormRequest({{"client_id", "a b"}, {"grant_type", "password&x"}}), "t0k"));
  ASSERT_TRUE(form) << form.error();
  const nlohmann::json form_echo = nlohmann::json::parse(form->body);
  EXPECT_EQ(form_echo["body"], "client_id=a%20b&grant_type=password%26x");
  EXPECT_EQ(form_echo["body_length"], 39);
}

TEST(Client, ReadsAChunkedAnswer) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  Result<ClientResponse> answer = Request(MustParse(peer.Origin() + "/chunked?parts=3"), {});
  ASSERT_TRUE(answer) << answer.error();
  EXPECT_EQ(answer->body, "part 0;part 1;part 2;");
}

TEST(Client, RefusesAnAnswerOverItsLimitAndOneThatTakesTooLong) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  ClientRequest small{.max_body_bytes = 1000};
  Result<ClientResponse> big = Request(MustParse(peer.Origin() + "/big?bytes=5000"), small);
  ASSERT_FALSE(big);
  EXPECT_TRUE(big.failure().IsInvalidInput());
  EXPECT_NE(big.error().find("larger than 1000"), std::string::npos) << big.error();
  ClientRequest hurried{.timeout = std::chrono::milliseconds(300)};
  Result<ClientResponse> slow = Request(MustParse(peer.Origin() + "/slow?ms=3000"), hurried);
  ASSERT_FALSE(slow);
  EXPECT_TRUE(slow.failure().IsDeadlineExceeded()) << slow.error();
  EXPECT_NE(slow.error().find("GET " + peer.Origin() + "/slow"), std::string::npos);
  EXPECT_EQ(slow.error().find("ms=3000"), std::string::npos) << "the query stays out";
}

TEST(Client, NamesTheServerItCouldNotReach) {
  const std::string origin = "http://127.0.0.1:" + std::to_string(ClosedPort());
  Result<ClientResponse> answer = Request(MustParse(origin + "/x"), {});
  ASSERT_FALSE(answer);
  EXPECT_TRUE(answer.failure().IsUnavailable());
  EXPECT_NE(answer.error().find(origin), std::string::npos) << answer.error();
  EXPECT_NE(answer.error().find("refused"), std::string::npos) << answer.error();
}

TEST(ClientTls, VerifiesTheServersCertificateAgainstTheGivenAuthority) {
  mc::testing::TempDir directory;
  const testing::TestCertificate certificate = MakeTestCertificate(directory.path().string());
  ASSERT_FALSE(certificate.certificate.empty()) << "openssl req failed";
  PeerProcess peer({"--tls", certificate.certificate, certificate.key});
  ASSERT_GT(peer.port(), 0);
  ClientRequest request = JsonRequest("POST", "{}");
  request.transport.ca_file = certificate.certificate;
  Result<ClientResponse> answer = Request(MustParse(peer.Origin("https") + "/echo"), request);
  ASSERT_TRUE(answer) << answer.error();
  EXPECT_EQ(answer->status, 200);
  EXPECT_EQ(nlohmann::json::parse(answer->body)["body"], "{}");
}

TEST(ClientTls, RefusesACertificateTheSystemDoesNotTrust) {
  mc::testing::TempDir directory;
  const testing::TestCertificate certificate = MakeTestCertificate(directory.path().string());
  ASSERT_FALSE(certificate.certificate.empty());
  PeerProcess peer({"--tls", certificate.certificate, certificate.key});
  ASSERT_GT(peer.port(), 0);
  Result<ClientResponse> answer = Request(MustParse(peer.Origin("https") + "/echo"), {});
  ASSERT_FALSE(answer);
  EXPECT_TRUE(answer.failure().IsUnavailable());
  EXPECT_NE(answer.error().find("does not verify"), std::string::npos) << answer.error();
}

TEST(ClientTls, RefusesACertificateForAnotherHostName) {
  mc::testing::TempDir directory;
  const testing::TestCertificate certificate = MakeTestCertificate(directory.path().string());
  ASSERT_FALSE(certificate.certificate.empty());
  PeerProcess peer({"--tls", certificate.certificate, certificate.key});
  ASSERT_GT(peer.port(), 0);
  ClientRequest request;
  request.transport.ca_file = certificate.certificate;
  // The certificate names localhost only.
  Result<ClientResponse> answer =
      Request(MustParse("https://127.0.0.1:" + std::to_string(peer.port()) + "/echo"), request);
  ASSERT_FALSE(answer);
  EXPECT_NE(answer.error().find("does not verify"), std::string::npos) << answer.error();
}

TEST(ClientTls, SaysHttpsNeedsOpenSslWhenTheLibraryIsMissing) {
  ClientRequest request;
  request.transport.tls_library = "libssl-not-here.so.3";
  Result<Url> url = ParseUrl("https://127.0.0.1:" + std::to_string(ClosedPort()) + "/");
  ASSERT_TRUE(url);
  PeerProcess peer;
  url->port = peer.port();
  Result<ClientResponse> answer = Request(*url, request);
  ASSERT_FALSE(answer);
  EXPECT_TRUE(answer.failure().IsUnsupported()) << answer.error();
  EXPECT_NE(answer.error().find("https needs OpenSSL 3 (libssl-not-here.so.3)"), std::string::npos)
      << answer.error();
}

}  // namespace
}  // namespace mc::http
