// CannedHttpServer answers plain HTTP on 127.0.0.1 with whatever a test tells it to, so that
// the client's handling of answers the real API server gives only rarely (429 with
// Retry-After, a watch cut into odd pieces, a stream that stays silent, a kept connection the
// server drops) can be tested. Each connection is served on a thread of its own.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mc::kube::testing {

class CannedHttpServer {
 public:
  // What becomes of a connection once `respond` has answered a request on it.
  enum class AfterAnswer {
    kClose,      // closed, one request per connection
    kHold,       // left open and silent until the server is destroyed
    kKeepAlive,  // read on for the next request, until the client closes or `respond` asks
  };

  // What `respond` writes through: the answer's bytes, raw, in pieces, and on a kept-alive
  // connection the wish to close it after this answer.
  class Send {
   public:
    Send(int connection, bool* close) : connection_(connection), close_(close) {}
    void operator()(const std::string& bytes) const;
    // Close ends the connection once `respond` returns, as a server does with an idle one.
    void Close() const { *close_ = true; }

   private:
    int connection_;
    bool* close_;
  };
  using Respond = std::function<void(const std::string& request, const Send& send)>;

  explicit CannedHttpServer(Respond respond, AfterAnswer after = AfterAnswer::kClose);
  ~CannedHttpServer();
  CannedHttpServer(const CannedHttpServer&) = delete;
  CannedHttpServer& operator=(const CannedHttpServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Every request received so far, in the order they arrived.
  std::vector<std::string> requests();
  // How many connections were accepted so far.
  int connections() const { return accepted_.load(); }

 private:
  void Serve();
  void Handle(int connection);
  // ReadRequest reads one request (head and Content-Length body) into `request`; false when
  // the client closed first or the server is stopping.
  bool ReadRequest(int connection, std::string& pending, std::string& request);

  Respond respond_;
  AfterAnswer after_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> done_{false};
  std::atomic<int> accepted_{0};
  std::mutex mutex_;
  std::vector<std::string> requests_;
  std::vector<std::thread> handlers_;
  std::thread thread_;
};

}  // namespace mc::kube::testing
