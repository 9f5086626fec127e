// KubeClient sends requests to the Kubernetes API server over the project's own HTTP/1.1
// client parts (src/common/http): plain requests with a deadline, and watches, which stream one
// JSON event per line until the server ends them or the caller stops them. It knows HTTP and
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
  // The server's Retry-After, in seconds, on a 429 or 503 that carries one.
  std::optional<std::chrono::seconds> retry_after;
};

struct ClientSettings {
  std::chrono::milliseconds connect_timeout{5000};
  // The whole of one plain request; a watch has no such limit.
  std::chrono::milliseconds request_timeout{30000};
  std::string user_agent = "media-capabilities";
};

// What the client has sent and received so far, for the benchmarks: every request that
// reached the wire, watches included, and the bytes of bodies in each direction.
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
  // response; only a request that got no answer (refused, TLS failure, timeout, unreadable
  // token file) is an Error, naming the method and target. A GET or HEAD with a body is
  // refused. Connections are kept between calls (up to 8 idle) and reused; a request on a
  // kept connection that the server had closed, so that no byte of an answer came, is sent
  // once more on a new one.
  Result<HttpResponse> Send(const HttpRequest& request);

  // Watch GETs `target` (which must hold watch=true) and calls `on_line` with each complete
  // line of the body as it arrives. It returns the HTTP status once the stream ends: the
  // server closed it, or `stop` answered true (it is asked at least once a second). A
  // status other than 200 comes back with the body in `error_body`.
  //
  // Lines come without their line break; empty lines are skipped. A stream that ends before
  // its framing says the body does (a length not reached, no last chunk) is an Error, as is a
  // line longer than 16 MiB. The watch has a connection of its own, closed when it ends. The
  // callbacks run on the calling thread; an exception thrown by either ends the watch and
  // is thrown again from Watch.
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

// StatusMessage is the reason an API answer gives, after its status code: "HTTP 500: " and the
// `message` of a Status object when the body is one, else the start of the body, on one line.
std::string StatusMessage(const HttpResponse& response);

}  // namespace mc::kube
