// KubeClient sends requests to the Kubernetes API server. It uses the project's own HTTP/1.1 client
// parts (src/common/http). It sends:
// - plain requests, with a deadline;
// - watches, which stream one JSON event per line.
//
// A watch lasts until the server ends it or the caller stops it. The client knows HTTP and
// authentication, nothing of resources.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/kube/kube_config.h"

namespace mc::kube {

struct HttpRequest {
  std::string method = "GET";
  // The path and query, such as "/apis/resource.k8s.io/v1/resourceslices?fieldSelector=...".
  std::string target;
  std::string body;
  std::string content_type = "application/json";
};

struct HttpResponse {
  long status = 0;
  std::string body;
  // The server's Retry-After in seconds, on a 429 or 503 that has one.
  std::optional<std::chrono::seconds> retry_after;
};

struct ClientSettings {
  std::chrono::milliseconds connect_timeout{5000};
  // Limits one plain request's whole run; a watch has none.
  std::chrono::milliseconds request_timeout{30000};
  std::string user_agent = "media-capabilities";
};

// What the client has sent and received so far, for the benchmarks:
// - every request that reached the wire, watches included;
// - the bytes of bodies in each direction.
struct Traffic {
  std::uint64_t requests = 0;
  std::uint64_t bytes_sent = 0;
  std::uint64_t bytes_received = 0;
};

class KubeClient {
 public:
  static Result<std::unique_ptr<KubeClient>> Create(KubeConfig config,
                                                    ClientSettings settings = {});
  ~KubeClient();
  KubeClient(const KubeClient&) = delete;
  KubeClient& operator=(const KubeClient&) = delete;

  // Send performs one request; any thread may call it. An answer with any HTTP status is a
  // response. A request that got no answer is an Error naming the method and target. Examples:
  // refused, TLS failure, timeout, unreadable token file. A GET or HEAD with a body is refused.
  // Connections are kept between calls and reused, up to 8 idle. The server may have closed a kept
  // connection. If no byte of an answer came, the request is sent once more on a new one.
  Result<HttpResponse> Send(const HttpRequest& request);

  // Watch GETs `target`, which must hold watch=true. It calls `on_line` with each complete line of
  // the body as it arrives. It returns the HTTP status once the stream ends. It ends when the
  // server closed it or `stop` answered true. `stop` is asked at least once a second. A status
  // other than 200 comes back with the body in `error_body`.
  //
  // Lines come without their line break. Empty lines are skipped. These are Errors:
  // - a stream that ends before its framing says, such as a length not reached or no last chunk;
  // - a line longer than 16 MiB.
  //
  // The watch has a connection of its own, closed when it ends. The callbacks run on the calling
  // thread. An exception from either ends the watch; Watch throws it again.
  struct WatchEnd {
    long status = 0;
    std::string error_body;
    bool stopped = false;
  };
  Result<WatchEnd> Watch(const std::string& target,
                         const std::function<void(std::string_view line)>& on_line,
                         const std::function<bool()>& stop);

  Traffic traffic() const;

 private:
  struct State;
  explicit KubeClient(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// StatusMessage is the reason an API answer gives, on one line. It starts with the status code:
// "HTTP 500: ". Then comes the `message` of a Status object, when the body is one. Otherwise the
// start of the body follows.
std::string StatusMessage(const HttpResponse& response);

}  // namespace mc::kube
