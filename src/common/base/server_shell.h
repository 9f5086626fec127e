// ServerShell is what every server here is built on: a listening socket, the thread that
// serves it, and a wake descriptor that interrupts the thread's poll. The server supplies
// the loop; the shell starts it, and stopping the shell wakes the loop, waits for it to
// return and closes the listener.
#pragma once

#include <poll.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "common/base/result.h"

namespace mc {

// WakeSignal interrupts a poll from any thread: an eventfd that the poller clears. It is
// shared, so that a thread which outlives the server (a gRPC method) can still post to it.
class WakeSignal {
 public:
  static Result<std::shared_ptr<WakeSignal>> Create();
  ~WakeSignal();
  WakeSignal(const WakeSignal&) = delete;
  WakeSignal& operator=(const WakeSignal&) = delete;

  int fd() const { return fd_; }
  // Wake makes the descriptor readable. It cannot fail: a full counter is readable already.
  void Wake() const;
  // Clear takes the count, so that the next poll waits again.
  void Clear() const;

 private:
  explicit WakeSignal(int fd) : fd_(fd) {}
  const int fd_;
};

class ServerShell {
 public:
  using Loop = std::function<void(ServerShell&)>;

  // Start owns `listener` (a listening, non-blocking socket) from here on, closed whatever
  // happens, and runs `loop` on a thread of its own. The loop polls the wake descriptor with
  // its own and returns once stopping() is true (or when it decides to end). A server whose
  // other threads wake the loop too passes the signal they hold as `wake`.
  static Result<std::unique_ptr<ServerShell>> Start(int listener, Loop loop,
                                                    std::shared_ptr<WakeSignal> wake = nullptr);
  // The destructor stops the loop.
  ~ServerShell();
  ServerShell(const ServerShell&) = delete;
  ServerShell& operator=(const ServerShell&) = delete;

  // Stop asks the loop to end, wakes it and waits for it; a second call does nothing. It is
  // not called from the loop's own thread.
  void Stop();
  bool stopping() const { return stopping_.load(); }

  const std::shared_ptr<WakeSignal>& wake() const { return wake_; }
  int listener() const { return listener_; }
  // CloseListener stops taking connections while the loop goes on (a graceful stop); the
  // loop's thread calls it.
  void CloseListener();
  // Accept takes one waiting connection, non-blocking and close-on-exec; -1 when none waits.
  int Accept() const;

  // PollHead is the start of a loop's poll set: the wake descriptor, then the listener while
  // `accepting` (-1, which poll skips, otherwise), so that the loop's own follow at index 2.
  std::vector<pollfd> PollHead(bool accepting) const;

 private:
  ServerShell(int listener, std::shared_ptr<WakeSignal> wake)
      : listener_(listener), wake_(std::move(wake)) {}

  int listener_;
  std::shared_ptr<WakeSignal> wake_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace mc
