// ControlRecorder is the project's HTTP server serving the worker control API's paths: it
// records each POST as it arrived (path, Authorization, body) and answers as told, so a test
// sees the order and the headers of what a channel sent.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/http/http_server.h"

namespace mc::pool::testing {

class ControlRecorder {
 public:
  struct Seen {
    std::string path;
    std::string authorization;
    std::string body;
  };

  // `answers` by path; a path without one is answered 200 {"ok": true}.
  explicit ControlRecorder(std::map<std::string, http::Response> answers);

  std::string url() const { return "http://" + server_->address(); }
  std::vector<Seen> seen() const;

 private:
  mutable std::mutex mutex_;
  std::vector<Seen> seen_;
  std::unique_ptr<http::Server> server_;
};

}  // namespace mc::pool::testing
