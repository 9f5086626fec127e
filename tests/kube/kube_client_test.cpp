// The client against a canned server, for what the real API server does too rarely to test
// against it (tests/kube/kube_client_cluster_test.cpp tests the rest there).
#include "kube/kube_client.h"

#include <gtest/gtest.h>

#include <thread>

#include "kube/canned_http_server.h"
#include "support/temp_dir.h"

namespace mc::kube {
namespace {

using testing::CannedHttpServer;

std::unique_ptr<KubeClient> ClientOf(const std::string& server, std::string token = "secret") {
  KubeConfig config;
  config.server = server;
  config.token = std::move(token);
  Result<std::unique_ptr<KubeClient>> client = KubeClient::Create(std::move(config));
  EXPECT_TRUE(client) << client.error();
  return client ? std::move(client).value() : nullptr;
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
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send("HTTP/1.1 201 Created\r\nContent-Length: 11\r\n\r\n{\"ok\":true}");
  });
  auto client = ClientOf(server.url());
  HttpRequest request;
  request.method = "PATCH";
  request.target = "/apis/x/v1/things/a";
  request.body = R"({"spec":{}})";
  request.content_type = "application/merge-patch+json";
  Result<HttpResponse> response = client->Send(request);
  ASSERT_TRUE(response) << response.error();
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
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
  });
  auto client = ClientOf(server.url(), "");
  Result<HttpResponse> response = client->Send({.method = "DELETE", .target = "/api/v1/nodes/n"});
  ASSERT_TRUE(response) << response.error();
  const std::string sent = server.requests().at(0);
  EXPECT_TRUE(sent.starts_with("DELETE /api/v1/nodes/n HTTP/1.1\r\n")) << sent;
  EXPECT_EQ(sent.find("Content-Type"), std::string::npos) << sent;
  EXPECT_EQ(sent.find("Authorization"), std::string::npos) << sent;
}

TEST(KubeClient, TooManyRequestsCarriesRetryAfter) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nContent-Length: 0\r\n\r\n");
  });
  auto client = ClientOf(server.url());
  Result<HttpResponse> response = client->Send({.target = "/api"});
  ASSERT_TRUE(response) << response.error();
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
  EXPECT_TRUE(response.error().starts_with("GET /version: ")) << response.error();
  EXPECT_EQ(client->traffic().requests, 0u);
}

TEST(KubeClient, ARequestPastItsDeadlineIsAnError) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send&) {}, /*hold=*/true);
  KubeConfig config;
  config.server = server.url();
  ClientSettings settings;
  settings.request_timeout = std::chrono::milliseconds(300);
  auto client = KubeClient::Create(config, settings).value();
  const auto start = std::chrono::steady_clock::now();
  Result<HttpResponse> response = client->Send({.target = "/slow"});
  ASSERT_FALSE(response);
  EXPECT_TRUE(response.error().starts_with("GET /slow: ")) << response.error();
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
  EXPECT_EQ(response.error(), "GET /version: token file /no/such/token: No such file or directory");
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
  EXPECT_EQ(get_with_body.error(), "GET /x: a GET carries no body");
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
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/apis/x/v1/things?watch=true", [&](std::string_view line) { lines.emplace_back(line); },
      [] { return false; });
  ASSERT_TRUE(end) << end.error();
  EXPECT_EQ(end->status, 200);
  EXPECT_FALSE(end->stopped);
  EXPECT_EQ(lines, (std::vector<std::string>{R"({"type":"ADDED"})", R"({"type":"MODIFIED"})",
                                             R"({"type":"DELETED"})"}));
  EXPECT_EQ(client->traffic().requests, 1u);
  EXPECT_GT(client->traffic().bytes_received, 0u);
}

TEST(KubeClient, AWatchRefusedGivesTheBodyAsItsError) {
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send(
        "HTTP/1.1 403 Forbidden\r\nContent-Length: "
        "36\r\n\r\n{\"kind\":\"Status\",\"message\":\"nope\"}\n\n");
  });
  auto client = ClientOf(server.url());
  bool any_line = false;
  Result<KubeClient::WatchEnd> end = client->Watch(
      "/apis/x/v1/things?watch=true", [&](std::string_view) { any_line = true; },
      [] { return false; });
  ASSERT_TRUE(end) << end.error();
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
      /*hold=*/true);
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
  ASSERT_TRUE(end) << end.error();
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
  CannedHttpServer server([](const std::string&, const CannedHttpServer::Send& send) {
    send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
  });
  auto client = ClientOf(server.url());
  for (int i = 0; i < 5; ++i) {
    Result<HttpResponse> response = client->Send({.target = "/x"});
    ASSERT_TRUE(response) << response.error();
    EXPECT_EQ(response->status, 200);
  }
  EXPECT_EQ(client->traffic().requests, 5u);
}

}  // namespace
}  // namespace mc::kube
