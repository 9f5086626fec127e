// The service's read of PeerTube's queue (PeerTubeQueue over AdminSession) against a fake
// transport answering with what PeerTube 7.2.1 answered (tests/peertube/data/admin-api/): the
// jobs become the queue signal with their videos' shapes, and the log says when the session
// logged in, and when it had to log in again because PeerTube refused its token.
#include "pool/service/peertube_queue.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace mc::pool {
namespace {

std::string AdminAnswer(const std::string& name) {
  std::ifstream in(std::string(PEERTUBE_DATA_DIR) + "/admin-api/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Result<http::ClientResponse> Answer(int status, std::string body) {
  return http::ClientResponse{.status = status, .body = std::move(body)};
}

struct FakeServer {
  peertube::AdminSession Session() {
    peertube::AdminSessionOptions options;
    options.send = [this](const http::Url& url, const http::ClientRequest& request) {
      return Serve(url, request);
    };
    return peertube::AdminSession(*http::ParseUrl("http://127.0.0.1:9001"),
                                  peertube::AdminCredentials("root", "test1-secret"), options);
  }

  // While set, every job list is refused with a 401 and every refresh with a 400, as a
  // PeerTube that no longer knows the session's tokens answers.
  bool tokens_unknown = false;
  // The job list's answer, where not the recorded one.
  std::string jobs;

  Result<http::ClientResponse> Serve(const http::Url& url, const http::ClientRequest& request) {
    const std::string path = url.path_and_query.substr(0, url.path_and_query.find('?'));
    if (path == "/api/v1/oauth-clients/local")
      return Answer(200, AdminAnswer("oauth-client-local.json"));
    if (path == "/api/v1/users/token") {
      if (tokens_unknown && request.body.find("grant_type=refresh_token") != std::string::npos)
        return Answer(400, AdminAnswer("users-token-invalid-grant-400.json"));
      if (tokens_unknown) tokens_unknown = false;
      return Answer(200, AdminAnswer("users-token-password.json"));
    }
    if (path == "/api/v1/runners/jobs") {
      if (tokens_unknown) return Answer(401, AdminAnswer("invalid-token-401.json"));
      return Answer(200, jobs.empty() ? AdminAnswer("jobs-pending.json") : jobs);
    }
    if (path.find("/metadata/") != std::string::npos)
      return Answer(200, AdminAnswer("video-file-metadata-720p.json"));
    if (path == "/api/v1/videos/433600b5-b8b4-4920-a9dc-fcea1a908566")
      return Answer(200, AdminAnswer("video-to-transcode-720p.json"));
    if (path == "/api/v1/videos/cb13ce3d-247a-4414-accd-05a2d1c6b361")
      return Answer(200, AdminAnswer("video-to-transcode-480p.json"));
    return Answer(404, AdminAnswer("video-not-found.json"));
  }
};

TEST(PeerTubeQueue, ReadsThePendingJobsWithTheirVideosShapesAndSaysItLoggedInOnce) {
  FakeServer server;
  peertube::AdminSession session = server.Session();
  std::vector<std::string> log;
  PeerTubeQueue queue(session, {"vod-web-video-transcoding"},
                      [&](const std::string& line) { log.push_back(line); });
  Result<pool::QueueSignal> read = queue.Read(1796276000);
  ASSERT_TRUE(read) << read.error_message();
  ASSERT_EQ(read->pending.size(), 2u);
  EXPECT_EQ(read->pending[0].shape.source_resolution, 720);
  EXPECT_EQ(read->pending[1].shape.source_resolution, 480);
  ASSERT_TRUE(queue.Read(1796276015));
  EXPECT_EQ(log, (std::vector<std::string>{"pool: logged in to PeerTube"}));
}

TEST(PeerTubeQueue, CountsJobsOfTypesItDoesNotServeApartAndNeverAsDemand) {
  FakeServer server;
  // The recorded list, its second job a storyboard (PeerTube 8), and a type of a later one.
  nlohmann::json list = nlohmann::json::parse(AdminAnswer("jobs-pending.json"));
  list["data"][1]["type"] = "generate-video-storyboard";
  nlohmann::json later = list["data"][1];
  later["type"] = "a-type-of-a-later-peertube";
  later["uuid"] = "11111111-2222-4333-8444-555555555555";
  list["data"].push_back(later);
  list["total"] = 3;
  server.jobs = list.dump();
  peertube::AdminSession session = server.Session();
  PeerTubeQueue queue(session, {"vod-web-video-transcoding"}, [](const std::string&) {});
  // 2026-12-03T05:35:49.597Z: a minute after the storyboard became pending.
  Result<pool::QueueSignal> read = queue.Read(1796276149.597);
  ASSERT_TRUE(read) << read.error_message();
  ASSERT_EQ(read->pending.size(), 1u);
  EXPECT_EQ(read->pending[0].type, "vod-web-video-transcoding");
  ASSERT_EQ(read->not_served.size(), 2u);
  EXPECT_EQ(read->not_served.at("generate-video-storyboard").count, 1);
  EXPECT_NEAR(read->not_served.at("generate-video-storyboard").oldest_age.count(), 60, 0.01);
  EXPECT_EQ(read->not_served.at("a-type-of-a-later-peertube").count, 1);
}

TEST(PeerTubeQueue, SaysItLoggedInAgainWhenPeerTubeNoLongerKnowsItsTokens) {
  FakeServer server;
  peertube::AdminSession session = server.Session();
  std::vector<std::string> log;
  PeerTubeQueue queue(session, {}, [&](const std::string& line) { log.push_back(line); });
  ASSERT_TRUE(queue.Read(1796276000));
  // A server restarted with a new database: the token is refused, then its refresh.
  server.tokens_unknown = true;
  Result<pool::QueueSignal> read = queue.Read(1796276015);
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_EQ(session.password_grants(), 2u);
  ASSERT_EQ(log.size(), 2u);
  EXPECT_EQ(log[1], "pool: logged in to PeerTube again (password grant 2)");
  for (const std::string& line : log) EXPECT_EQ(line.find("test1-secret"), std::string::npos);
}

}  // namespace
}  // namespace mc::pool
