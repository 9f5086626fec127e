// The one-shot client against the project's own small server and against Python's
// http.server, over plain TCP and over TLS with a certificate made for the test.
#include "common/http/client.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/http/hmac.h"
#include "common/http/http_server.h"
#include "support/temp_dir.h"
#include "test_peer.h"

namespace mc::http {
namespace {

using testing::MakeTestCertificate;
using testing::PeerProcess;

Url MustParse(const std::string& text) {
  Result<Url> url = ParseUrl(text);
  EXPECT_TRUE(url) << url.error_message();
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
  ASSERT_TRUE(server) << server.error_message();
  Result<ClientResponse> answer =
      Request(MustParse("http://" + (*server)->address() + "/status"), {});
  ASSERT_TRUE(answer) << answer.error_message();
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
  ASSERT_TRUE(json) << json.error_message();
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
  ASSERT_TRUE(form) << form.error_message();
  const nlohmann::json form_echo = nlohmann::json::parse(form->body);
  EXPECT_EQ(form_echo["body"], "client_id=a%20b&grant_type=password%26x");
  EXPECT_EQ(form_echo["body_length"], 39);
}

TEST(Client, ReadsAChunkedAnswer) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  Result<ClientResponse> answer = Request(MustParse(peer.Origin() + "/chunked?parts=3"), {});
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(answer->body, "part 0;part 1;part 2;");
}

TEST(Client, RefusesAnAnswerOverItsLimitAndOneThatTakesTooLong) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  ClientRequest small{.max_body_bytes = 1000};
  Result<ClientResponse> big = Request(MustParse(peer.Origin() + "/big?bytes=5000"), small);
  ASSERT_FALSE(big);
  EXPECT_TRUE(big.error().IsInvalidInput());
  EXPECT_NE(big.error_message().find("larger than 1000"), std::string::npos) << big.error_message();
  ClientRequest hurried{.timeout = std::chrono::milliseconds(300)};
  Result<ClientResponse> slow = Request(MustParse(peer.Origin() + "/slow?ms=3000"), hurried);
  ASSERT_FALSE(slow);
  EXPECT_TRUE(slow.error().IsDeadlineExceeded()) << slow.error_message();
  EXPECT_NE(slow.error_message().find("GET " + peer.Origin() + "/slow"), std::string::npos);
  EXPECT_EQ(slow.error_message().find("ms=3000"), std::string::npos) << "the query stays out";
}

TEST(Client, NamesTheServerItCouldNotReach) {
  const std::string origin = "http://127.0.0.1:" + std::to_string(ClosedPort());
  Result<ClientResponse> answer = Request(MustParse(origin + "/x"), {});
  ASSERT_FALSE(answer);
  EXPECT_TRUE(answer.error().IsUnavailable());
  EXPECT_NE(answer.error_message().find(origin), std::string::npos) << answer.error_message();
  EXPECT_NE(answer.error_message().find("refused"), std::string::npos) << answer.error_message();
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
  ASSERT_TRUE(answer) << answer.error_message();
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
  EXPECT_TRUE(answer.error().IsUnavailable());
  EXPECT_NE(answer.error_message().find("does not verify"), std::string::npos)
      << answer.error_message();
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
  EXPECT_NE(answer.error_message().find("does not verify"), std::string::npos)
      << answer.error_message();
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
  EXPECT_TRUE(answer.error().IsUnsupported()) << answer.error_message();
  EXPECT_NE(answer.error_message().find("https needs OpenSSL 3 (libssl-not-here.so.3)"),
            std::string::npos)
      << answer.error_message();
}

// TlsPeer is the test server over https with a certificate of `names`, reached at
// https://127.0.0.1:PORT; with `client_ca`, it asks every client for a certificate it signed.
// `more` are the peer's further options (--tls-only, --tls-suites).
struct TlsPeer {
  explicit TlsPeer(const std::string& names, const std::string& key = testing::kEcP256Key,
                   const std::string& client_ca = "", const std::vector<std::string>& more = {})
      : certificate(MakeTestCertificate(directory.path().string(), names, "localhost", key)),
        peer(PeerArguments(certificate, client_ca, more)) {}
  static std::vector<std::string> PeerArguments(const testing::TestCertificate& certificate,
                                                const std::string& client_ca,
                                                const std::vector<std::string>& more) {
    std::vector<std::string> arguments{"--tls", certificate.certificate, certificate.key};
    if (!client_ca.empty()) arguments.insert(arguments.end(), {"--client-ca", client_ca});
    arguments.insert(arguments.end(), more.begin(), more.end());
    return arguments;
  }
  Url At(const std::string& host) const {
    return MustParse("https://" + host + ":" + std::to_string(peer.port()) + "/echo");
  }
  // A request that trusts this server's certificate and no other.
  ClientRequest Trusting() const {
    ClientRequest request;
    request.transport.ca_file = certificate.certificate;
    return request;
  }
  mc::testing::TempDir directory;
  testing::TestCertificate certificate;
  PeerProcess peer;
};

TEST(ClientTls, SpeaksTls13WithAServerThatOffersIt) {
  TlsPeer server("DNS:localhost");
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("localhost"), server.Trusting());
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(nlohmann::json::parse(answer->body)["tls_version"], "TLSv1.3");
}

TEST(ClientTls, SpeaksTls12OnlyWithAnEcdheAeadSuite) {
  TlsPeer server("DNS:localhost", testing::kEcP256Key, "", {"--tls-only", "TLSv1_2"});
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("localhost"), server.Trusting());
  ASSERT_TRUE(answer) << answer.error_message();
  const nlohmann::json echo = nlohmann::json::parse(answer->body);
  EXPECT_EQ(echo["tls_version"], "TLSv1.2");
  const std::string suite = echo["tls_cipher"];
  EXPECT_EQ(suite.rfind("ECDHE-", 0), 0u) << suite;
  EXPECT_TRUE(suite.find("GCM") != std::string::npos || suite.find("CHACHA20") != std::string::npos)
      << suite;
}

TEST(ClientTls, RefusesAServerThatSpeaksNothingNewerThanTls11) {
  TlsPeer server("DNS:localhost", testing::kEcP256Key, "", {"--tls-only", "TLSv1_1"});
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("localhost"), server.Trusting());
  ASSERT_FALSE(answer) << "TLS 1.1 was accepted";
  EXPECT_TRUE(answer.error().IsUnavailable()) << answer.error_message();
}

TEST(ClientTls, RefusesAServerWhoseOnlyTls12SuitesAreCbc) {
  TlsPeer server("DNS:localhost", testing::kEcP256Key, "",
                 {"--tls-only", "TLSv1_2", "--tls-suites", "ECDHE-ECDSA-AES128-SHA256"});
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("localhost"), server.Trusting());
  ASSERT_FALSE(answer) << "a CBC suite was accepted";
  EXPECT_TRUE(answer.error().IsUnavailable()) << answer.error_message();
}

// The trusted file is read once while it stays the same, and again once it changes: a
// rotated authority (a service account's ca.crt) is taken without a restart.
TEST(ClientTls, ReadsTheTrustedFileAgainWhenItChanges) {
  TlsPeer server("DNS:localhost");
  TlsPeer other("DNS:localhost");
  ASSERT_GT(server.peer.port(), 0);
  ASSERT_GT(other.peer.port(), 0);
  mc::testing::TempDir directory;
  const std::string trusted = (directory.path() / "ca.crt").string();
  std::filesystem::copy_file(server.certificate.certificate, trusted);
  ClientRequest request;
  request.transport.ca_file = trusted;
  ASSERT_TRUE(Request(server.At("localhost"), request));
  ASSERT_FALSE(Request(other.At("localhost"), request));
  std::filesystem::copy_file(other.certificate.certificate, trusted,
                             std::filesystem::copy_options::overwrite_existing);
  Result<ClientResponse> answer = Request(other.At("localhost"), request);
  EXPECT_TRUE(answer) << answer.error_message();
  EXPECT_FALSE(Request(server.At("localhost"), request));
}

TEST(ClientTls, VerifiesACertificateIssuedForTheAddressItIsReachedAt) {
  TlsPeer server("IP:127.0.0.1,DNS:localhost");
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("127.0.0.1"), server.Trusting());
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(answer->status, 200);
}

TEST(ClientTls, RefusesACertificateIssuedForAnotherAddress) {
  TlsPeer server("IP:127.0.0.2,IP:::1,DNS:127.0.0.1");
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("127.0.0.1"), server.Trusting());
  ASSERT_FALSE(answer);
  EXPECT_TRUE(answer.error().IsUnavailable());
  EXPECT_NE(answer.error_message().find("does not verify"), std::string::npos)
      << answer.error_message();
}

TEST(ClientTls, TrustsCertificateAuthorityDataGivenAsText) {
  TlsPeer server("DNS:localhost");
  ASSERT_GT(server.peer.port(), 0);
  ClientRequest request;
  request.transport.ca_pem = mc::testing::ReadFile(server.certificate.certificate);
  request.transport.ca_file = "/nonexistent/the-text-wins.pem";
  Result<ClientResponse> answer = Request(server.At("localhost"), request);
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(answer->status, 200);
}

TEST(ClientTls, NamesCertificateAuthorityDataThatIsNoCertificate) {
  TlsPeer server("DNS:localhost");
  ASSERT_GT(server.peer.port(), 0);
  ClientRequest request;
  request.transport.ca_pem = "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n";
  Result<ClientResponse> answer = Request(server.At("localhost"), request);
  ASSERT_FALSE(answer);
  EXPECT_NE(answer.error_message().find(
                "the trusted certificates (the given certificate authority data)"),
            std::string::npos)
      << answer.error_message();
}

TEST(ClientTls, VerifiesAnRsaCertificateAsWellAsAnEcOne) {
  TlsPeer server("DNS:localhost", "rsa:2048");
  ASSERT_GT(server.peer.port(), 0);
  Result<ClientResponse> answer = Request(server.At("localhost"), server.Trusting());
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(answer->status, 200);
}

TEST(ClientTls, ProvesItselfWithItsClientCertificateWhenTheServerAsks) {
  mc::testing::TempDir client_directory;
  const testing::TestCertificate client =
      MakeTestCertificate(client_directory.path().string(), "DNS:agent", "agent");
  ASSERT_FALSE(client.certificate.empty());
  TlsPeer server("DNS:localhost", testing::kEcP256Key, client.certificate);
  ASSERT_GT(server.peer.port(), 0);
  ClientRequest request = server.Trusting();
  request.transport.client_certificate_pem = mc::testing::ReadFile(client.certificate);
  request.transport.client_key_pem = mc::testing::ReadFile(client.key);
  Result<ClientResponse> answer = Request(server.At("localhost"), request);
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(nlohmann::json::parse(answer->body)["client_common_name"], "agent");

  request.transport.client_certificate_pem.clear();
  request.transport.client_key_pem.clear();
  Result<ClientResponse> anonymous = Request(server.At("localhost"), request);
  EXPECT_FALSE(anonymous) << "a server that asks for a certificate refuses a client without";
}

TEST(ClientTls, NamesAClientKeyItCannotRead) {
  TlsPeer server("DNS:localhost");
  ASSERT_GT(server.peer.port(), 0);
  ClientRequest request = server.Trusting();
  request.transport.client_certificate_pem = mc::testing::ReadFile(server.certificate.certificate);
  request.transport.client_key_pem = "not a key";
  Result<ClientResponse> answer = Request(server.At("localhost"), request);
  ASSERT_FALSE(answer);
  EXPECT_TRUE(answer.error().IsInvalidInput()) << answer.error_message();
  EXPECT_NE(answer.error_message().find("the client key cannot be read"), std::string::npos)
      << answer.error_message();
}

TEST(ClientTls, AcceptsAnyCertificateOnlyWhenVerificationIsTurnedOff) {
  TlsPeer server("DNS:elsewhere.example");
  ASSERT_GT(server.peer.port(), 0);
  ClientRequest request;
  ASSERT_FALSE(Request(server.At("127.0.0.1"), request));
  request.transport.verify_peer = false;
  Result<ClientResponse> answer = Request(server.At("127.0.0.1"), request);
  ASSERT_TRUE(answer) << answer.error_message();
  EXPECT_EQ(answer->status, 200);
}

}  // namespace
// RFC 4231's second test case: a short key and message, HMAC-SHA-256 as the RFC prints it.
TEST(HmacSha256, IsTheDigestRfc4231Gives) {
  Result<std::string> digest = HmacSha256Hex("Jefe", "what do ya want for nothing?");
  ASSERT_TRUE(digest) << digest.error_message();
  EXPECT_EQ(*digest, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  Result<std::string> other = HmacSha256Hex("Jefe", "what do ya want for nothing!");
  ASSERT_TRUE(other);
  EXPECT_NE(*other, *digest);
}

}  // namespace mc::http
