// ServerShell is what every server here is built on. It holds:
// - a listening socket;
// - the thread that serves it;
// - a wake descriptor that interrupts the thread's poll.
//
// The server supplies the loop. The shell starts it. Stopping the shell wakes the loop and waits
// for it to return. Then it closes the listener.
#pragma once

#include <poll.h>

#include <atomic>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "common/base/result.h"

namespace mc {

// WakeSignal interrupts a poll from any thread. It is an eventfd that the poller clears. It is
// shared, so a thread that outlives the server can still post. A gRPC method is such a thread.
class WakeSignal {
 public:
  static Result<std::shared_ptr<WakeSignal>> Create();
  ~WakeSignal();
  WakeSignal(const WakeSignal&) = delete;
  WakeSignal& operator=(const WakeSignal&) = delete;

  int fd() const { return fd_; }
  // Wake makes the descriptor readable. It cannot fail: a full counter is readable already.
  void Wake() const;
  // Clear takes the count, so the next poll waits again.
  void Clear() const;

 private:
  explicit WakeSignal(int fd) : fd_(fd) {}
  const int fd_;
};

class ServerShell {
 public:
  using Loop = std::function<void(ServerShell&)>;

  // Start owns `listener` from here on and closes it whatever happens. `listener` is a listening,
  // non-blocking socket. Start runs `loop` on a thread of its own. The loop polls the wake
  // descriptor with its own. It returns once stopping() is true, or when it decides to end. Other
  // threads may wake the loop too. Then the server passes the signal they hold as `wake`.
  static Result<std::unique_ptr<ServerShell>> Start(int listener, Loop loop,
                                                    std::shared_ptr<WakeSignal> wake = nullptr);
  // The destructor stops the loop.
  ~ServerShell();
  ServerShell(const ServerShell&) = delete;
  ServerShell& operator=(const ServerShell&) = delete;

  // Stop asks the loop to end, wakes it and waits for it. A second call does nothing. Never call it
  // from the loop's own thread.
  void Stop();
  bool stopping() const { return stopping_.load(); }

  const std::shared_ptr<WakeSignal>& wake() const { return wake_; }
  int listener() const { return listener_; }
  // CloseListener stops taking connections; the loop goes on. This is a graceful stop. The loop's
  // thread calls it.
  void CloseListener();
  // Accept takes one waiting connection, non-blocking and close-on-exec. Gives -1 when none waits.
  int Accept() const;

  // PollHead starts a loop's poll set:
  // - index 0: the wake descriptor;
  // - index 1: the listener while `accepting`, else -1, which poll skips.
  //
  // The loop's own descriptors follow at index 2.
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
