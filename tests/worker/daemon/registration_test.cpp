// The registration's refusals say what PeerTube said, in its own words and never as raw JSON, and
// what to do next: where a registration token is made, or to try again later.
#include "worker/daemon/registration.h"

#include <gtest/gtest.h>

#include "common/http/http_server.h"

namespace mc::worker {
namespace {

// A PeerTube that answers every registration with `status` and `body`.
std::unique_ptr<http::Server> Refusing(int status, std::string body) {
  Result<std::unique_ptr<http::Server>> server =
      http::Server::Start("127.0.0.1:0", {}, {},
                          {{"/api/v1/runners/register", [status, body](const http::ActionRequest&) {
                              return http::Response{.status = status, .body = body};
                            }}});
  EXPECT_TRUE(server) << server.error_message();
  return server ? std::move(*server) : nullptr;
}

Result<Registration> Register(const http::Server& server) {
  return RegisterRunner({.server_url = "http://" + server.address(),
                         .registration_token = "ptrrt-not-known",
                         .runner_name = "box-1:gpu0"});
}

TEST(RegisterRunner, ATokenPeerTubeDoesNotKnowSaysWhereRegistrationTokensAreMade) {
  const std::unique_ptr<http::Server> peertube =
      Refusing(404, R"({"type": "about:blank", "title": "Not Found", )"
                    R"("detail": "Registration token is invalid", "status": 404})");
  ASSERT_NE(peertube, nullptr);
  const Result<Registration> registered = Register(*peertube);
  ASSERT_FALSE(registered);
  const std::string& message = registered.error_message();
  EXPECT_TRUE(registered.error().IsPermissionDenied()) << message;
  EXPECT_NE(message.find("PeerTube refused the registration (HTTP 404: Registration token is "
                         "invalid)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Administration > Runners > Remote runners > Runner registration tokens"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("register again"), std::string::npos) << message;
  EXPECT_EQ(message.find("about:blank"), std::string::npos) << message;
  EXPECT_EQ(message.find("ptrrt-not-known"), std::string::npos) << message;
}

TEST(RegisterRunner, AServerErrorSaysToTryAgainLater) {
  const std::unique_ptr<http::Server> peertube = Refusing(503, "");
  ASSERT_NE(peertube, nullptr);
  const Result<Registration> registered = Register(*peertube);
  ASSERT_FALSE(registered);
  EXPECT_TRUE(registered.error().IsUnavailable()) << registered.error_message();
  EXPECT_NE(registered.error_message().find("try again later"), std::string::npos)
      << registered.error_message();
}

}  // namespace
}  // namespace mc::worker
