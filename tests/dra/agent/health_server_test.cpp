#include "dra/agent/health_server.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <string>

#include "support/loopback.h"

namespace mc::dra {
namespace {

using mc::testing::Exchange;

TEST(HealthServer, AnswersEachProbeWithItsCheckAndEveryOtherPathWith404) {
  std::atomic<bool> ready{false};
  auto server = HealthServer::Start(
      "127.0.0.1:0",
      {.live =
           [] {
             return ProbeAnswer{true, "ok"};
           },
       .ready =
           [&ready] {
             return ready ? ProbeAnswer{true, "ok"} : ProbeAnswer{false, "not published"};
           }});
  ASSERT_TRUE(server) << server.error_message();
  const int port = (*server)->port();
  ASSERT_GT(port, 0);

  EXPECT_EQ(Exchange(port, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n").substr(0, 15),
            "HTTP/1.1 200 OK");
  const std::string not_ready = Exchange(port, "GET /readyz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(not_ready.substr(0, 12), "HTTP/1.1 503");
  EXPECT_NE(not_ready.find("\r\n\r\nnot published\n"), std::string::npos) << not_ready;
  ready = true;
  EXPECT_EQ(Exchange(port, "GET /readyz?verbose HTTP/1.1\r\n\r\n").substr(0, 12), "HTTP/1.1 200");
  EXPECT_EQ(Exchange(port, "GET /metrics HTTP/1.1\r\n\r\n").substr(0, 12), "HTTP/1.1 404");
}

TEST(HealthServer, ServesTheMetricsTextWhenGivenOne) {
  auto server = HealthServer::Start("127.0.0.1:0",
                                    {.live =
                                         [] {
                                           return ProbeAnswer{true, "ok"};
                                         },
                                     .ready =
                                         [] {
                                           return ProbeAnswer{true, "ok"};
                                         },
                                     .metrics = [] { return std::string("mc_agent_up 1\n"); }});
  ASSERT_TRUE(server) << server.error_message();
  const std::string answer = Exchange((*server)->port(), "GET /metrics HTTP/1.1\r\n\r\n");
  EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 200") << answer;
  EXPECT_NE(answer.find("text/plain; version=0.0.4"), std::string::npos) << answer;
  EXPECT_NE(answer.find("\r\n\r\nmc_agent_up 1\n"), std::string::npos) << answer;
}

TEST(HealthServer, AClientThatSendsNothingDoesNotStopTheNextOne) {
  auto server = HealthServer::Start("127.0.0.1:0", {.live =
                                                        [] {
                                                          return ProbeAnswer{true, "ok"};
                                                        },
                                                    .ready =
                                                        [] {
                                                          return ProbeAnswer{true, "ok"};
                                                        }});
  ASSERT_TRUE(server) << server.error_message();
  const int silent = mc::testing::Connect((*server)->port());
  ASSERT_GE(silent, 0);
  EXPECT_EQ(Exchange((*server)->port(), "GET /livez HTTP/1.1\r\n\r\n").substr(0, 12),
            "HTTP/1.1 200");
  close(silent);
}

TEST(HealthServer, AnAddressWithNoPortIsRefusedWithItsName) {
  auto server = HealthServer::Start("localhost", {});
  ASSERT_FALSE(server);
  EXPECT_NE(server.error_message().find("localhost"), std::string::npos);
}

}  // namespace
}  // namespace mc::dra
