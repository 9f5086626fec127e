#include "common/http/reverse_proxy.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include "common/base/text.h"
#include "common/http/http_message.h"
#include "common/http/message_io.h"

namespace mc::http {
namespace {

// An upload the upstream refused part-way still gets its answer, if it comes within this long.
constexpr std::chrono::milliseconds kAnswerAfterRefusedUpload{2000};

// Interruptible holds the streams a connection's thread waits on. So a stopping proxy can end those
// waits from its own thread.
class Interruptible {
 public:
  void Add(Stream* stream) {
    std::lock_guard lock(mutex_);
    streams_.push_back(stream);
    if (interrupted_) stream->Interrupt();
  }
  void Remove(Stream* stream) {
    std::lock_guard lock(mutex_);
    streams_.erase(std::remove(streams_.begin(), streams_.end(), stream), streams_.end());
  }
  void InterruptAll() {
    std::lock_guard lock(mutex_);
    interrupted_ = true;
    for (Stream* stream : streams_) stream->Interrupt();
  }

  // Whether the connection became a WebSocket tunnel. CloseTunnels ends those.
  std::atomic<bool> tunnelling{false};

  // A connection waits for its request's head, then serves it. The proxy may evict it first to make
  // room. Each step is taken once, by whichever side comes first.
  enum class Phase { kAwaitingHead, kServing, kEvicted };
  // BeginServing: the session's step once the head is whole. False if evicted.
  bool BeginServing() { return Step(Phase::kServing); }
  // Evict ends a connection still waiting for its head. False if already serving.
  bool Evict() {
    if (!Step(Phase::kEvicted)) return false;
    InterruptAll();
    return true;
  }
  bool Evicted() const { return phase_ == Phase::kEvicted; }
  bool Awaiting() const { return phase_ == Phase::kAwaitingHead; }

 private:
  bool Step(Phase to) {
    Phase expected = Phase::kAwaitingHead;
    return phase_.compare_exchange_strong(expected, to);
  }

  std::mutex mutex_;
  std::vector<Stream*> streams_;
  bool interrupted_ = false;
  std::atomic<Phase> phase_{Phase::kAwaitingHead};
};

// Registered keeps a stream in an Interruptible while it lives.
class Registered {
 public:
  Registered(Interruptible& registry, std::unique_ptr<Stream> stream)
      : registry_(registry), stream_(std::move(stream)) {
    registry_.Add(stream_.get());
  }
  ~Registered() { registry_.Remove(stream_.get()); }
  Registered(const Registered&) = delete;
  Registered& operator=(const Registered&) = delete;
  Stream& operator*() const { return *stream_; }
  Stream* operator->() const { return stream_.get(); }

 private:
  Interruptible& registry_;
  std::unique_ptr<Stream> stream_;
};

bool IsUpgrade(const RequestHead& head) {
  return HasToken(head.headers, "Connection", "upgrade") && HasHeader(head.headers, "Upgrade");
}

// Session serves the one request of one client connection.
class Session {
 public:
  Session(const Url& upstream, const ProxyHooks& hooks, const ProxyLimits& limits,
          Interruptible& registry, std::unique_ptr<Stream> client)
      : upstream_(upstream),
        hooks_(hooks),
        limits_(limits),
        registry_(registry),
        client_(registry, std::move(client)),
        client_reader_(*client_) {}

  void Run() {
    if (!ReadRequest() || !registry_.BeginServing()) return Close();
    started_ = Clock::now();
    const Plan plan = hooks_.plan ? hooks_.plan(head_) : Plan{};
    record_.handling = plan.handling;
    if (Result<BodyFraming> framing = RequestBodyFraming(head_); !framing) {
      Reply(400, "the request's body framing: " + framing.error_message());
    } else {
      framing_ = *framing;
      switch (plan.handling) {
        case Handling::kAnswer:
          AnswerHere(plan.answer);
          break;
        case Handling::kIntercept:
          Intercept();
          break;
        case Handling::kForward:
          if (IsUpgrade(head_)) {
            Tunnel();
          } else {
            Forward();
          }
          break;
      }
    }
    record_.duration =
        std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started_);
    if (hooks_.observe) hooks_.observe(record_);
    Close();
  }

 private:
  // ReadRequest reads and parses the head. False when there is no request to serve.
  bool ReadRequest() {
    const Clock::time_point accepted = Clock::now();
    // A client that sends nothing is let go soon. It holds a slot for no request.
    Result<std::string> text =
        client_reader_.ReadHead(limits_.max_head_bytes, accepted + limits_.first_byte_timeout);
    if (!text && text.error().IsDeadlineExceeded() && !client_reader_.HasBuffered()) return false;
    if (!text)
      text = client_reader_.ReadHead(limits_.max_head_bytes, accepted + limits_.head_timeout);
    if (!text) {
      if (registry_.Evicted()) return false;
      if (text.error().IsDeadlineExceeded()) {
        Reply(408, "the request did not arrive in time");
      } else if (text.error().IsInvalidInput()) {
        Reply(431, text.error_message());
      }
      return false;
    }
    Result<RequestHead> head = ParseRequestHead(*text);
    if (!head) {
      Reply(400, head.error_message());
      return false;
    }
    head_ = std::move(*head);
    record_.method = head_.method;
    record_.path = head_.Path();
    return true;
  }

  // UpstreamHead: the request's head as the upstream gets it. It has its own Host. Unless a tunnel,
  // it asks for one request on the connection.
  RequestHead UpstreamHead(bool tunnel) {
    RequestHead head = head_;
    SetHeader(head.headers, "Host", upstream_.HostHeader());
    if (!tunnel) {
      SetHeader(head.headers, "Connection", "close");
      RemoveHeader(head.headers, "Keep-Alive");
      RemoveHeader(head.headers, "Proxy-Connection");
    }
    // The proxy answers "100 Continue" itself once the upstream is connected. So the client never
    // waits on an upstream that would not send one.
    if (HasToken(head.headers, "Expect", "100-continue")) {
      RemoveHeader(head.headers, "Expect");
      expects_continue_ = true;
    }
    return head;
  }

  std::unique_ptr<Registered> ConnectUpstream() {
    Result<std::unique_ptr<Stream>> stream =
        Connect(upstream_, Clock::now() + limits_.connect_timeout, limits_.transport);
    if (!stream) {
      Reply(502, "the upstream could not be reached: " + stream.error_message());
      return nullptr;
    }
    return std::make_unique<Registered>(registry_, std::move(*stream));
  }

  bool SendContinue() {
    if (!expects_continue_) return true;
    return client_
        ->Write("HTTP/1.1 100 Continue\r\n\r\n", Deadline(Clock::now() + limits_.idle_timeout))
        .ok();
  }

  void Forward() {
    const RequestHead up_head = UpstreamHead(/*tunnel=*/false);
    std::unique_ptr<Registered> upstream = ConnectUpstream();
    if (!upstream) return;
    if (Result<void> sent = (*upstream)->Write(RequestHeadText(up_head), IdleDeadline()); !sent)
      return Reply(502, "sending the request to the upstream: " + sent.error_message());
    if (!SendContinue()) return Fail("the client went away");
    Result<void> uploaded =
        client_reader_.RelayBody(framing_, **upstream, limits_.idle_timeout, record_.bytes_up);
    MessageReader upstream_reader(**upstream);
    if (!uploaded) {
      // The upstream may have answered early, a refusal, and stopped reading. The client should see
      // that answer.
      Result<std::string> early = upstream_reader.ReadHead(
          limits_.max_head_bytes, Clock::now() + kAnswerAfterRefusedUpload);
      if (!early) return Reply(502, "forwarding the request's body: " + uploaded.error_message());
      return RelayAnswer(upstream_reader, std::move(*early));
    }
    RelayAnswer(upstream_reader, "");
  }

  // RelayAnswer passes the upstream's answer down as it arrives. `first_head` is a head already
  // read, if any.
  void RelayAnswer(MessageReader& upstream_reader, std::string first_head) {
    Result<ResponseHead> head = NextFinalHead(upstream_reader, std::move(first_head));
    if (!head) return;
    Result<BodyFraming> framing = ResponseBodyFraming(*head, head_.method);
    if (!framing) return Reply(502, "the upstream's answer: " + framing.error_message());
    SetHeader(head->headers, "Connection", "close");
    RemoveHeader(head->headers, "Keep-Alive");
    if (Result<void> sent = client_->Write(ResponseHeadText(*head), IdleDeadline()); !sent)
      return Fail("the client went away");
    record_.status = head->status;
    if (Result<void> relayed =
            upstream_reader.RelayBody(*framing, *client_, limits_.idle_timeout, record_.bytes_down);
        !relayed)
      Fail("relaying the answer's body: " + relayed.error_message());
  }

  // NextFinalHead reads the upstream's answer head. It passes interim answers (103) down. With
  // none, it answers 502 itself. A 101 is final.
  Result<ResponseHead> NextFinalHead(MessageReader& upstream_reader, std::string text) {
    while (true) {
      if (text.empty()) {
        Result<std::string> read = upstream_reader.ReadHead(limits_.max_head_bytes, IdleDeadline());
        if (!read) {
          Reply(502, "the upstream's answer: " + read.error_message());
          return read.error();
        }
        text = std::move(*read);
      }
      Result<ResponseHead> head = ParseResponseHead(text);
      if (!head) {
        Reply(502, "the upstream's answer: " + head.error_message());
        return head.error();
      }
      if (head->status >= 200 || head->status == 101) {
        last_head_text_ = std::move(text);
        return head;
      }
      if (head->status != 100) (void)client_->Write(text, IdleDeadline());
      text.clear();
    }
  }

  void Tunnel() {
    const RequestHead up_head = UpstreamHead(/*tunnel=*/true);
    std::unique_ptr<Registered> upstream = ConnectUpstream();
    if (!upstream) return;
    if (Result<void> sent = (*upstream)->Write(RequestHeadText(up_head), IdleDeadline()); !sent)
      return Reply(502, "sending the request to the upstream: " + sent.error_message());
    MessageReader upstream_reader(**upstream);
    Result<ResponseHead> head = NextFinalHead(upstream_reader, "");
    if (!head) return;
    if (head->status != 101) return RelayAnswer(upstream_reader, std::move(last_head_text_));
    record_.websocket = true;
    // The 101 goes down exactly as written. Its headers complete the handshake.
    if (!client_->Write(last_head_text_, IdleDeadline())) return Fail("the client went away");
    record_.status = 101;
    const std::string up = client_reader_.TakeBuffered();
    const std::string down = upstream_reader.TakeBuffered();
    if (!up.empty() && !(*upstream)->Write(up, IdleDeadline())) return;
    if (!down.empty() && !client_->Write(down, IdleDeadline())) return;
    record_.bytes_up = up.size();
    record_.bytes_down = down.size();
    registry_.tunnelling = true;
    Pump(**upstream);
  }

  // Pump passes bytes both ways until either side closes or the proxy stops.
  void Pump(Stream& upstream) {
    Stream& client = *client_;
    std::vector<char> buffer(64 * 1024);
    while (true) {
      pollfd fds[2] = {{.fd = client.fd(), .events = POLLIN, .revents = 0},
                       {.fd = upstream.fd(), .events = POLLIN, .revents = 0}};
      const bool buffered = client.HasBuffered() || upstream.HasBuffered();
      if (poll(fds, 2, buffered ? 0 : -1) < 0 && errno != EINTR) return;
      struct Direction {
        Stream& from;
        Stream& to;
        std::uint64_t& bytes;
        short revents;
      };
      for (Direction direction :
           {Direction{client, upstream, record_.bytes_up, fds[0].revents},
            Direction{upstream, client, record_.bytes_down, fds[1].revents}}) {
        if (!direction.revents && !direction.from.HasBuffered()) continue;
        Result<std::size_t> got = direction.from.Read(buffer.data(), buffer.size(), Clock::now());
        if (!got && got.error().IsDeadlineExceeded()) continue;
        if (!got || *got == 0) return;
        if (!direction.to.Write(std::string_view(buffer.data(), *got), IdleDeadline())) return;
        direction.bytes += *got;
      }
    }
  }

  void Intercept() {
    Result<std::string> body = client_reader_.ReadBody(framing_, limits_.max_intercepted_body,
                                                       Clock::now() + limits_.head_timeout);
    if (!body) {
      if (body.error().IsInvalidInput()) Reply(413, "the request's body: " + body.error_message());
      return Fail("reading the request's body: " + body.error_message());
    }
    record_.bytes_up = body->size();
    RequestHead up_head = UpstreamHead(/*tunnel=*/false);
    RemoveHeader(up_head.headers, "Transfer-Encoding");
    if (framing_.kind != BodyFraming::Kind::kNone || HasHeader(up_head.headers, "Content-Length"))
      SetHeader(up_head.headers, "Content-Length", std::to_string(body->size()));
    // The answer is read and rewritten here. So it must come uncompressed.
    SetHeader(up_head.headers, "Accept-Encoding", "identity");
    std::unique_ptr<Registered> upstream = ConnectUpstream();
    if (!upstream) return;
    if (!SendContinue()) return Fail("the client went away");
    const Deadline deadline = Clock::now() + limits_.head_timeout;
    if (Result<void> sent = (*upstream)->Write(RequestHeadText(up_head) + *body, deadline); !sent)
      return Reply(502, "sending the request to the upstream: " + sent.error_message());
    MessageReader upstream_reader(**upstream);
    Result<ResponseHead> head = NextFinalHead(upstream_reader, "");
    if (!head) return;
    Result<BodyFraming> framing = ResponseBodyFraming(*head, head_.method);
    if (!framing) return Reply(502, "the upstream's answer: " + framing.error_message());
    Result<std::string> answer_body =
        upstream_reader.ReadBody(*framing, limits_.max_intercepted_body, deadline);
    if (!answer_body) return Reply(502, "the upstream's answer: " + answer_body.error_message());
    ProxyResponse answer{.head = std::move(*head), .body = std::move(*answer_body)};
    if (hooks_.rewrite)
      hooks_.rewrite(ProxyRequest{.head = head_, .body = std::move(*body)}, answer);
    Send(std::move(answer));
  }

  void AnswerHere(ProxyResponse answer) {
    // Read and drop the request's body. So closing does not reset the connection under the answer.
    (void)client_reader_.ReadBody(framing_, limits_.max_intercepted_body,
                                  Clock::now() + limits_.head_timeout);
    Send(std::move(answer));
  }

  // Send writes a whole answer held here, its framing set to its body.
  void Send(ProxyResponse answer) {
    ResponseHead& head = answer.head;
    if (head.reason.empty()) head.reason = std::string(ReasonPhrase(head.status));
    RemoveHeader(head.headers, "Transfer-Encoding");
    RemoveHeader(head.headers, "Keep-Alive");
    const bool bodiless = head.status < 200 || head.status == 204 || head.status == 304;
    if (bodiless) {
      answer.body.clear();
      RemoveHeader(head.headers, "Content-Length");
    } else {
      SetHeader(head.headers, "Content-Length", std::to_string(answer.body.size()));
    }
    SetHeader(head.headers, "Connection", "close");
    const std::string body = head_.method == "HEAD" ? "" : answer.body;
    if (Result<void> sent = client_->Write(ResponseHeadText(head) + body, IdleDeadline()); !sent)
      return Fail("the client went away");
    record_.status = head.status;
    record_.bytes_down = body.size();
  }

  // Reply answers with a one-line plain-text reason. That is also the record's error.
  void Reply(int status, const std::string& why) {
    const std::string line = PrintableLine(why);
    ProxyResponse answer{.head = {.status = status}, .body = line + "\n"};
    answer.head.headers.push_back({"Content-Type", "text/plain; charset=utf-8"});
    Send(std::move(answer));
    if (status >= 400 && record_.error.empty()) record_.error = line;
  }

  void Fail(const std::string& why) {
    if (record_.error.empty()) record_.error = PrintableLine(why);
  }

  void Close() {
    client_->ShutdownWrite();
    const Deadline until = Clock::now() + kLingerAfterAnswer;
    char buffer[4096];
    while (true) {
      Result<std::size_t> got = client_->Read(buffer, sizeof buffer, until);
      if (!got || *got == 0) break;
    }
  }

  Deadline IdleDeadline() const { return Clock::now() + limits_.idle_timeout; }

  const Url& upstream_;
  const ProxyHooks& hooks_;
  const ProxyLimits& limits_;
  Interruptible& registry_;
  Registered client_;
  MessageReader client_reader_;
  RequestHead head_;
  BodyFraming framing_;
  bool expects_continue_ = false;
  std::string last_head_text_;
  Clock::time_point started_ = Clock::now();
  ExchangeRecord record_;
};

}  // namespace

struct ReverseProxy::Connection {
  Interruptible registry;
  std::thread thread;
  std::atomic<bool> done{false};
};

Result<std::unique_ptr<ReverseProxy>> ReverseProxy::Start(const std::string& address, Url upstream,
                                                          ProxyHooks hooks, ProxyLimits limits) {
  Result<Listener> listener = Listen(address);
  if (!listener) return listener.error();
  std::unique_ptr<ReverseProxy> proxy(new ReverseProxy());
  proxy->upstream_ = std::move(upstream);
  proxy->hooks_ = std::move(hooks);
  proxy->limits_ = std::move(limits);
  proxy->listener_ = *listener;
  Result<std::unique_ptr<ServerShell>> shell = ServerShell::Start(
      listener->fd, [raw = proxy.get()](ServerShell& shell) { raw->AcceptLoop(shell); });
  if (!shell) return shell.error();
  proxy->shell_ = std::move(shell).value();
  return proxy;
}

ReverseProxy::~ReverseProxy() = default;

void ReverseProxy::AcceptLoop(ServerShell& shell) {
  while (!shell.stopping()) {
    Reap(/*all=*/false);
    // At the limit, the connection that waited longest for its request makes room. The small server
    // does the same. So clients that send nothing cannot keep the runner out. When every connection
    // is serving, the listener is left alone. Further clients wait in the backlog. A connection
    // that ends wakes this loop.
    std::vector<pollfd> fds = shell.PollHead(MakeRoom(/*evict=*/false));
    if (poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) break;
    if (fds[0].revents) shell.wake()->Clear();
    if (shell.stopping()) break;
    if (!fds[1].revents) continue;
    const int fd = shell.Accept();
    if (fd < 0) continue;
    MakeRoom(/*evict=*/true);
    auto connection = std::make_unique<Connection>();
    Connection* raw = connection.get();
    std::unique_ptr<Stream> client = AdoptSocket(fd);
    {
      std::lock_guard lock(mutex_);
      connections_.push_back(std::move(connection));
    }
    raw->thread =
        std::thread([this, raw, wake = shell.wake(), stream = std::move(client)]() mutable {
          Session(upstream_, hooks_, limits_, raw->registry, std::move(stream)).Run();
          raw->done = true;
          wake->Wake();
        });
  }
  {
    std::lock_guard lock(mutex_);
    for (const auto& connection : connections_) connection->registry.InterruptAll();
  }
  Reap(/*all=*/true);
}

bool ReverseProxy::MakeRoom(bool evict) {
  std::lock_guard lock(mutex_);
  std::size_t open = 0;
  for (const auto& connection : connections_) open += !connection->registry.Evicted();
  if (open < limits_.max_connections) return true;
  // The list is in order of acceptance. The first still waiting has waited longest.
  for (const auto& connection : connections_) {
    if (evict ? connection->registry.Evict() : connection->registry.Awaiting()) return true;
  }
  return false;
}

void ReverseProxy::CloseTunnels() {
  std::lock_guard lock(mutex_);
  for (const auto& connection : connections_) {
    if (connection->registry.tunnelling) connection->registry.InterruptAll();
  }
}

void ReverseProxy::Reap(bool all) {
  std::list<std::unique_ptr<Connection>> finished;
  {
    std::lock_guard lock(mutex_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if (all || (*it)->done) {
        finished.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (const auto& connection : finished) {
    if (connection->thread.joinable()) connection->thread.join();
  }
}

}  // namespace mc::http
