// The HTTP server over real loopback sockets: what it answers, and that no client can stop it
// or keep it from stopping.
#include "common/http/http_server.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>

#include "common/http/client.h"
#include "support/loopback.h"
#include "support/temp_dir.h"
#include "test_peer.h"

namespace mc::http {
namespace {

using mc::testing::Body;
using mc::testing::Exchange;
using mc::testing::Header;
using mc::testing::StatusLine;
using std::chrono::milliseconds;
using std::chrono::steady_clock;
using testing::MakeTestCertificate;

Routes StatusRoutes() {
  Routes routes;
  routes["/status"] = [] {
    return Response{.status = 200, .content_type = "application/json", .body = "{\"ok\":true}\n"};
  };
  routes["/down"] = [] { return Response{.status = 503, .body = "not yet\n"}; };
  return routes;
}

std::unique_ptr<Server> StartOnLoopback(Routes routes = StatusRoutes(), Limits limits = {}) {
  Result<std::unique_ptr<Server>> server = Server::Start("127.0.0.1:0", std::move(routes), limits);
  EXPECT_TRUE(server) << server.error_message();
  return server ? std::move(*server) : nullptr;
}

TEST(HttpServer, AnswersEachPathWithItsRoutesStatusTypeAndBody) {
  auto server = StartOnLoopback();
  ASSERT_TRUE(server);
  const std::string status = Exchange(server->port(), "GET /status HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(status), "HTTP/1.1 200 OK");
  EXPECT_EQ(Header(status, "Content-Type"), "application/json");
  EXPECT_EQ(Header(status, "Content-Length"), "12");
  EXPECT_EQ(Body(status), "{\"ok\":true}\n");
  const std::string down = Exchange(server->port(), "GET /down?verbose HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(down), "HTTP/1.1 503 Service Unavailable");
  EXPECT_EQ(Body(down), "not yet\n");
}

TEST(HttpServer, AnswersAPathWithNoRouteWith404) {
  auto server = StartOnLoopback();
  ASSERT_TRUE(server);
  const std::string answer = Exchange(server->port(), "GET /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 404 Not Found");
  EXPECT_EQ(Body(answer), "not found\n");
}

TEST(HttpServer, AnswersAMethodOtherThanGetWith405NamingGet) {
  auto server = StartOnLoopback();
  ASSERT_TRUE(server);
  for (const char* method : {"POST", "PUT", "DELETE", "HEAD"}) {
    SCOPED_TRACE(method);
    const std::string answer =
        Exchange(server->port(), std::string(method) + " /status HTTP/1.1\r\n\r\n");
    EXPECT_EQ(StatusLine(answer), "HTTP/1.1 405 Method Not Allowed");
    EXPECT_EQ(Header(answer, "Allow"), "GET");
  }
}

TEST(HttpServer, RefusesAChunkedActionBodyWith411RatherThanReadingItAsEmpty) {
  std::atomic<int> called = 0;
  Actions actions;
  actions["/eligibility"] = [&](const ActionRequest&) {
    ++called;
    return Response{.status = 200, .body = "ok\n"};
  };
  Result<std::unique_ptr<Server>> server =
      Server::Start("127.0.0.1:0", StatusRoutes(), {}, std::move(actions));
  ASSERT_TRUE(server) << server.error_message();
  const std::string chunked =
      Exchange((*server)->port(),
               "POST /eligibility HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
               "5\r\ntypes\r\n0\r\n\r\n");
  EXPECT_EQ(StatusLine(chunked), "HTTP/1.1 411 Length Required");
  EXPECT_NE(Body(chunked).find("Content-Length"), std::string::npos) << chunked;
  EXPECT_EQ(called, 0);
  const std::string sized =
      Exchange((*server)->port(), "POST /eligibility HTTP/1.1\r\nContent-Length: 5\r\n\r\ntypes");
  EXPECT_EQ(StatusLine(sized), "HTTP/1.1 200 OK");
  EXPECT_EQ(called, 1);
}

TEST(HttpServer, AHandlerThatThrowsIsAnswered500AndTheServerGoesOn) {
  Routes routes = StatusRoutes();
  routes["/broken"] = []() -> Response { throw std::runtime_error("a writer refused the bytes"); };
  auto server = StartOnLoopback(std::move(routes));
  ASSERT_TRUE(server);
  const std::string broken = Exchange(server->port(), "GET /broken HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(broken), "HTTP/1.1 500 Internal Server Error");
  EXPECT_NE(Body(broken).find("a writer refused the bytes"), std::string::npos) << broken;
  EXPECT_EQ(StatusLine(Exchange(server->port(), "GET /status HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 200 OK");
}

TEST(HttpServer, AnswersWhatIsNotARequestLineWith400) {
  auto server = StartOnLoopback();
  ASSERT_TRUE(server);
  EXPECT_EQ(StatusLine(Exchange(server->port(), "hello there\r\n\r\n")),
            "HTTP/1.1 400 Bad Request");
}

TEST(HttpServer, RefusesARequestLargerThanItsLimitWith431AndGoesOnServing) {
  auto server = StartOnLoopback(StatusRoutes(), {.max_request_bytes = 1024});
  ASSERT_TRUE(server);
  const std::string huge =
      "GET /status HTTP/1.1\r\nX-Filler: " + std::string(64 * 1024, 'a') + "\r\n\r\n";
  const std::string answer = Exchange(server->port(), huge);
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 431 Request Header Fields Too Large");
  EXPECT_EQ(StatusLine(Exchange(server->port(), "GET /status HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 200 OK");
}

TEST(HttpServer, AClientThatSendsNothingDoesNotDelayTheNextOne) {
  auto server = StartOnLoopback(StatusRoutes(), {.request_timeout = std::chrono::seconds(10)});
  ASSERT_TRUE(server);
  const int silent = mc::testing::Connect(server->port());
  ASSERT_GE(silent, 0);
  const auto start = steady_clock::now();
  EXPECT_EQ(StatusLine(Exchange(server->port(), "GET /status HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 200 OK");
  // Served one after the other, the second client would wait the silent one's 10 s out.
  EXPECT_LT(steady_clock::now() - start, milliseconds(1000));
  close(silent);
}

TEST(HttpServer, AClientThatSendsHalfARequestIsAnswered408WhenItsTimeIsUp) {
  auto server = StartOnLoopback(StatusRoutes(), {.request_timeout = milliseconds(300)});
  ASSERT_TRUE(server);
  const int slow = mc::testing::Connect(server->port());
  ASSERT_GE(slow, 0);
  const std::string half = "GET /status HTTP/1.1\r\n";
  ASSERT_EQ(send(slow, half.data(), half.size(), MSG_NOSIGNAL), static_cast<ssize_t>(half.size()));
  const auto start = steady_clock::now();
  const std::string answer = mc::testing::ReadAll(slow, std::chrono::seconds(5));
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 408 Request Timeout");
  EXPECT_LT(steady_clock::now() - start, milliseconds(2000));
  close(slow);
}

TEST(HttpServer, ServesMoreClientsAtOnceThanItsConnectionLimit) {
  auto server =
      StartOnLoopback(StatusRoutes(), {.request_timeout = milliseconds(300), .max_connections = 2});
  ASSERT_TRUE(server);
  // Two silent clients fill the loop; the third makes room by closing the one that waited
  // longest, and is answered before their time is up.
  const int first = mc::testing::Connect(server->port());
  const int second = mc::testing::Connect(server->port());
  const auto start = steady_clock::now();
  EXPECT_EQ(StatusLine(Exchange(server->port(), "GET /status HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 200 OK");
  EXPECT_LT(steady_clock::now() - start, milliseconds(250));
  close(first);
  close(second);
}

// A liveness probe must not fail because others hold connections open and send nothing.
TEST(HttpServer, AnswersAProbeWithinASecondWhileAThousandIdleConnectionsAreHeld) {
  rlimit files{};
  getrlimit(RLIMIT_NOFILE, &files);
  if (files.rlim_cur < 1200 && files.rlim_max >= 1200) {
    files.rlim_cur = 1200;
    setrlimit(RLIMIT_NOFILE, &files);
  }
  ASSERT_GE(files.rlim_cur, 1200u) << "too few file descriptors for the test";
  auto server = StartOnLoopback(StatusRoutes());
  ASSERT_TRUE(server);
  std::vector<int> idle;
  for (int i = 0; i < 1000; ++i) {
    const int fd = mc::testing::Connect(server->port());
    ASSERT_GE(fd, 0) << "connection " << i;
    idle.push_back(fd);
  }
  const auto start = steady_clock::now();
  EXPECT_EQ(StatusLine(Exchange(server->port(), "GET /status HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 200 OK");
  const auto took = steady_clock::now() - start;
  EXPECT_LT(took, milliseconds(1000));
  // The figure itself, for --gtest_output=xml.
  RecordProperty(
      "answer_microseconds",
      std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(took).count()));
  for (const int fd : idle) close(fd);
}

TEST(HttpServer, PortZeroPicksAFreePortAndTheBoundAddressSaysWhich) {
  auto server = StartOnLoopback();
  ASSERT_TRUE(server);
  EXPECT_GT(server->port(), 0);
  EXPECT_EQ(server->host(), "127.0.0.1");
  EXPECT_EQ(server->address(), "127.0.0.1:" + std::to_string(server->port()));
}

TEST(HttpServer, ListensOnIpv6LoopbackWithTheAddressInBrackets) {
  Result<std::unique_ptr<Server>> server = Server::Start("[::1]:0", StatusRoutes());
  if (!server) GTEST_SKIP() << "no IPv6 loopback here: " << server.error_message();
  EXPECT_EQ((*server)->address(), "[::1]:" + std::to_string((*server)->port()));
}

TEST(HttpServer, StopsWithinASecondWhileAClientHoldsAConnection) {
  auto server = StartOnLoopback(StatusRoutes(), {.request_timeout = std::chrono::seconds(30)});
  ASSERT_TRUE(server);
  const int port = server->port();
  const int silent = mc::testing::Connect(port);
  ASSERT_GE(silent, 0);
  const auto start = steady_clock::now();
  server.reset();
  EXPECT_LT(steady_clock::now() - start, milliseconds(1000));
  EXPECT_EQ(Exchange(port, "GET /status HTTP/1.1\r\n\r\n", milliseconds(500)), "connect failed");
  close(silent);
}

TEST(HttpServer, AnAddressWithNoPortIsInvalidInputNamingIt) {
  Result<std::unique_ptr<Server>> server = Server::Start("localhost", StatusRoutes());
  ASSERT_FALSE(server);
  EXPECT_EQ(server.error_code(), ErrorCode::kInvalidInput);
  EXPECT_NE(server.error_message().find("localhost"), std::string::npos) << server.error_message();
}

// A port another program holds is a conflict: the caller names the flag that picks another.
TEST(HttpServer, APortInUseIsAConflictNamingTheAddress) {
  auto first = StartOnLoopback();
  ASSERT_TRUE(first);
  Result<std::unique_ptr<Server>> second = Server::Start(first->address(), StatusRoutes());
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error_code(), ErrorCode::kConflict);
  EXPECT_NE(second.error_message().find(first->address()), std::string::npos)
      << second.error_message();
}

}  // namespace
// An HTTPS server on a test certificate: the client of the project trusts the certificate's
// authority and checks the address; OpenSSL serves both sides.
struct TlsTestServer {
  explicit TlsTestServer(const std::string& names = "IP:127.0.0.1") {
    certificate = MakeTestCertificate(directory.path().string(), names, "worker");
    Result<std::shared_ptr<const ServerTls>> tls =
        ServerTls::Load({.certificate_file = certificate.certificate, .key_file = certificate.key});
    EXPECT_TRUE(tls) << tls.error_message();
    if (!tls) return;
    Actions actions;
    actions["/drain"] = [](const ActionRequest& request) {
      return Response{.status = 200, .body = "drained by " + request.authorization + "\n"};
    };
    Result<std::unique_ptr<Server>> started =
        Server::Start("127.0.0.1:0", StatusRoutes(), {}, std::move(actions), *tls);
    EXPECT_TRUE(started) << started.error_message();
    if (started) server = std::move(*started);
  }
  Result<ClientResponse> Ask(const std::string& method, const std::string& path,
                             const std::string& ca_file) const {
    ClientRequest request{.method = method, .body = method == "POST" ? "x" : ""};
    request.headers.push_back({"Authorization", "Bearer t"});
    request.transport.ca_file = ca_file;
    Result<Url> url = ParseUrl("https://127.0.0.1:" + std::to_string(server->port()) + path);
    if (!url) return url.error();
    return Request(*url, request);
  }

  mc::testing::TempDir directory;
  testing::TestCertificate certificate;
  std::unique_ptr<Server> server;
};

TEST(HttpsServer, AnswersAClientThatTrustsItsCertificateWithGetsAndActions) {
  TlsTestServer https;
  ASSERT_TRUE(https.server);
  Result<ClientResponse> status = https.Ask("GET", "/status", https.certificate.certificate);
  ASSERT_TRUE(status) << status.error_message();
  EXPECT_EQ(status->status, 200);
  EXPECT_EQ(status->body, "{\"ok\":true}\n");
  Result<ClientResponse> drained = https.Ask("POST", "/drain", https.certificate.certificate);
  ASSERT_TRUE(drained) << drained.error_message();
  EXPECT_EQ(drained->body, "drained by Bearer t\n");
}

TEST(HttpsServer, AClientThatDoesNotTrustItsCertificateGetsNoAnswerAndTheServerGoesOn) {
  TlsTestServer https;
  ASSERT_TRUE(https.server);
  Result<ClientResponse> refused = https.Ask("GET", "/status", "");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error_message().find("does not verify"), std::string::npos)
      << refused.error_message();
  Result<ClientResponse> answered = https.Ask("GET", "/status", https.certificate.certificate);
  EXPECT_TRUE(answered) << answered.error_message();
}

TEST(HttpsServer, APlainHttpRequestIsNotAnsweredInClearAndTheServerGoesOn) {
  TlsTestServer https;
  ASSERT_TRUE(https.server);
  const std::string answer = Exchange(https.server->port(), "GET /status HTTP/1.1\r\n\r\n");
  EXPECT_EQ(answer.find("{\"ok\":true}"), std::string::npos) << answer;
  EXPECT_EQ(answer.find("HTTP/1.1 200"), std::string::npos) << answer;
  Result<ClientResponse> answered = https.Ask("GET", "/status", https.certificate.certificate);
  EXPECT_TRUE(answered) << answered.error_message();
}

TEST(HttpsServer, AKeyThatIsNotItsCertificatesIsRefusedNamingBothFiles) {
  mc::testing::TempDir directory;
  const testing::TestCertificate one = MakeTestCertificate(directory.path().string(), "DNS:a", "a");
  const testing::TestCertificate other =
      MakeTestCertificate(directory.path().string(), "DNS:b", "b");
  Result<std::shared_ptr<const ServerTls>> tls =
      ServerTls::Load({.certificate_file = one.certificate, .key_file = other.key});
  ASSERT_FALSE(tls);
  EXPECT_TRUE(tls.error().IsInvalidInput()) << tls.error_message();
  EXPECT_NE(tls.error_message().find(other.key), std::string::npos) << tls.error_message();
  EXPECT_NE(tls.error_message().find(one.certificate), std::string::npos) << tls.error_message();
}

TEST(HttpsServer, ACertificateFileThatIsMissingIsRefusedNamingIt) {
  Result<std::shared_ptr<const ServerTls>> tls =
      ServerTls::Load({.certificate_file = "/nonexistent/cert.pem", .key_file = "/nonexistent/k"});
  ASSERT_FALSE(tls);
  EXPECT_NE(tls.error_message().find("/nonexistent/cert.pem"), std::string::npos)
      << tls.error_message();
}

}  // namespace mc::http
