#include "dra/grpc_server/server.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>

#include "common/base/server_shell.h"
#include "dra/grpc_server/connection.h"

namespace mc::dra {
namespace {

using Clock = std::chrono::steady_clock;

// A call's response message or its end, on its way from the method's thread to the loop.
struct Event {
  std::uint64_t peer = 0;
  StreamId stream = 0;
  // The message, or the status when `ends` is set.
  std::string message;
  bool ends = false;
  GrpcStatus status;
};

// Mailbox carries events from the methods' threads to the loop.
// It also counts the methods running.
// Each call holds it, so a method outliving the loop posts harmlessly.
class Mailbox {
 public:
  explicit Mailbox(std::shared_ptr<WakeSignal> wake) : wake_(std::move(wake)) {}

  const std::shared_ptr<WakeSignal>& wake() const { return wake_; }

  // Post hands the loop an event.
  // A call's end also counts its method as returned, under the same lock.
  // So the loop, woken for the event, never finds the method still running.
  // Otherwise it would go back to sleep.
  void Post(Event event) {
    {
      std::lock_guard lock(mutex_);
      if (event.ends && --running_ == 0) idle_.notify_all();
      events_.push_back(std::move(event));
    }
    wake_->Wake();
  }

  std::deque<Event> Take() {
    std::lock_guard lock(mutex_);
    return std::exchange(events_, {});
  }

  void CallStarted() {
    std::lock_guard lock(mutex_);
    ++running_;
  }
  bool Idle() {
    std::lock_guard lock(mutex_);
    return running_ == 0 && events_.empty();
  }
  void WaitUntilNoCallRuns() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return running_ == 0; });
  }

 private:
  const std::shared_ptr<WakeSignal> wake_;
  std::mutex mutex_;
  std::condition_variable idle_;
  std::deque<Event> events_;
  int running_ = 0;
};

class Call final : public CallWriter {
 public:
  Call(std::shared_ptr<Mailbox> mailbox, std::uint64_t peer, StreamId stream)
      : mailbox_(std::move(mailbox)), peer_(peer), stream_(stream) {}

  bool Write(std::string message) override {
    if (Cancelled()) return false;
    mailbox_->Post({.peer = peer_, .stream = stream_, .message = std::move(message)});
    return true;
  }
  bool Cancelled() const override { return cancelled_.load(); }

  void Cancel() { cancelled_.store(true); }
  void End(GrpcStatus status) {
    mailbox_->Post({.peer = peer_, .stream = stream_, .ends = true, .status = std::move(status)});
  }

 private:
  const std::shared_ptr<Mailbox> mailbox_;
  const std::uint64_t peer_;
  const StreamId stream_;
  std::atomic<bool> cancelled_{false};
};

// The most connections served at once; the kubelet keeps one or two per socket.
constexpr std::size_t kMaxPeers = 64;

}  // namespace

struct Server::Loop {
  struct Peer {
    int fd = -1;
    std::unique_ptr<Connection> connection;
    // Bytes taken from the connection that the socket has not yet accepted.
    std::string output;
    bool closing = false;
  };

  std::shared_ptr<Mailbox> mailbox;
  std::unordered_map<std::string, decltype(Method::run)> methods;
  std::map<std::uint64_t, Peer> peers;
  std::uint64_t next_peer = 1;
  std::map<std::pair<std::uint64_t, StreamId>, std::shared_ptr<Call>> calls;
  std::unique_ptr<ServerShell> shell;
  bool shut_down = false;

  // What Shutdown asks of the loop.
  // It has its own lock, since Shutdown runs on another thread.
  std::mutex stop_mutex;
  std::optional<Clock::time_point> stop_by;

  void Start(std::uint64_t id, CallStart start) {
    auto call = std::make_shared<Call>(mailbox, id, start.stream);
    const auto& run = methods.at(start.path);
    mailbox->CallStarted();
    try {
      std::thread([call, &run, request = std::move(start.request)] {
        GrpcStatus status;
        try {
          status = run(request, *call);
        } catch (const std::exception& failure) {
          status = {StatusCode::kInternal, std::string("the method failed: ") + failure.what()};
        }
        call->End(std::move(status));
      }).detach();
    } catch (const std::system_error& failure) {
      call->End(
          {StatusCode::kUnavailable, std::string("no thread for the call: ") + failure.what()});
      return;
    }
    calls[{id, start.stream}] = std::move(call);
  }

  void Closed(std::uint64_t id, StreamId stream) {
    auto found = calls.find({id, stream});
    if (found == calls.end()) return;
    found->second->Cancel();
    calls.erase(found);
  }

  void Accept(const ServerShell& shell) {
    for (;;) {
      const int fd = shell.Accept();
      if (fd < 0) return;
      if (peers.size() >= kMaxPeers) {
        close(fd);
        continue;
      }
      const std::uint64_t id = next_peer++;
      Result<std::unique_ptr<Connection>> connection = Connection::Create(
          {.serves = [this](const std::string& path) { return methods.contains(path); },
           .start = [this, id](CallStart start) { Start(id, std::move(start)); },
           .closed = [this, id](StreamId stream) { Closed(id, stream); }});
      if (!connection) {
        close(fd);
        continue;
      }
      peers[id] = {fd, std::move(connection).value()};
    }
  }

  void Deliver() {
    for (Event& event : mailbox->Take()) {
      if (event.ends) calls.erase({event.peer, event.stream});
      auto peer = peers.find(event.peer);
      if (peer == peers.end()) continue;
      if (event.ends) {
        peer->second.connection->Finish(event.stream, event.status);
      } else {
        peer->second.connection->Send(event.stream, event.message);
      }
    }
  }

  void ReadFrom(Peer& peer) {
    char buffer[16 * 1024];
    for (;;) {
      const ssize_t got = recv(peer.fd, buffer, sizeof buffer, 0);
      if (got > 0) {
        // A peer that broke HTTP/2 gets nghttp2's GOAWAY; then the connection closes.
        if (!peer.connection->Receive({buffer, static_cast<std::size_t>(got)})) {
          peer.closing = true;
          return;
        }
        continue;
      }
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
      peer.closing = true;
      peer.output.clear();
      return;
    }
  }

  void WriteTo(Peer& peer) {
    for (;;) {
      if (peer.output.empty()) peer.output = peer.connection->TakeOutput();
      if (peer.output.empty()) return;
      const ssize_t sent = send(peer.fd, peer.output.data(), peer.output.size(), MSG_NOSIGNAL);
      if (sent < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return;
        peer.closing = true;
        peer.output.clear();
        return;
      }
      peer.output.erase(0, static_cast<std::size_t>(sent));
    }
  }

  void Drop(std::uint64_t id) {
    for (auto call = calls.lower_bound({id, 0}); call != calls.end() && call->first.first == id;) {
      call->second->Cancel();
      call = calls.erase(call);
    }
    close(peers.at(id).fd);
    peers.erase(id);
  }

  void BeginStopping(ServerShell& shell) {
    shell.CloseListener();
    for (auto& [id, peer] : peers) peer.connection->GoAway();
    for (auto& [key, call] : calls) call->Cancel();
  }

  void Run(ServerShell& shell) {
    bool stopping = false;
    Clock::time_point deadline;
    std::vector<pollfd> polled;
    std::vector<std::uint64_t> polled_peers;
    for (;;) {
      if (!stopping) {
        std::lock_guard lock(stop_mutex);
        if (stop_by) {
          stopping = true;
          deadline = *stop_by;
          BeginStopping(shell);
        }
      }
      Deliver();
      for (auto& [id, peer] : peers) {
        if (!peer.closing || !peer.output.empty()) WriteTo(peer);
      }
      std::vector<std::uint64_t> done;
      bool flushed = true;
      for (auto& [id, peer] : peers) {
        flushed = flushed && peer.output.empty();
        if (peer.output.empty() && (peer.closing || !peer.connection->Alive())) done.push_back(id);
      }
      for (const std::uint64_t id : done) Drop(id);
      // Stopping ends once every method has returned and answered, or at the deadline.
      if (stopping && (Clock::now() >= deadline || (flushed && mailbox->Idle()))) break;

      polled = shell.PollHead(/*accepting=*/true);
      polled_peers.clear();
      for (auto& [id, peer] : peers) {
        const short events = peer.output.empty() ? POLLIN : POLLIN | POLLOUT;
        polled.push_back({peer.fd, events, 0});
        polled_peers.push_back(id);
      }
      int timeout = -1;
      if (stopping) {
        timeout = static_cast<int>(
            std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count());
        timeout = std::max(timeout, 0);
      }
      if (poll(polled.data(), polled.size(), timeout) < 0 && errno != EINTR) break;

      if (polled[0].revents & POLLIN) mailbox->wake()->Clear();
      if (polled[1].revents & POLLIN) Accept(shell);
      const std::size_t first_peer = 2;
      for (std::size_t i = 0; i < polled_peers.size(); ++i) {
        auto peer = peers.find(polled_peers[i]);
        if (peer == peers.end() || !polled[first_peer + i].revents) continue;
        if (polled[first_peer + i].revents & (POLLIN | POLLHUP | POLLERR)) ReadFrom(peer->second);
      }
    }
    while (!peers.empty()) Drop(peers.begin()->first);
    for (auto& [key, call] : calls) call->Cancel();
    calls.clear();
  }
};

Result<std::unique_ptr<Server>> Server::Listen(const std::filesystem::path& socket,
                                               std::vector<Method> methods) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (socket.native().size() >= sizeof address.sun_path) {
    return InvalidInput("the socket path " + socket.string() + " is longer than " +
                        std::to_string(sizeof address.sun_path - 1) + " bytes");
  }
  std::memcpy(address.sun_path, socket.c_str(), socket.native().size());

  Result<std::shared_ptr<WakeSignal>> wake = WakeSignal::Create();
  if (!wake) return wake.error();
  auto loop = std::make_unique<Loop>();
  loop->mailbox = std::make_shared<Mailbox>(*wake);
  for (Method& method : methods) loop->methods[method.path] = std::move(method.run);

  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listener < 0) return Internal(std::string("socket: ") + std::strerror(errno));
  if (bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 ||
      listen(listener, 16) != 0) {
    const int error = errno;
    close(listener);
    return Internal("could not listen on " + socket.string() + ": " + std::strerror(error));
  }
  Result<std::unique_ptr<ServerShell>> shell = ServerShell::Start(
      listener, [running = loop.get()](ServerShell& shell) { running->Run(shell); }, *wake);
  if (!shell) return shell.error();
  loop->shell = std::move(shell).value();
  return std::unique_ptr<Server>(new Server(std::move(loop)));
}

Server::Server(std::unique_ptr<Loop> loop) : loop_(std::move(loop)) {}

Server::~Server() { Shutdown(std::chrono::milliseconds(0)); }

void Server::Shutdown(std::chrono::milliseconds grace) {
  if (loop_->shut_down) return;
  loop_->shut_down = true;
  {
    std::lock_guard lock(loop_->stop_mutex);
    loop_->stop_by = Clock::now() + grace;
  }
  loop_->shell->Stop();
  // The methods hold references into the loop's method table.
  loop_->mailbox->WaitUntilNoCallRuns();
}

}  // namespace mc::dra
