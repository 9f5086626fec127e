// KubeClient over the project's own HTTP/1.1 client parts (src/common/http).
// - A request borrows an idle connection or opens one. It writes its head and body and reads the
//   answer whole.
// - A watch opens a connection of its own. It reads its body piece by piece, asking `stop` between
//   pieces.
//
// Everything runs on the calling thread.
#include "common/kube/kube_client.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "common/http/message_io.h"
#include "common/http/streamed_body.h"
#include "common/http/url.h"
#include "common/kube/bearer_token.h"
#include "common/kube/idle_connections.h"
#include "common/kube/line_splitter.h"
#include "common/kube/retry_after.h"

namespace mc::kube {

namespace {

using http::Clock;
using http::Deadline;

// Each client has its own counters. So two clients in one process or test see their own traffic.
struct Counters {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> bytes_sent{0};
  std::atomic<std::uint64_t> bytes_received{0};
};

// The API server's heads are a few hundred bytes. No honest server sends a larger one.
constexpr std::size_t kMaxResponseHead = 64u << 10;
// A list answer is held whole. The agent and the pool select what they list. So this bounds only a
// confused server.
constexpr std::size_t kMaxResponseBody = 512u << 20;
// A watch answered with other than 200 carries a Status, not events. More than this of it is not
// worth keeping.
constexpr std::size_t kMaxErrorBody = 64u << 10;
// How long a watch waits on a silent stream before asking `stop` again.
constexpr std::chrono::milliseconds kStopPollInterval{1000};

bool MethodIsValid(const std::string& method) {
  if (method.empty()) return false;
  for (char c : method) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

// A header value may not hold a line break. Otherwise a token file's second line would become a
// header of its own.
bool FitsInHeader(const std::string& value) {
  for (char c : value) {
    if (c == '\r' || c == '\n' || c == '\0') return false;
  }
  return true;
}

// The target goes into the request line as it is. A space or a control character would end the line
// early.
bool FitsInRequestLine(const std::string& target) {
  for (const unsigned char c : target) {
    if (c <= 0x20 || c == 0x7f) return false;
  }
  return true;
}

// Keep-alive probes find a server that vanished without closing the connection. That matters most
// for watches, which have no deadline. A socket that refuses them still works.
void KeepAlive(const http::Stream& stream) {
  const int yes = 1, idle_s = 30, interval_s = 10;
  setsockopt(stream.fd(), SOL_SOCKET, SO_KEEPALIVE, &yes, sizeof yes);
  setsockopt(stream.fd(), IPPROTO_TCP, TCP_KEEPIDLE, &idle_s, sizeof idle_s);
  setsockopt(stream.fd(), IPPROTO_TCP, TCP_KEEPINTVL, &interval_s, sizeof interval_s);
}

// No answer is unavailable, or past its deadline. `what` names the call and `where` the server. The
// code is the one a caller's retry decides on.
Error NoAnswer(const std::string& what, const std::string& where, const Error& error) {
  const ErrorCode code =
      error.IsDeadlineExceeded() ? ErrorCode::kDeadlineExceeded : ErrorCode::kUnavailable;
  return Error{what + ": " + (where.empty() ? "" : where + ": ") + error.message, code};
}

// Whether the connection may carry another request after this whole answer.
bool Reusable(const http::ResponseHead& head, const http::BodyFraming& framing) {
  if (framing.kind == http::BodyFraming::Kind::kUntilClose) return false;
  if (http::HasToken(head.headers, "Connection", "close")) return false;
  return head.version == "HTTP/1.1" || http::HasToken(head.headers, "Connection", "keep-alive");
}

// What one exchange on one connection came to.
struct Answered {
  HttpResponse response;
  bool reusable = false;
};
struct ExchangeFailure {
  // No byte of the answer came. On a reused connection, the server had closed it.
  bool nothing_arrived = false;
};

// A watch's answer head, past any interim one. nullopt when `stop` said so while waiting.
Result<std::optional<http::ResponseHead>> ReadWatchHead(http::MessageReader& reader,
                                                        const std::function<bool()>& stop) {
  while (true) {
    Result<std::string> text = reader.ReadHead(kMaxResponseHead, Clock::now() + kStopPollInterval);
    if (!text) {
      // The head waits in the reader across tries. A try that timed out only asks `stop`.
      if (!text.error().IsDeadlineExceeded()) return text.error();
      if (stop()) return std::optional<http::ResponseHead>();
      continue;
    }
    Result<http::ResponseHead> parsed = http::ParseResponseHead(*text);
    if (!parsed) return parsed.error();
    if (parsed->status >= 200) return std::optional(std::move(*parsed));
  }
}

}  // namespace

struct KubeClient::State {
  State(KubeConfig config_in, ClientSettings settings_in, http::Url server_in)
      : config(std::move(config_in)),
        settings(std::move(settings_in)),
        server(std::move(server_in)),
        token(config.token, config.token_file) {
    // The server's path, if any, goes before every target.
    base_path = server.path_and_query == "/" ? "" : server.path_and_query;
    transport.ca_pem = config.ca_pem;
    transport.client_certificate_pem = config.client_cert_pem;
    transport.client_key_pem = config.client_key_pem;
    transport.verify_peer = !config.insecure_skip_tls_verify;
  }

  // HeadText is the request's head, ready to send. It says where, as whom and what it accepts. With
  // a body, it gives its type and length. The token is read afresh; its file may have rotated.
  Result<std::string> HeadText(const std::string& method, const std::string& target,
                               const std::string* content_type, std::size_t body_size) {
    Result<std::string> bearer = token.Current();
    if (!bearer) return bearer.error();
    if (!FitsInHeader(*bearer)) return Error{"the bearer token holds a line break"};
    http::RequestHead head{.method = method, .target = base_path + target};
    head.headers.push_back({"Host", server.HostHeader()});
    head.headers.push_back({"User-Agent", settings.user_agent});
    head.headers.push_back({"Accept", "application/json"});
    if (!bearer->empty()) head.headers.push_back({"Authorization", "Bearer " + *bearer});
    if (content_type) {
      head.headers.push_back({"Content-Type", *content_type});
      head.headers.push_back({"Content-Length", std::to_string(body_size)});
    }
    return http::RequestHeadText(head);
  }

  Result<std::unique_ptr<http::Stream>> Open(Deadline deadline) {
    const Deadline connected_by = std::min(deadline, Clock::now() + settings.connect_timeout);
    Result<std::unique_ptr<http::Stream>> stream = http::Connect(server, connected_by, transport);
    if (stream) KeepAlive(**stream);
    return stream;
  }

  // OpenWatch opens the watch's connection and sends its request. A watch has a connection of its
  // own. It never comes from the pool and never goes back. It ends when the server or `stop` ends
  // it. What is left of it is of no use to a request. Only connecting and sending the head have
  // deadlines. The stream has none.
  Result<std::unique_ptr<http::Stream>> OpenWatch(const std::string& target,
                                                  const std::string& what) {
    Result<std::string> head = HeadText("GET", target, nullptr, 0);
    if (!head) return head.error().WithContext(what);
    const Deadline sent_by = Clock::now() + settings.request_timeout;
    Result<std::unique_ptr<http::Stream>> opened = Open(sent_by);
    if (!opened) return NoAnswer(what, "", opened.error());
    if (Result<void> written = (*opened)->Write(*head, sent_by); !written)
      return NoAnswer(what, server.Origin(), written.error());
    counters.requests.fetch_add(1, std::memory_order_relaxed);
    return opened;
  }

  // Exchange writes the request on `stream` and reads its whole answer by `deadline`.
  Result<Answered> Exchange(http::Stream& stream, const std::string& wire, std::size_t body_size,
                            const std::string& method, Deadline deadline, ExchangeFailure& failed) {
    if (Result<void> written = stream.Write(wire, deadline); !written) {
      failed.nothing_arrived = true;
      return written.error();
    }
    counters.requests.fetch_add(1, std::memory_order_relaxed);
    counters.bytes_sent.fetch_add(body_size, std::memory_order_relaxed);

    http::MessageReader reader(stream);
    while (true) {
      Result<std::string> text = reader.ReadHead(kMaxResponseHead, deadline);
      if (!text) {
        failed.nothing_arrived = !reader.HasBuffered();
        return text.error();
      }
      Result<http::ResponseHead> head = http::ParseResponseHead(*text);
      if (!head) return head.error();
      // An interim answer comes before the real one: 100 Continue, 103 Early Hints.
      if (head->status < 200) continue;
      Result<http::BodyFraming> framing = http::ResponseBodyFraming(*head, method);
      if (!framing) return framing.error();
      Result<std::string> body = reader.ReadBody(*framing, kMaxResponseBody, deadline);
      if (!body) return body.error();
      counters.bytes_received.fetch_add(body->size(), std::memory_order_relaxed);

      Answered exchange;
      exchange.response.status = head->status;
      exchange.response.body = std::move(*body);
      if (head->status == 429 || head->status == 503) {
        if (http::HasHeader(head->headers, "Retry-After"))
          exchange.response.retry_after = ParseRetryAfter(
              http::HeaderValue(head->headers, "Retry-After"), std::chrono::system_clock::now());
      }
      // Nobody asked for bytes past the answer. The connection is out of step.
      exchange.reusable = Reusable(*head, *framing) && !reader.HasBuffered();
      return exchange;
    }
  }

  const KubeConfig config;
  const ClientSettings settings;
  const http::Url server;
  std::string base_path;
  http::TransportOptions transport;
  BearerToken token;
  Counters counters;
  IdleConnections idle;
};

Result<std::unique_ptr<KubeClient>> KubeClient::Create(KubeConfig config, ClientSettings settings) {
  if (!config.server.starts_with("https://") && !config.server.starts_with("http://")) {
    return Error{"API client: server \"" + config.server + "\" is not an http or https URL"};
  }
  while (config.server.ends_with('/')) config.server.pop_back();
  Result<http::Url> server = http::ParseUrl(config.server);
  if (!server) return Error{"API client: " + server.error_message()};
  if (server->path_and_query.find('?') != std::string::npos)
    return Error{"API client: server \"" + config.server + "\" holds a query"};
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    return Error{"API client: a client certificate needs its key, and a key its certificate"};
  }
  if (!FitsInHeader(settings.user_agent))
    return Error{"API client: the user agent holds a line break"};
  auto state = std::make_unique<State>(std::move(config), std::move(settings), std::move(*server));
  return std::unique_ptr<KubeClient>(new KubeClient(std::move(state)));
}

KubeClient::KubeClient(std::unique_ptr<State> state) : state_(std::move(state)) {}
KubeClient::~KubeClient() = default;

Result<HttpResponse> KubeClient::Send(const HttpRequest& request) {
  const std::string what = request.method + " " + request.target;
  if (!MethodIsValid(request.method)) return Error{what + ": the method is not an HTTP method"};
  if (!request.target.starts_with('/')) return Error{what + ": the target does not start with /"};
  if (!FitsInRequestLine(request.target))
    return Error{what + ": the target holds a space or a control character"};
  // The API server reads no body on GET or HEAD.
  const bool bodiless = request.method == "GET" || request.method == "HEAD";
  if (bodiless && !request.body.empty())
    return Error{what + ": a " + request.method + " carries no body"};
  // POST, PUT and PATCH say their length, even 0. Servers expect that.
  const bool has_body = !request.body.empty() || request.method == "POST" ||
                        request.method == "PUT" || request.method == "PATCH";
  if (has_body && !FitsInHeader(request.content_type))
    return Error{what + ": the content type holds a line break"};

  const Deadline deadline = Clock::now() + state_->settings.request_timeout;
  Result<std::string> head =
      state_->HeadText(request.method, request.target, has_body ? &request.content_type : nullptr,
                       request.body.size());
  if (!head) return head.error().WithContext(what);
  const std::string wire = *head + request.body;
  const std::string where = state_->server.Origin();

  // A pooled connection may have been closed by the server meanwhile, at its idle timeout. That
  // shows only once the request is on it. If no byte of an answer came, send the request once more
  // on a new connection. The server cannot have seen it. A server that closes an idle connection
  // reads no request from it.
  for (bool retried = false;; retried = true) {
    std::unique_ptr<http::Stream> stream = retried ? nullptr : state_->idle.Take();
    const bool reused = stream != nullptr;
    if (!stream) {
      Result<std::unique_ptr<http::Stream>> opened = state_->Open(deadline);
      if (!opened) return NoAnswer(what, "", opened.error());
      stream = std::move(*opened);
    }
    ExchangeFailure failed;
    Result<Answered> exchange =
        state_->Exchange(*stream, wire, request.body.size(), request.method, deadline, failed);
    if (!exchange) {
      if (reused && failed.nothing_arrived && !exchange.error().IsDeadlineExceeded()) continue;
      return NoAnswer(what, where, exchange.error());
    }
    // A connection goes back only here, its whole answer read.
    if (exchange->reusable) state_->idle.Put(std::move(stream));
    return std::move(exchange->response);
  }
}

Result<KubeClient::WatchEnd> KubeClient::Watch(
    const std::string& target, const std::function<void(std::string_view line)>& on_line,
    const std::function<bool()>& stop) {
  const std::string what = "watch " + target;
  if (!target.starts_with('/')) return Error{what + ": the target does not start with /"};
  if (!FitsInRequestLine(target))
    return Error{what + ": the target holds a space or a control character"};
  Result<std::unique_ptr<http::Stream>> opened = state_->OpenWatch(target, what);
  if (!opened) return opened.error();
  http::Stream& stream = **opened;
  const std::string where = state_->server.Origin();

  WatchEnd end;
  http::MessageReader reader(stream);
  Result<std::optional<http::ResponseHead>> head = ReadWatchHead(reader, stop);
  if (!head) return NoAnswer(what, where, head.error());
  if (!*head) {
    end.stopped = true;
    return end;
  }
  const http::ResponseHead& answer = **head;
  Result<http::BodyFraming> framing = http::ResponseBodyFraming(answer, "GET");
  if (!framing) return NoAnswer(what, where, framing.error());
  end.status = answer.status;

  http::StreamedBody body(*framing);
  LineSplitter lines;
  std::string wire = reader.TakeBuffered();
  std::string piece;
  std::vector<char> buffer(64u << 10);
  while (true) {
    if (!wire.empty()) {
      piece.clear();
      if (Result<void> fed = body.Feed(wire, piece); !fed)
        return NoAnswer(what, where, fed.error());
      wire.clear();
      state_->counters.bytes_received.fetch_add(piece.size(), std::memory_order_relaxed);
      if (end.status != 200) {
        const std::size_t room = kMaxErrorBody - std::min(kMaxErrorBody, end.error_body.size());
        end.error_body.append(piece, 0, std::min(room, piece.size()));
      } else if (!lines.Feed(piece, on_line)) {
        return Error{what + ": the server sent a line longer than " +
                     std::to_string(LineSplitter::kMaxLine) + " bytes"};
      }
    }
    if (body.done()) break;
    if (stop()) {
      end.stopped = true;
      end.error_body.clear();
      return end;
    }
    // Read bytes already taken off the socket (TLS records) first. A poll would not see them.
    if (!stream.HasBuffered()) {
      pollfd entry{.fd = stream.fd(), .events = POLLIN, .revents = 0};
      const int ready = poll(&entry, 1, static_cast<int>(kStopPollInterval.count()));
      if (ready == 0 || (ready < 0 && errno == EINTR)) continue;
      if (ready < 0) return Error{what + ": poll: " + std::strerror(errno), ErrorCode::kInternal};
    }
    // Readable may be less than a whole TLS record. A read that times out is silence.
    Result<std::size_t> got =
        stream.Read(buffer.data(), buffer.size(), Clock::now() + kStopPollInterval);
    if (!got) {
      if (got.error().IsDeadlineExceeded()) continue;
      return NoAnswer(what, where, got.error());
    }
    if (*got == 0) {
      if (Result<void> closed = body.Closed(); !closed)
        return NoAnswer(what, where, closed.error());
      break;
    }
    wire.assign(buffer.data(), *got);
  }
  if (end.status == 200 && !lines.rest().empty()) {
    // The body ended cleanly without a last newline. What is left is a whole last line.
    const std::string last(lines.rest());
    on_line(last);
  }
  return end;
}

Traffic KubeClient::traffic() const {
  Traffic traffic;
  traffic.requests = state_->counters.requests.load(std::memory_order_relaxed);
  traffic.bytes_sent = state_->counters.bytes_sent.load(std::memory_order_relaxed);
  traffic.bytes_received = state_->counters.bytes_received.load(std::memory_order_relaxed);
  return traffic;
}

}  // namespace mc::kube
