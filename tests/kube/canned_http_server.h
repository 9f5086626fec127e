// CannedHttpServer answers plain HTTP on 127.0.0.1 with whatever a test tells it to, so that
// the client's handling of answers the real API server gives only rarely (429 with
// Retry-After, a watch cut into odd pieces, a stream that stays silent) can be tested.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mc::kube::testing {

class CannedHttpServer {
 public:
  // `respond` gets each request (its head and body, as sent) and writes the answer, raw, in
  // pieces through `send`; after it returns the connection is closed, unless `hold` is set,
  // in which case it stays open and silent until the server is destroyed.
  using Send = std::function<void(const std::string& bytes)>;
  using Respond = std::function<void(const std::string& request, const Send& send)>;

  explicit CannedHttpServer(Respond respond, bool hold = false);
  ~CannedHttpServer();
  CannedHttpServer(const CannedHttpServer&) = delete;
  CannedHttpServer& operator=(const CannedHttpServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Every request received so far.
  std::vector<std::string> requests();

 private:
  void Serve();
  void Handle(int connection);

  Respond respond_;
  bool hold_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> done_{false};
  std::mutex mutex_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

}  // namespace mc::kube::testing
