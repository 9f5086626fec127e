#include "control_recorder.h"

#include <gtest/gtest.h>

namespace mc::pool::testing {

ControlRecorder::ControlRecorder(std::map<std::string, http::Response> answers) {
  http::Actions actions;
  for (const char* path : {"/drain", "/enable", "/concurrency", "/eligibility"}) {
    actions[path] = [this, answers](const http::ActionRequest& request) {
      {
        const std::lock_guard lock(mutex_);
        seen_.push_back({request.path, request.authorization, request.body});
      }
      const auto answer = answers.find(request.path);
      return answer == answers.end() ? http::Response{.body = "{\"ok\": true}\n"} : answer->second;
    };
  }
  http::Routes routes;
  routes["/status"] = [] {
    return http::Response{.content_type = "application/json", .body = "{}"};
  };
  Result<std::unique_ptr<http::Server>> server =
      http::Server::Start("127.0.0.1:0", std::move(routes), {}, std::move(actions));
  EXPECT_TRUE(server) << server.error_message();
  if (server) server_ = std::move(*server);
}

std::vector<ControlRecorder::Seen> ControlRecorder::seen() const {
  const std::lock_guard lock(mutex_);
  return seen_;
}

}  // namespace mc::pool::testing
