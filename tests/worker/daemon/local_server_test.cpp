// The worker's local socket: requests are answered line by line, a line that is not a request
// is answered with why, and a connection's end is reported once however it ends.
#include "worker/daemon/local_server.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "support/run_command.h"
#include "support/temp_dir.h"
#include "worker/daemon/local_socket.h"

namespace mc::worker {
namespace {

using namespace std::chrono_literals;

TEST(LocalServer, AnswersEachRequestAndReportsTheEndOfEachConnectionOnce) {
  mc::testing::TempDir dir;
  std::atomic<int> closed = 0;
  std::atomic<std::uint64_t> last_connection = 0;
  Result<std::unique_ptr<LocalServer>> server = LocalServer::Start(
      LocalSocketPath(dir.path().string()),
      [&](std::uint64_t connection, const LocalRequest& request) {
        last_connection = connection;
        return LocalAnswer{.ok = std::holds_alternative<DrainRequest>(request),
                           .message = "seen",
                           .state = "DRAINING"};
      },
      [&](std::uint64_t) { ++closed; });
  ASSERT_TRUE(server) << server.error_message();
  {
    Result<LocalClient> client = LocalClient::Connect((*server)->path());
    ASSERT_TRUE(client) << client.error_message();
    Result<LocalAnswer> answer = client->Ask(DrainRequest{}, 2s);
    ASSERT_TRUE(answer) << answer.error_message();
    EXPECT_TRUE(answer->ok);
    EXPECT_EQ(answer->state, "DRAINING");
    Result<LocalAnswer> second = client->Ask(StateRequest{}, 2s);
    ASSERT_TRUE(second);
    EXPECT_FALSE(second->ok);
  }
  for (int i = 0; i < 200 && closed == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(closed, 1);
}

TEST(LocalServer, APeerOfAnotherUserIsNotServed) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to connect as another user";
  mc::testing::TempDir dir;
  std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
  std::atomic<int> asked = 0;
  Result<std::unique_ptr<LocalServer>> server = LocalServer::Start(
      LocalSocketPath(dir.path().string()),
      [&](std::uint64_t, const LocalRequest&) {
        ++asked;
        return LocalAnswer{.ok = true};
      },
      [](std::uint64_t) {});
  ASSERT_TRUE(server) << server.error_message();
  std::filesystem::permissions((*server)->path(), std::filesystem::perms::all);
  // nobody connects, asks to drain, and prints what came back.
  const std::string script =
      "import socket,sys\n"
      "s=socket.socket(socket.AF_UNIX)\n"
      "s.connect(sys.argv[1])\n"
      "try:\n"
      "  s.sendall(sys.argv[2].encode())\n"
      "  print('answered' if s.recv(4096) else 'closed')\n"
      "except OSError:\n"
      "  print('closed')\n";
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", WORKER_PYTHON, "-c",
       script, (*server)->path(), LocalRequestLine(DrainRequest{})});
  EXPECT_EQ(run.code, 0) << run.err;
  EXPECT_EQ(run.out, "closed\n") << run.err;
  EXPECT_EQ(asked, 0);
}

TEST(LocalServer, AClientThatLeavesItsAnswersUnreadIsDropped) {
  mc::testing::TempDir dir;
  std::atomic<int> closed = 0;
  Result<std::unique_ptr<LocalServer>> server = LocalServer::Start(
      LocalSocketPath(dir.path().string()),
      [](std::uint64_t, const LocalRequest&) {
        return LocalAnswer{.ok = true, .message = std::string(200, 'x')};
      },
      [&](std::uint64_t) { ++closed; });
  ASSERT_TRUE(server) << server.error_message();
  Result<LocalClient> client = LocalClient::Connect((*server)->path());
  ASSERT_TRUE(client) << client.error_message();
  // Some 4 MB of answers, never read: more than the kernel's buffers and the server's bound.
  std::string requests;
  for (int i = 0; i < 16000; ++i) requests += LocalRequestLine(StateRequest{});
  std::size_t sent = 0;
  while (sent < requests.size()) {
    const ssize_t n =
        send(client->fd(), requests.data() + sent, requests.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;
    sent += static_cast<std::size_t>(n);
  }
  for (int i = 0; i < 500 && closed == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(closed, 1);
}

TEST(LocalServer, ASecondWorkerCannotTakeALiveSocket) {
  mc::testing::TempDir dir;
  const std::string path = LocalSocketPath(dir.path().string());
  auto handler = [](std::uint64_t, const LocalRequest&) { return LocalAnswer{.ok = true}; };
  Result<std::unique_ptr<LocalServer>> first =
      LocalServer::Start(path, handler, [](std::uint64_t) {});
  ASSERT_TRUE(first);
  Result<std::unique_ptr<LocalServer>> second =
      LocalServer::Start(path, handler, [](std::uint64_t) {});
  ASSERT_FALSE(second);
  EXPECT_NE(second.error_message().find("another worker"), std::string::npos);
}

TEST(LocalClient, SaysSoWhenNoWorkerListens) {
  mc::testing::TempDir dir;
  Result<LocalClient> client = LocalClient::Connect((dir.path() / "worker.sock").string());
  ASSERT_FALSE(client);
  EXPECT_TRUE(client.error().IsNotFound());
}

}  // namespace
}  // namespace mc::worker
