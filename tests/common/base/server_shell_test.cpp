#include "common/base/server_shell.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "support/eventually.h"
#include "support/loopback.h"

namespace mc {
namespace {

// A listening TCP socket on the loopback, and the port it took.
int ShellTestListener(int& port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&address), length) != 0 ||
      listen(fd, 4) != 0 || getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    return -1;
  port = ntohs(address.sin_port);
  return fd;
}

TEST(ServerShell, ItsLoopAcceptsAConnectionAndStopsWhenTheShellIsDestroyed) {
  int port = 0;
  const int listener = ShellTestListener(port);
  ASSERT_GE(listener, 0);
  std::atomic<int> accepted{0};
  std::atomic<bool> returned{false};
  {
    Result<std::unique_ptr<ServerShell>> shell =
        ServerShell::Start(listener, [&](ServerShell& self) {
          while (!self.stopping()) {
            std::vector<pollfd> fds = self.PollHead(/*accepting=*/true);
            if (poll(fds.data(), fds.size(), -1) < 0) break;
            if (fds[0].revents) self.wake()->Clear();
            if (fds[1].revents) {
              const int fd = self.Accept();
              if (fd >= 0) {
                ++accepted;
                close(fd);
              }
            }
          }
          returned = true;
        });
    ASSERT_TRUE(shell) << shell.error_message();
    const int client = testing::Connect(port);
    ASSERT_GE(client, 0);
    char byte = 0;
    // The loop closes what it accepts: the client reads the end.
    EXPECT_EQ(read(client, &byte, 1), 0);
    close(client);
    EXPECT_EQ(accepted.load(), 1);
    EXPECT_FALSE(returned.load());
  }
  EXPECT_TRUE(returned.load());
  // The shell closed the listener: nobody takes a connection on its port any more.
  EXPECT_LT(testing::Connect(port), 0);
}

TEST(ServerShell, AWakeFromAnotherThreadReturnsTheLoopsPollAndClearingItLetsThePollWait) {
  int port = 0;
  const int listener = ShellTestListener(port);
  ASSERT_GE(listener, 0);
  std::atomic<int> wakes{0};
  Result<std::unique_ptr<ServerShell>> shell = ServerShell::Start(listener, [&](ServerShell& self) {
    while (!self.stopping()) {
      std::vector<pollfd> fds = self.PollHead(/*accepting=*/false);
      if (poll(fds.data(), fds.size(), -1) < 0) break;
      if (fds[0].revents) {
        self.wake()->Clear();
        ++wakes;
      }
    }
  });
  ASSERT_TRUE(shell) << shell.error_message();
  (*shell)->wake()->Wake();
  EXPECT_TRUE(testing::Eventually(
      [&] { return wakes.load() > 0; },
      {.timeout = std::chrono::seconds(10), .every = std::chrono::milliseconds(1)}));
  EXPECT_EQ(wakes.load(), 1);
  // Cleared, the descriptor no longer wakes the loop: a spinning loop would count on.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(wakes.load(), 1);
  (*shell)->Stop();
  (*shell)->Stop();
  EXPECT_EQ(wakes.load(), 2);
}

TEST(ServerShell, AGivenWakeSignalIsTheOneItsLoopPolls) {
  int port = 0;
  const int listener = ShellTestListener(port);
  ASSERT_GE(listener, 0);
  Result<std::shared_ptr<WakeSignal>> wake = WakeSignal::Create();
  ASSERT_TRUE(wake) << wake.error_message();
  Result<std::unique_ptr<ServerShell>> shell = ServerShell::Start(
      listener, [](ServerShell&) {}, *wake);
  ASSERT_TRUE(shell) << shell.error_message();
  EXPECT_EQ((*shell)->wake(), *wake);
  EXPECT_EQ((*shell)->PollHead(true)[0].fd, (*wake)->fd());
  EXPECT_EQ((*shell)->PollHead(true)[1].fd, listener);
  EXPECT_EQ((*shell)->PollHead(false)[1].fd, -1);
}

}  // namespace
}  // namespace mc
