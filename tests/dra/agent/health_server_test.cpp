#include "dra/agent/health_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>

namespace mc::dra {
namespace {

// Get sends one request to the server on loopback and gives the whole answer.
std::string Get(int port, const std::string& request) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return "connect failed";
  }
  [[maybe_unused]] ssize_t sent = send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer;
  char buffer[512];
  for (ssize_t got; (got = read(fd, buffer, sizeof buffer)) > 0;)
    answer.append(buffer, static_cast<std::size_t>(got));
  close(fd);
  return answer;
}

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
  ASSERT_TRUE(server) << server.error();
  const int port = (*server)->port();
  ASSERT_GT(port, 0);

  EXPECT_EQ(Get(port, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n").substr(0, 15), "HTTP/1.1 200 OK");
  const std::string not_ready = Get(port, "GET /readyz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(not_ready.substr(0, 12), "HTTP/1.1 503");
  EXPECT_NE(not_ready.find("\r\n\r\nnot published\n"), std::string::npos) << not_ready;
  ready = true;
  EXPECT_EQ(Get(port, "GET /readyz?verbose HTTP/1.1\r\n\r\n").substr(0, 12), "HTTP/1.1 200");
  EXPECT_EQ(Get(port, "GET /metrics HTTP/1.1\r\n\r\n").substr(0, 12), "HTTP/1.1 404");
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
  ASSERT_TRUE(server) << server.error();
  const int silent = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>((*server)->port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(silent, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(Get((*server)->port(), "GET /livez HTTP/1.1\r\n\r\n").substr(0, 12), "HTTP/1.1 200");
  close(silent);
}

TEST(HealthServer, AnAddressWithNoPortIsRefusedWithItsName) {
  auto server = HealthServer::Start("localhost", {});
  ASSERT_FALSE(server);
  EXPECT_NE(server.error().find("localhost"), std::string::npos);
}

}  // namespace
}  // namespace mc::dra
