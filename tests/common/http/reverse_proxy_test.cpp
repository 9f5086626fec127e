// The reverse proxy between real clients (raw sockets, curl, Python's http.client) and a real
// upstream (Python's http.server): what passes unchanged, what streams, what is tunnelled,
// and that no client can hold it up.
#include "common/http/reverse_proxy.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

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
using testing::PeerProcess;

Url ParsedUrl(const std::string& text) {
  Result<Url> url = ParseUrl(text);
  EXPECT_TRUE(url) << url.error_message();
  return url ? *url : Url{};
}

std::unique_ptr<ReverseProxy> StartProxy(const std::string& upstream, ProxyHooks hooks = {},
                                         ProxyLimits limits = {}) {
  Result<std::unique_ptr<ReverseProxy>> proxy =
      ReverseProxy::Start("127.0.0.1:0", ParsedUrl(upstream), std::move(hooks), limits);
  EXPECT_TRUE(proxy) << proxy.error_message();
  return proxy ? std::move(*proxy) : nullptr;
}

std::string Shell(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return output;
  char buffer[4096];
  while (std::size_t got = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
  pclose(pipe);
  return output;
}

std::string EchoedHeader(const nlohmann::json& echo, const std::string& name) {
  for (const auto& header : echo["headers"]) {
    if (header[0] == name) return header[1];
  }
  return "";
}

// Records keeps what the observer saw, for the test's thread. The observer hears of an
// exchange once it has ended, which is after the client has read the last byte of the answer,
// so the test waits for it (a few seconds at most) rather than looking at once.
struct Records {
  std::mutex mutex;
  std::condition_variable arrived;
  std::vector<ExchangeRecord> seen;
  ProxyHooks Hooks() {
    return {.observe = [this](const ExchangeRecord& record) {
      std::lock_guard lock(mutex);
      seen.push_back(record);
      arrived.notify_all();
    }};
  }
  std::vector<ExchangeRecord> AfterOne() {
    std::unique_lock lock(mutex);
    arrived.wait_for(lock, std::chrono::seconds(5), [this] { return !seen.empty(); });
    return seen;
  }
};

TEST(ReverseProxy, ForwardsMethodTargetHeadersAndBodyUnchanged) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  Records records;
  auto proxy = StartProxy(peer.Origin(), records.Hooks());
  ASSERT_TRUE(proxy);
  const std::string answer = Exchange(
      proxy->port(),
      "PUT /echo?job=1&x=%20 HTTP/1.1\r\nHost: gate.example\r\nX-Runner: r1\r\n"
      "Content-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: 13\r\n\r\n"
      "{\"token\":\"t\"}");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK");
  EXPECT_EQ(Header(answer, "Connection"), "close");
  const nlohmann::json echo = nlohmann::json::parse(Body(answer));
  EXPECT_EQ(echo["method"], "PUT");
  EXPECT_EQ(echo["target"], "/echo?job=1&x=%20");
  EXPECT_EQ(echo["body"], "{\"token\":\"t\"}");
  EXPECT_EQ(EchoedHeader(echo, "X-Runner"), "r1");
  EXPECT_EQ(EchoedHeader(echo, "Content-Type"), "application/json");
  EXPECT_EQ(EchoedHeader(echo, "Host"), "127.0.0.1:" + std::to_string(peer.port()));
  EXPECT_EQ(EchoedHeader(echo, "Connection"), "close");
  const std::vector<ExchangeRecord> seen = records.AfterOne();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "PUT");
  EXPECT_EQ(seen[0].path, "/echo");
  EXPECT_EQ(seen[0].status, 200);
  EXPECT_EQ(seen[0].bytes_up, 13u);
  EXPECT_EQ(seen[0].bytes_down, Body(answer).size());
}

TEST(ReverseProxy, StreamsA64MiBChunkedUploadWithoutHoldingIt) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  Records records;
  auto proxy = StartProxy(peer.Origin(), records.Hooks());
  ASSERT_TRUE(proxy);
  mc::testing::TempDir directory;
  const std::string file = (directory.path() / "upload.bin").string();
  ASSERT_EQ(std::system(("head -c 67108864 /dev/urandom > " + file).c_str()), 0);
  const std::string sha = Shell("sha256sum " + file).substr(0, 64);

  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const std::string answer = Shell("curl -s -H 'Transfer-Encoding: chunked' --data-binary @" +
                                   file + " http://" + proxy->address() + "/echo");
  rusage after{};
  getrusage(RUSAGE_SELF, &after);
  ASSERT_FALSE(answer.empty());
  const nlohmann::json echo = nlohmann::json::parse(answer);
  EXPECT_EQ(echo["body_length"], 67108864);
  EXPECT_EQ(echo["body_sha256"], sha);
  // The peak resident size may grow by buffers, not by the upload.
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 16 * 1024) << "KiB";
  const std::vector<ExchangeRecord> seen = records.AfterOne();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_GT(seen[0].bytes_up, 67108864u) << "the chunk framing is counted too";
}

TEST(ReverseProxy, ForwardsAnUploadThatAsksFor100Continue) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin());
  ASSERT_TRUE(proxy);
  mc::testing::TempDir directory;
  const std::string file = (directory.path() / "upload.bin").string();
  ASSERT_EQ(std::system(("head -c 3000000 /dev/zero > " + file).c_str()), 0);
  const std::string answer = Shell("curl -s -H 'Expect: 100-continue' --data-binary @" + file +
                                   " http://" + proxy->address() + "/echo");
  ASSERT_FALSE(answer.empty());
  EXPECT_EQ(nlohmann::json::parse(answer)["body_length"], 3000000);
}

TEST(ReverseProxy, PassesAChunkedAnswerDownAsItCame) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin());
  ASSERT_TRUE(proxy);
  const std::string answer = Exchange(proxy->port(), "GET /chunked?parts=2 HTTP/1.1\r\n\r\n");
  EXPECT_EQ(Header(answer, "Transfer-Encoding"), "chunked");
  EXPECT_EQ(Body(answer), "7\r\npart 0;\r\n7\r\npart 1;\r\n0\r\n\r\n");
  Result<ClientResponse> decoded =
      Request(ParsedUrl("http://" + proxy->address() + "/chunked?parts=4"), {});
  ASSERT_TRUE(decoded) << decoded.error_message();
  EXPECT_EQ(decoded->body, "part 0;part 1;part 2;part 3;");
}

TEST(ReverseProxy, AnswersBadGatewayInOneLineWhenTheUpstreamIsDown) {
  Result<Listener> listener = Listen("127.0.0.1:0");
  ASSERT_TRUE(listener);
  const int port = listener->port;
  close(listener->fd);
  Records records;
  auto proxy = StartProxy("http://127.0.0.1:" + std::to_string(port), records.Hooks());
  ASSERT_TRUE(proxy);
  const std::string answer = Exchange(proxy->port(), "GET /x HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 502 Bad Gateway");
  const std::string body = Body(answer);
  EXPECT_EQ(body.find('\n'), body.size() - 1) << body;
  EXPECT_NE(body.find("the upstream could not be reached"), std::string::npos) << body;
  EXPECT_NE(body.find("refused"), std::string::npos) << body;
  const std::vector<ExchangeRecord> seen = records.AfterOne();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].status, 502);
  EXPECT_FALSE(seen[0].error.empty());
}

// Frame is a WebSocket frame as a client sends it: final, masked.
std::string Frame(const std::string& payload) {
  std::string frame = {static_cast<char>(0x81), static_cast<char>(0x80 | payload.size())};
  const char mask[4] = {1, 2, 3, 4};
  frame.append(mask, 4);
  for (std::size_t i = 0; i < payload.size(); ++i)
    frame += static_cast<char>(payload[i] ^ mask[i % 4]);
  return frame;
}

std::string ReadExactly(int fd, std::size_t size) {
  std::string data;
  char buffer[4096];
  while (data.size() < size) {
    const ssize_t got = read(fd, buffer, std::min(sizeof buffer, size - data.size()));
    if (got <= 0) break;
    data.append(buffer, static_cast<std::size_t>(got));
  }
  return data;
}

TEST(ReverseProxy, TunnelsAWebSocketBothWaysAfterTheUpstreamsSwitch) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  Records records;
  auto proxy = StartProxy(peer.Origin(), records.Hooks());
  ASSERT_TRUE(proxy);
  const int fd = mc::testing::Connect(proxy->port());
  ASSERT_GE(fd, 0);
  const std::string upgrade =
      "GET /ws?EIO=4&transport=websocket HTTP/1.1\r\nHost: gate\r\nConnection: Upgrade\r\n"
      "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
  ASSERT_EQ(write(fd, upgrade.data(), upgrade.size()), static_cast<ssize_t>(upgrade.size()));
  std::string head;
  while (head.find("\r\n\r\n") == std::string::npos) {
    const std::string more = ReadExactly(fd, 1);
    if (more.empty()) break;
    head += more;
  }
  EXPECT_EQ(StatusLine(head), "HTTP/1.1 101 Switching Protocols");
  EXPECT_EQ(Header(head, "Sec-WebSocket-Accept"), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  for (const std::string message : {"40", "42[\"available-jobs\"]"}) {
    const std::string frame = Frame(message);
    ASSERT_EQ(write(fd, frame.data(), frame.size()), static_cast<ssize_t>(frame.size()));
    const std::string echoed = ReadExactly(fd, 2 + message.size());
    ASSERT_EQ(echoed.size(), 2 + message.size());
    EXPECT_EQ(echoed.substr(2), message);
  }
  close(fd);
  // The observer hears of the tunnel once it has closed.
  const std::vector<ExchangeRecord> seen = records.AfterOne();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].websocket);
  EXPECT_EQ(seen[0].status, 101);
  EXPECT_EQ(seen[0].bytes_up, Frame("40").size() + Frame("42[\"available-jobs\"]").size());
}

TEST(ReverseProxy, ServesAKeepAliveClientRequestAfterRequest) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin());
  ASSERT_TRUE(proxy);
  const std::string base = "http://" + proxy->address();
  EXPECT_EQ(Shell("curl -s -w '%{http_code} ' -o /dev/null " + base + "/echo -o /dev/null " + base +
                  "/big?bytes=10 -o /dev/null " + base + "/echo"),
            "200 200 200 ");
  // Python's http.client keeps one connection object and reopens it when told to close.
  const std::string script =
      "import http.client, json\n"
      "c = http.client.HTTPConnection('127.0.0.1', " +
      std::to_string(proxy->port()) +
      ")\n"
      "for i in range(3):\n"
      "  c.request('POST', '/echo', body=b'x' * (i + 1), headers={'Connection': 'keep-alive'})\n"
      "  r = c.getresponse(); print(r.status, json.loads(r.read())['body_length'], end=' ')\n";
  mc::testing::TempDir directory;
  std::ofstream(directory.path() / "client.py") << script;
  EXPECT_EQ(Shell(std::string(TEST_PYTHON) + " " + (directory.path() / "client.py").string()),
            "200 1 200 2 200 3 ");
}

TEST(ReverseProxy, ASlowClientDoesNotHoldUpAnother) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin());
  ASSERT_TRUE(proxy);
  const int slow = mc::testing::Connect(proxy->port());
  ASSERT_GE(slow, 0);
  ASSERT_EQ(write(slow, "POST /echo HTTP/1.1\r\nContent-Le", 31), 31);
  const int uploading = mc::testing::Connect(proxy->port());
  const std::string partial = "POST /echo HTTP/1.1\r\nContent-Length: 1000\r\n\r\nabc";
  ASSERT_EQ(write(uploading, partial.data(), partial.size()), static_cast<ssize_t>(partial.size()));
  const auto start = steady_clock::now();
  const std::string answer = Exchange(proxy->port(), "GET /echo HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK");
  EXPECT_LT(steady_clock::now() - start, milliseconds(1000));
  close(slow);
  close(uploading);
}

// The gate's runner shares it with any local process. Clients holding every slot without a
// request (some silent, some with half a head) do not keep the runner's request out: the one
// that has waited longest makes room, as in the small servers.
TEST(ReverseProxy, ARequestGetsThroughPromptlyWhileSeventyIdleConnectionsAreHeld) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin());
  ASSERT_TRUE(proxy);
  std::vector<int> idle;
  for (int i = 0; i < 70; ++i) {
    const int fd = mc::testing::Connect(proxy->port());
    ASSERT_GE(fd, 0) << "connection " << i;
    if (i % 2) {
      ASSERT_EQ(write(fd, "POST /echo HTTP/1.1\r\nHost", 26), 26);
    }
    idle.push_back(fd);
  }
  std::this_thread::sleep_for(milliseconds(200));
  const auto start = steady_clock::now();
  const std::string answer = Exchange(proxy->port(), "GET /echo HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK");
  EXPECT_LT(steady_clock::now() - start, milliseconds(1000));
  for (const int fd : idle) close(fd);
}

TEST(ReverseProxy, AClientThatSendsNothingIsLetGoAfterTheFirstByteTimeout) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin(), {}, {.first_byte_timeout = milliseconds(200)});
  ASSERT_TRUE(proxy);
  const int silent = mc::testing::Connect(proxy->port());
  ASSERT_GE(silent, 0);
  timeval wait{.tv_sec = 5, .tv_usec = 0};
  setsockopt(silent, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  const auto start = steady_clock::now();
  char byte = 0;
  EXPECT_EQ(read(silent, &byte, 1), 0) << "closed without an answer";
  EXPECT_LT(steady_clock::now() - start, milliseconds(2000));
  close(silent);
  // A client that has begun its head has the whole head timeout.
  const std::string answer = Exchange(proxy->port(), "GET /echo HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK");
}

TEST(ReverseProxy, StopsAtOnceWithClientsAndTunnelsOpen) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  auto proxy = StartProxy(peer.Origin());
  ASSERT_TRUE(proxy);
  const int idle = mc::testing::Connect(proxy->port());
  const int slow_answer = mc::testing::Connect(proxy->port());
  const std::string request = "GET /slow?ms=5000 HTTP/1.1\r\n\r\n";
  ASSERT_EQ(write(slow_answer, request.data(), request.size()),
            static_cast<ssize_t>(request.size()));
  std::this_thread::sleep_for(milliseconds(200));
  const auto start = steady_clock::now();
  proxy.reset();
  EXPECT_LT(steady_clock::now() - start, milliseconds(1500));
  close(idle);
  close(slow_answer);
}

TEST(ReverseProxy, LetsAHookRewriteAnInterceptedAnswer) {
  PeerProcess peer;
  ASSERT_GT(peer.port(), 0);
  ProxyHooks hooks{
      .plan =
          [](const RequestHead& head) {
            return Plan{.handling =
                            head.Path() == "/echo" ? Handling::kIntercept : Handling::kForward};
          },
      .rewrite =
          [](const ProxyRequest& request, ProxyResponse& response) {
            nlohmann::json echo = nlohmann::json::parse(response.body);
            response.body =
                "seen " + std::to_string(request.body.size()) + " bytes, upstream got " +
                std::to_string(echo["body_length"].get<int>()) + " and " + echo["headers"].dump();
          },
  };
  auto proxy = StartProxy(peer.Origin(), hooks);
  ASSERT_TRUE(proxy);
  const std::string answer =
      Exchange(proxy->port(),
               "POST /echo HTTP/1.1\r\nAccept-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
               "3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK");
  const std::string body = Body(answer);
  EXPECT_EQ(Header(answer, "Content-Length"), std::to_string(body.size()));
  EXPECT_EQ(body.rfind("seen 5 bytes, upstream got 5 and ", 0), 0u) << body;
  EXPECT_NE(body.find(R"(["Accept-Encoding","identity"])"), std::string::npos) << body;
  EXPECT_NE(body.find(R"(["Content-Length","5"])"), std::string::npos) << body;
}

TEST(ReverseProxy, AnswersLocallyWithoutTheUpstream) {
  std::atomic<int> planned{0};
  ProxyHooks hooks{.plan = [&](const RequestHead&) {
    ++planned;
    Plan plan{.handling = Handling::kAnswer};
    plan.answer.head.status = 503;
    plan.answer.body = "draining\n";
    return plan;
  }};
  auto proxy = StartProxy("http://127.0.0.1:1", hooks);
  ASSERT_TRUE(proxy);
  const std::string answer = Exchange(proxy->port(), "GET /x HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 503 Service Unavailable");
  EXPECT_EQ(Body(answer), "draining\n");
  EXPECT_EQ(planned, 1);
}

TEST(ReverseProxy, ForwardsToAnHttpsUpstream) {
  mc::testing::TempDir directory;
  const testing::TestCertificate certificate =
      testing::MakeTestCertificate(directory.path().string());
  ASSERT_FALSE(certificate.certificate.empty());
  PeerProcess peer({"--tls", certificate.certificate, certificate.key});
  ASSERT_GT(peer.port(), 0);
  ProxyLimits limits;
  limits.transport.ca_file = certificate.certificate;
  auto proxy = StartProxy(peer.Origin("https"), {}, limits);
  ASSERT_TRUE(proxy);
  const std::string answer =
      Exchange(proxy->port(), "POST /echo HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi");
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 200 OK");
  EXPECT_EQ(nlohmann::json::parse(Body(answer))["body"], "hi");
  const std::string big = Exchange(proxy->port(), "GET /big?bytes=3000000 HTTP/1.1\r\n\r\n");
  EXPECT_EQ(Body(big).size(), 3000000u);
}

}  // namespace
}  // namespace mc::http
