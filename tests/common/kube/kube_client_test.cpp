// The client against a canned server, for what the real API server does too rarely to test
// against it (tests/common/kube/kube_client_cluster_test.cpp tests the rest there).
#include "common/kube/kube_client.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/kube/canned_http_server.h"
#include "common/kube/line_splitter.h"
#include "support/temp_dir.h"

namespace mc::kube {
namespace {

using testing::CannedHttpServer;

std::unique_ptr<KubeClient> ClientOf(const std::string& server, std::string token = "secret") {
  KubeConfig config;
  config.server = server;
  config.token = std::move(token);
  Result<std::unique_ptr<KubeClient>> client = KubeClient::Create(std::move(config));
  EXPECT_TRUE(client) << client.error_message();
  return client ? std::move(client).value() : nullptr;
}

// A server that answers each request with `answer`, whole, and closes the connection.
CannedHttpServer AnsweringWith(std::string answer) {
  return CannedHttpServer(
      [answer = std::move(answer)](const std::string&, const CannedHttpServer::Send& send) {
        send(answer);
      });
}

// WatchUntilItEnds runs a watch that only the server ends, keeping its lines.
Result<KubeClient::WatchEnd> WatchUntilItEnds(KubeClient& client, const std::string& target,
                                              std::vector<std::string>& lines) {
  return client.Watch(
      target, [&](std::string_view line) { lines.emplace_back(line); }, [] { return false; });
}

// A chunked answer, written the way the API server streams a watch.
std::string Chunk(const std::string& data) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  return size + data + "\r\n";
}
const char* const kChunkedHead =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";

TEST(KubeClient, ARequestCarriesItsMethodBodyTokenAndContentType) {
  CannedHttpServer server =
      AnsweringWith("HTTP/1.1 201 Created\r\nContent-Length: 11\r\n\r\n{\"ok\":true}");
  auto client = ClientOf(server.url());
  HttpRequest request;
  request.method = "PATCH";
  request.target = "/apis/x/v1/things/a";
  request.body = R"({"spec":{}})";
  request.content_type = "application/merge-patch+json";
  Result<HttpResponse> response = client->Send(request);
  ASSERT_TRUE(response) << response.error_message();
  EXPECT_EQ(response->status, 201);
  EXPECT_EQ(response->body, R"({"ok":true})");
  EXPECT_FALSE(response->retry_after);
  const std::string sent = server.requests().at(0);
  EXPECT_TRUE(sent.starts_with("PATCH /apis/x/v1/things/a HTTP/1.1\r\n")) << sent;
  EXPECT_NE(sent.find("Authorization: Bearer secret\r\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("Content-Type: application/merge-patch+json\r\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("User-Agent: media-capabilities\r\n"), std::string::npos) << sent;
  EXPECT_TRUE(sent.ends_with("\r\n\r\n{\"spec\":{}}")) << sent;

  const Traffic traffic = client->traffic();
  EXPECT_EQ(traffic.requests, 1u);
  EXPECT_EQ(traffic.bytes_sent, request.body.size());
  EXPECT_EQ(traffic.bytes_received, 11u);
}

TEST(KubeClient, ADeleteWithoutBodySendsNone) {
  CannedHttpServer server = AnsweringWith("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
  auto client = ClientOf(server.url(), "");
  Result<HttpResponse> response = client->Send({.method = "DELETE", .target = "/api/v1/nodes/n"});
  ASSERT_TRUE(response) << response.error_message();
  const std::string sent = server.requests().at(0);
  EXPECT_TRUE(sent.starts_with("DELETE /api/v1/nodes/n HTTP/1.1\r\n")) << sent;
  EXPECT_EQ(sent.find("Content-Type"), std::string::npos) << sent;
  EXPECT_EQ(sent.find("Authorization"), std::string::npos) << sent;
}

TEST(KubeClient, TooManyRequestsCarriesRetryAfter) {
  CannedHttpServer server = AnsweringWith(
      "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n");
  auto client = ClientOf(server.url());
  Result<HttpResponse> response = client->Send({.target = "/api"});
  ASSERT_TRUE(response) << response.error_message();
  EXPECT_EQ(response->status, 429);
  EXPECT_EQ(response->retry_after, std::chrono::seconds(7));
}

TEST(KubeClient, ANonAnswerIsAnErrorNamingMethodAndTarget) {
  // A port that was just free: nothing listens there now.
  std::string url;
  {
    CannedHttpServer gone([](const std::string&, const CannedHttpServer::Send&) {});
    url = gone.url();
  }
  auto client = ClientOf(url);
  Result<HttpResponse> response = client->Send({.target = "/version"});
  ASSERT_FALSE(response);
  EXPECT_TRUE(response.error_message().starts_with("GET /version: ")) << response.error_message();
  EXPECT_EQ(client->traffic().requests, 0u);
}

TEST(KubeClient, ARequestPastItsDeadlineIsAnError) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send&) {},
                          CannedHttpServer::AfterAnswer::kHold);
  KubeConfig config;
  config.server = server.url();
  ClientSettings settings;
  settings.request_timeout = std::chrono::milliseconds(300);
  auto client = KubeClient::Create(config, settings).value();
  const auto start = std::chrono::steady_clock::now();
  Result<HttpResponse> response = client->Send({.target = "/slow"});
  ASSERT_FALSE(response);
  EXPECT_TRUE(response.error_message().starts_with("GET /slow: ")) << response.error_message();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
}

TEST(KubeClient, AnUnreadableTokenFileIsAnErrorBeforeAnythingIsSent) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send&) {});
  KubeConfig config;
  config.server = server.url();
  config.token_file = "/no/such/token";
  auto client = KubeClient::Create(config).value();
  Result<HttpResponse> response = client->Send({.target = "/version"});
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error_message(),
            "GET /version: token file /no/such/token: No such file or directory");
  EXPECT_TRUE(server.requests().empty());
}

TEST(KubeClient, CreateRefusesWhatCannotWork) {
  KubeConfig config;
  config.server = "127.0.0.1:6443";
  EXPECT_FALSE(KubeClient::Create(config));
  config.server = "https://127.0.0.1:6443";
  config.client_cert_pem = "cert";
  EXPECT_FALSE(KubeClient::Create(config));
  config.client_key_pem = "key";
  EXPECT_TRUE(KubeClient::Create(config));
}

TEST(KubeClient, AMalformedRequestIsRefused) {
  auto client = ClientOf("http://127.0.0.1:1");
  EXPECT_FALSE(client->Send({.method = "GET\r\nX: y", .target = "/"}));
  EXPECT_FALSE(client->Send({.target = "version"}));
  Result<HttpResponse> get_with_body = client->Send({.target = "/x", .body = "{}"});
  ASSERT_FALSE(get_with_body);
  EXPECT_EQ(get_with_body.error_message(), "GET /x: a GET carries no body");
}

TEST(KubeClient, AWatchGivesEachLineWhateverPiecesItArrivesIn) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send(kChunkedHead);
    send(Chunk("{\"type\":\"ADDED\"}\n{\"ty"));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    send(Chunk("pe\":\"MODIFIED\"}\n"));
    send(Chunk("{\"type\":\"DELETED\"}"));  // the last line lacks its newline
    send("0\r\n\r\n");
  });
  auto client = ClientOf(server.url());
  std::vector<std::string> lines;
  Result<KubeClient::WatchEnd> end =
      WatchUntilItEnds(*client, "/apis/x/v1/things?watch=true", lines);
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_EQ(end->status, 200);
  EXPECT_FALSE(end->stopped);
  EXPECT_EQ(lines, (std::vector<std::string>{R"({"type":"ADDED"})", R"({"type":"MODIFIED"})",
                                             R"({"type":"DELETED"})"}));
  EXPECT_EQ(client->traffic().requests, 1u);
  EXPECT_GT(client->traffic().bytes_received, 0u);
}

TEST(KubeClient, AWatchRefusedGivesTheBodyAsItsError) {
  CannedHttpServer server = AnsweringWith(
      "HTTP/1.1 403 Forbidden\r\nContent-Length: "
      "36\r\n\r\n{\"kind\":\"Status\",\"message\":\"nope\"}\n\n");
  auto client = ClientOf(server.url());
  bool any_line = false;
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/apis/x/v1/things?watch=true", [&](std::string_view) { any_line = true; },
      [] { return false; });
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_EQ(end->status, 403);
  EXPECT_FALSE(any_line);
  EXPECT_EQ(StatusMessage({.status = end->status, .body = end->error_body}), "HTTP 403: nope");
}

TEST(KubeClient, StopEndsASilentWatchWithinASecond) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) {
        send(kChunkedHead);
        send(Chunk("{\"type\":\"ADDED\"}\n"));
      },
      CannedHttpServer::AfterAnswer::kHold);
  auto client = ClientOf(server.url());
  std::atomic<bool> stop{false};
  std::atomic<bool> got_line{false};
  std::chrono::steady_clock::time_point stopped_at;
  std::thread stopper([&] {
    while (!got_line) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    stopped_at = std::chrono::steady_clock::now();
    stop = true;
  });
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/w?watch=true", [&](std::string_view) { got_line = true; }, [&] { return stop.load(); });
  const auto returned_at = std::chrono::steady_clock::now();
  stopper.join();
  const auto took = returned_at - stopped_at;
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_TRUE(end->stopped);
  EXPECT_EQ(end->status, 200);
  EXPECT_LT(took, std::chrono::milliseconds(1300));
}

TEST(KubeClient, AnExceptionFromTheLineCallbackReachesTheCaller) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send(kChunkedHead);
    send(Chunk("{}\n"));
    send("0\r\n\r\n");
  });
  auto client = ClientOf(server.url());
  EXPECT_THROW(
      client->Watch(
          "/w?watch=true", [](std::string_view) { throw std::runtime_error("caller's own"); },
          [] { return false; }),
      std::runtime_error);
}

TEST(KubeClient, AHandleBackFromThePoolServesTheNextRequest) {
  // The server closes each connection after its answer, so each request from a pooled
  // handle must see that and connect again.
  CannedHttpServer server =
      AnsweringWith("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
  auto client = ClientOf(server.url());
  for (int i = 0; i < 5; ++i) {
    Result<HttpResponse> response = client->Send({.target = "/x"});
    ASSERT_TRUE(response) << response.error_message();
    EXPECT_EQ(response->status, 200);
  }
  EXPECT_EQ(client->traffic().requests, 5u);
}

TEST(KubeClient, APostWithoutBodySaysItsLengthIsZero) {
  CannedHttpServer server = AnsweringWith("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
  auto client = ClientOf(server.url());
  ASSERT_TRUE(client->Send({.method = "POST", .target = "/x"}));
  const std::string sent = server.requests().at(0);
  EXPECT_NE(sent.find("\r\nContent-Length: 0\r\n"), std::string::npos) << sent;
  EXPECT_NE(sent.find("\r\nHost: 127.0.0.1:"), std::string::npos) << sent;
  EXPECT_NE(sent.find("\r\nAccept: application/json\r\n"), std::string::npos) << sent;
}

TEST(KubeClient, ATargetWithALineBreakIsRefused) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send&) {});
  auto client = ClientOf(server.url());
  Result<HttpResponse> response = client->Send({.target = "/x HTTP/1.1\r\nX-Evil: 1"});
  ASSERT_FALSE(response);
  EXPECT_TRUE(server.requests().empty());
}

const char* const kKeptAnswer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";

TEST(KubeClient, AConnectionIsReusedForTheNextRequest) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) { send(kKeptAnswer); },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  for (int i = 0; i < 3; ++i) {
    Result<HttpResponse> response = client->Send({.target = "/x"});
    ASSERT_TRUE(response) << response.error_message();
    EXPECT_EQ(response->body, "{}");
  }
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(server.connections(), 1);
}

TEST(KubeClient, AnIdleConnectionTheServerClosedIsReplacedByANewOne) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) {
        send(kKeptAnswer);
        send.Close();
      },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  ASSERT_TRUE(client->Send({.target = "/first"}));
  Result<HttpResponse> second = client->Send({.target = "/second"});
  ASSERT_TRUE(second) << second.error_message();
  EXPECT_EQ(second->status, 200);
  EXPECT_EQ(server.connections(), 2);
}

// DropsTheSecondRequest keeps its connections open and closes the one the second request
// came on without answering it, as a server does whose idle timeout struck as it came.
struct DropsTheSecondRequest {
  std::atomic<int> seen{0};
  // Declared after the count, so that its threads stop before the count goes.
  CannedHttpServer server{[this](const std::string&, const CannedHttpServer::Send& send) {
                            if (++seen == 2) {
                              send.Close();
                              return;
                            }
                            send(kKeptAnswer);
                          },
                          CannedHttpServer::AfterAnswer::kKeepAlive};
};

TEST(KubeClient, ARequestOnAKeptConnectionTheServerDropsIsSentAgainOnANewOne) {
  DropsTheSecondRequest dropping;
  CannedHttpServer& server = dropping.server;
  auto client = ClientOf(server.url());
  ASSERT_TRUE(client->Send({.target = "/first"}));
  Result<HttpResponse> second = client->Send({.method = "PUT", .target = "/second", .body = "{}"});
  ASSERT_TRUE(second) << second.error_message();
  EXPECT_EQ(second->body, "{}");
  const std::vector<std::string> requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_TRUE(requests[1].starts_with("PUT /second ")) << requests[1];
  EXPECT_EQ(requests[2], requests[1]);
  EXPECT_EQ(server.connections(), 2);
}

TEST(KubeClient, ARequestOnAFreshConnectionTheServerDropsIsNotSentAgain) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send&) {});
  auto client = ClientOf(server.url());
  Result<HttpResponse> response = client->Send({.target = "/dropped"});
  ASSERT_FALSE(response);
  EXPECT_EQ(response.error_code(), ErrorCode::kUnavailable);
  EXPECT_TRUE(response.error_message().starts_with("GET /dropped: http://127.0.0.1:"))
      << response.error_message();
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST(KubeClient, AnAnswerThatSaysConnectionCloseEndsItsConnection) {
  // The server keeps reading, so a client that reused the connection would be answered there.
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) {
        send("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
      },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  ASSERT_TRUE(client->Send({.target = "/a"}));
  ASSERT_TRUE(client->Send({.target = "/b"}));
  EXPECT_EQ(server.connections(), 2);
}

TEST(KubeClient, AChunkedAnswerIsReadWholeAndItsConnectionKept) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) {
        send(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4;x=y\r\n\":1}"
            "\r\n0\r\n\r\n");
      },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  for (int i = 0; i < 2; ++i) {
    Result<HttpResponse> response = client->Send({.target = "/c"});
    ASSERT_TRUE(response) << response.error_message();
    EXPECT_EQ(response->body, R"({"a":1})");
  }
  EXPECT_EQ(server.connections(), 1);
  EXPECT_EQ(client->traffic().bytes_received, 14u);
}

TEST(KubeClient, AnAnswerThatRunsUntilCloseIsReadWhole) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send("HTTP/1.1 200 OK\r\n\r\n{\"whole\":");
    send("true}");
  });
  auto client = ClientOf(server.url());
  Result<HttpResponse> response = client->Send({.target = "/u"});
  ASSERT_TRUE(response) << response.error_message();
  EXPECT_EQ(response->body, R"({"whole":true})");
}

TEST(KubeClient, ABodyShorterThanItsContentLengthOrAMalformedOneIsAnError) {
  for (const std::string& answer :
       {std::string("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{\"a\""),
        std::string("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")}) {
    CannedHttpServer server = AnsweringWith(answer);
    auto client = ClientOf(server.url());
    Result<HttpResponse> response = client->Send({.target = "/short"});
    ASSERT_FALSE(response) << answer;
    EXPECT_EQ(response.error_code(), ErrorCode::kUnavailable) << answer;
    EXPECT_TRUE(response.error_message().starts_with("GET /short: ")) << response.error_message();
  }
}

TEST(KubeClient, ADateInRetryAfterIsRead) {
  CannedHttpServer server = AnsweringWith(
      "HTTP/1.1 503 Service Unavailable\r\nRetry-After: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
      "Content-Length: 0\r\n\r\n");
  auto client = ClientOf(server.url());
  Result<HttpResponse> response = client->Send({.target = "/api"});
  ASSERT_TRUE(response) << response.error_message();
  EXPECT_EQ(response->retry_after, std::chrono::seconds(0));  // a date long past
}

TEST(KubeClient, ManyThreadsShareTheClientAndItsConnections) {
  CannedHttpServer server(
      [](const std::string&, const CannedHttpServer::Send& send) { send(kKeptAnswer); },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 20; ++i) {
        if (client->Send({.target = "/x"})) ++answered;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(answered, 80);
  EXPECT_EQ(client->traffic().requests, 80u);
  EXPECT_LE(server.connections(), 4);
}

TEST(KubeClient, AtMostEightIdleConnectionsAreKept) {
  // Each round holds twelve requests in flight at once: twelve connections. Of those, eight
  // wait for the next round, which must open four more.
  constexpr int kInFlight = 12;
  std::mutex mutex;
  std::condition_variable arrived;
  int waiting = 0;
  CannedHttpServer server(
      [&](const std::string&, const CannedHttpServer::Send& send) {
        std::unique_lock lock(mutex);
        const int round = waiting++ / kInFlight;
        arrived.notify_all();
        arrived.wait(lock, [&] { return waiting >= (round + 1) * kInFlight; });
        send(kKeptAnswer);
      },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  for (int round = 0; round < 2; ++round) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kInFlight; ++t) {
      threads.emplace_back([&] { EXPECT_TRUE(client->Send({.target = "/x"})); });
    }
    for (std::thread& thread : threads) thread.join();
  }
  EXPECT_EQ(server.connections(), kInFlight + (kInFlight - 8));
}

TEST(KubeClient, AWatchReadsChunksCutAtEveryByte) {
  // Every byte of the chunked coding alone: sizes, extensions, line ends and data all cut.
  const std::string stream = std::string(kChunkedHead) + "a;name=value\r\n{\"n\":1}\n{\"\r\n" +
                             "D\r\nn\":2}\r\n{\"n\":3\r\n2\r\n}\n\r\n0\r\nTrailer: x\r\n\r\n";
  CannedHttpServer server([&](const std::string&, const CannedHttpServer::Send& send) {
    for (char c : stream) {
      send(std::string(1, c));
      std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
  });
  auto client = ClientOf(server.url());
  std::vector<std::string> lines;
  Result<KubeClient::WatchEnd> end = WatchUntilItEnds(*client, "/w?watch=true", lines);
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_EQ(end->status, 200);
  EXPECT_EQ(lines, (std::vector<std::string>{R"({"n":1})", R"({"n":2})", R"({"n":3})"}));
  EXPECT_EQ(client->traffic().bytes_received, 25u);
}

TEST(KubeClient, AWatchBodyByLengthOrUntilCloseGivesItsLines) {
  for (const std::string& answer :
       {std::string("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n{\"a\":1}\n{}\nextra"),
        std::string("HTTP/1.1 200 OK\r\n\r\n{\"a\":1}\n{}")}) {
    CannedHttpServer server = AnsweringWith(answer);
    auto client = ClientOf(server.url());
    std::vector<std::string> lines;
    Result<KubeClient::WatchEnd> end = WatchUntilItEnds(*client, "/w?watch=true", lines);
    ASSERT_TRUE(end) << end.error_message();
    EXPECT_EQ(lines, (std::vector<std::string>{R"({"a":1})", "{}"})) << answer;
  }
}

TEST(KubeClient, AWatchThatBreaksOffMidBodyIsAnError) {
  for (const std::string& answer :
       {std::string(kChunkedHead) + Chunk("{\"type\":\"ADDED\"}\n") + "20\r\n{\"ty",
        std::string("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{}\n")}) {
    CannedHttpServer server = AnsweringWith(answer);
    auto client = ClientOf(server.url());
    int lines = 0;
    Result<KubeClient::WatchEnd> end = client->Watch(
        "/w?watch=true", [&](std::string_view) { ++lines; }, [] { return false; });
    ASSERT_FALSE(end) << answer;
    EXPECT_EQ(end.error_code(), ErrorCode::kUnavailable);
    EXPECT_TRUE(end.error_message().starts_with("watch /w?watch=true: ")) << end.error_message();
    EXPECT_EQ(lines, 1);
  }
}

TEST(KubeClient, AWatchLineOverTheLimitIsAnError) {
  CannedHttpServer server =
      AnsweringWith(std::string(kChunkedHead) +
                    Chunk(std::string(LineSplitter::kMaxLine + 1, 'x')) + "0\r\n\r\n");
  auto client = ClientOf(server.url());
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/w?watch=true", [](std::string_view) {}, [] { return false; });
  ASSERT_FALSE(end);
  EXPECT_NE(end.error_message().find("a line longer than"), std::string::npos)
      << end.error_message();
}

TEST(KubeClient, AWatchsConnectionIsNotKeptForRequests) {
  CannedHttpServer server(
      [](const std::string& request, const CannedHttpServer::Send& send) {
        if (request.starts_with("GET /w")) {
          send(std::string(kChunkedHead) + Chunk("{}\n") + "0\r\n\r\n");
        } else {
          send(kKeptAnswer);
        }
      },
      CannedHttpServer::AfterAnswer::kKeepAlive);
  auto client = ClientOf(server.url());
  ASSERT_TRUE(client->Watch(
      "/w?watch=true", [](std::string_view) {}, [] { return false; }));
  ASSERT_TRUE(client->Send({.target = "/x"}));
  EXPECT_EQ(server.connections(), 2);
}

TEST(KubeClient, StopEndsAWatchWhoseHeadNeverCame) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send&) {},
                          CannedHttpServer::AfterAnswer::kHold);
  auto client = ClientOf(server.url());
  int asked = 0;
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/w?watch=true", [](std::string_view) {}, [&] { return ++asked == 2; });
  ASSERT_TRUE(end) << end.error_message();
  EXPECT_TRUE(end->stopped);
  EXPECT_EQ(end->status, 0);
}

}  // namespace
}  // namespace mc::kube
