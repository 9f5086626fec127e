// AdminSession against a fake server that answers with what PeerTube 7.2.1 answered
// (data/admin-api/), on a clock the test moves: the login, the refresh at 80 % of the
// token's life and on a 401, the fallback to the password grant, the request budget's
// sliding window, a 429's wait, paging, the video cache, and messages free of secrets.
#include "common/peertube/admin_session.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <nlohmann/json.hpp>

#include "admin_api_records.h"
#include "common/base/read_file.h"

namespace mc::peertube {
namespace {

using admin_api_records::kVideo480;
using admin_api_records::kVideo720;
using admin_api_records::Recorded;

using Clock = std::chrono::steady_clock;
using std::chrono::seconds;

constexpr char kPassword[] = "test1-secret";
constexpr double kTokenLife = 86399;

struct SentRequest {
  std::string method;
  std::string target;
  std::string body;
  std::string authorization;

  std::string Path() const { return target.substr(0, target.find('?')); }
};

// FakeServer answers by path: a queued answer first, else the path's standing answer. It
// pages the runner jobs of `jobs` by the query's start and count, as PeerTube does.
class FakeServer {
 public:
  FakeServer() {
    Stand("/api/v1/oauth-clients/local", Ok(Recorded("oauth-client-local.json")));
    Stand("/api/v1/users/token", Ok(Recorded("users-token-password.json")));
    Stand("/api/v1/videos/" + std::string(kVideo720), Ok(Recorded("video-published-720p.json")));
    Stand("/api/v1/videos/" + std::string(kVideo480), Ok(Recorded("video-published-480p.json")));
    Stand("/api/v1/runners", Ok(Recorded("runners.json")));
    jobs = nlohmann::json::parse(Recorded("jobs-all-states.json"))["data"];
  }

  static Result<http::ClientResponse> Ok(std::string body) { return Answer(200, std::move(body)); }
  static Result<http::ClientResponse> Answer(int status, std::string body) {
    return http::ClientResponse{.status = status, .body = std::move(body)};
  }

  void Queue(const std::string& path, Result<http::ClientResponse> answer) {
    queued_[path].push_back(std::move(answer));
  }
  void Stand(const std::string& path, Result<http::ClientResponse> answer) {
    standing_.insert_or_assign(path, std::move(answer));
  }

  Result<http::ClientResponse> Serve(const http::Url& url, const http::ClientRequest& request) {
    SentRequest sent{request.method, url.path_and_query, request.body,
                     std::string(http::HeaderValue(request.headers, "Authorization"))};
    sent_.push_back(sent);
    if (auto queued = queued_.find(sent.Path());
        queued != queued_.end() && !queued->second.empty()) {
      Result<http::ClientResponse> answer = std::move(queued->second.front());
      queued->second.pop_front();
      return answer;
    }
    if (sent.Path() == "/api/v1/runners/jobs") return JobsPage(sent.target);
    if (auto standing = standing_.find(sent.Path()); standing != standing_.end())
      return standing->second;
    if (sent.Path().find("/metadata/") != std::string::npos)
      return Ok(Recorded("video-file-metadata-720p.json"));
    return Answer(404, Recorded("video-not-found.json"));
  }

  AdminSessionOptions::Sender Sender() {
    return [this](const http::Url& url, const http::ClientRequest& request) {
      return Serve(url, request);
    };
  }

  const std::vector<SentRequest>& sent() const { return sent_; }
  std::vector<std::string> Paths() const {
    std::vector<std::string> paths;
    for (const SentRequest& request : sent_) paths.push_back(request.Path());
    return paths;
  }
  int CountOf(const std::string& path) const {
    int count = 0;
    for (const SentRequest& request : sent_) count += request.Path() == path;
    return count;
  }

  nlohmann::json jobs;

 private:
  static long long QueryNumber(const std::string& target, const std::string& name) {
    const std::size_t at = target.find(name + "=");
    return at == std::string::npos ? 0 : std::stoll(target.substr(at + name.size() + 1));
  }

  Result<http::ClientResponse> JobsPage(const std::string& target) {
    const std::size_t start = QueryNumber(target, "start");
    const std::size_t count = QueryNumber(target, "count");
    nlohmann::json page = nlohmann::json::array();
    for (std::size_t i = start; i < jobs.size() && i < start + count; ++i) page.push_back(jobs[i]);
    return Ok(nlohmann::json{{"total", jobs.size()}, {"data", page}}.dump());
  }

  std::map<std::string, std::deque<Result<http::ClientResponse>>> queued_;
  std::map<std::string, Result<http::ClientResponse>> standing_;
  std::vector<SentRequest> sent_;
};

class AdminSessionTest : public ::testing::Test {
 protected:
  AdminSession Session(AdminSessionOptions options = {}) {
    options.now = [this] { return now; };
    options.send = server.Sender();
    return AdminSession(*http::ParseUrl("http://127.0.0.1:9001"),
                        AdminCredentials("root", kPassword), std::move(options));
  }

  void Advance(double s) {
    now += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
  }

  FakeServer server;
  Clock::time_point now = Clock::time_point() + std::chrono::hours(1000);
};

const std::vector<std::string> kVodTypes = {"vod-web-video-transcoding", "vod-hls-transcoding"};

TEST_F(AdminSessionTest, LogsInOnceThenReusesTheTokenUntil80PercentOfItsLife) {
  AdminSession session = Session();
  ASSERT_TRUE(session.PendingRunnerJobs(kVodTypes));
  EXPECT_EQ(server.Paths(),
            (std::vector<std::string>{"/api/v1/oauth-clients/local", "/api/v1/users/token",
                                      "/api/v1/runners/jobs"}));
  const SentRequest& grant = server.sent()[1];
  EXPECT_EQ(grant.method, "POST");
  EXPECT_NE(grant.body.find("grant_type=password"), std::string::npos);
  EXPECT_NE(grant.body.find("client_id=06ivl6o74diljsd3pj2hk5rjo3rpnv8p"), std::string::npos);
  EXPECT_NE(grant.body.find("username=root"), std::string::npos);
  EXPECT_EQ(server.sent()[2].authorization, "Bearer removed-access-token-of-the-password-grant");

  Advance(0.79 * kTokenLife);
  ASSERT_TRUE(session.Runners());
  EXPECT_EQ(session.requests_made(), 4u);
  EXPECT_EQ(session.refreshes(), 0u);

  Advance(0.011 * kTokenLife);
  server.Stand("/api/v1/users/token", FakeServer::Ok(Recorded("users-token-refresh.json")));
  ASSERT_TRUE(session.Runners());
  EXPECT_EQ(session.requests_made(), 6u);
  EXPECT_EQ(session.refreshes(), 1u);
  EXPECT_EQ(session.password_grants(), 1u);
  const SentRequest& refresh = server.sent()[4];
  EXPECT_NE(refresh.body.find("grant_type=refresh_token"), std::string::npos);
  EXPECT_NE(refresh.body.find("refresh_token=removed-refresh-token-of-the-password-grant"),
            std::string::npos);
  EXPECT_EQ(server.sent()[5].authorization, "Bearer removed-access-token-of-the-refresh-grant");
}

TEST_F(AdminSessionTest, A401RefreshesTheTokenAtOnceAndRetriesTheReadOnce) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  server.Queue("/api/v1/runners", FakeServer::Answer(401, Recorded("invalid-token-401.json")));
  server.Stand("/api/v1/users/token", FakeServer::Ok(Recorded("users-token-refresh.json")));
  Result<std::vector<RegisteredRunner>> runners = session.Runners();
  ASSERT_TRUE(runners) << runners.error_message();
  EXPECT_EQ(runners->size(), 3u);
  EXPECT_EQ(session.refreshes(), 1u);
  EXPECT_EQ(server.CountOf("/api/v1/runners"), 3);

  // A server that refuses every token gets one retry, then the read fails.
  server.Stand("/api/v1/runners", FakeServer::Answer(401, Recorded("invalid-token-401.json")));
  Result<std::vector<RegisteredRunner>> refused = session.Runners();
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().IsPermissionDenied()) << refused.error_message();
  EXPECT_EQ(server.CountOf("/api/v1/runners"), 5);
}

TEST_F(AdminSessionTest, ARefusedRefreshFallsBackToThePasswordGrant) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  Advance(0.9 * kTokenLife);
  server.Queue("/api/v1/users/token",
               FakeServer::Answer(400, Recorded("users-token-invalid-grant-400.json")));
  Result<std::vector<RegisteredRunner>> runners = session.Runners();
  ASSERT_TRUE(runners) << runners.error_message();
  EXPECT_EQ(session.refreshes(), 1u);
  EXPECT_EQ(session.password_grants(), 2u);
  // The client is still good: it is not read again.
  EXPECT_EQ(server.CountOf("/api/v1/oauth-clients/local"), 1);
  EXPECT_NE(server.sent()[4].body.find("grant_type=password"), std::string::npos);
}

TEST_F(AdminSessionTest, ARefreshThatGetsNoAnswerKeepsTheTokenWhileItLasts) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  Advance(0.9 * kTokenLife);
  server.Stand("/api/v1/users/token", Unavailable("POST /api/v1/users/token: connection refused"));
  ASSERT_TRUE(session.Runners());
  EXPECT_EQ(server.sent().back().authorization,
            "Bearer removed-access-token-of-the-password-grant");
  Advance(0.11 * kTokenLife);
  Result<std::vector<RegisteredRunner>> expired = session.Runners();
  ASSERT_FALSE(expired);
  EXPECT_TRUE(expired.error().IsUnavailable()) << expired.error_message();
}

TEST_F(AdminSessionTest, AnExpiredRefreshTokenGoesStraightToThePasswordGrant) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  Advance(1209600);
  ASSERT_TRUE(session.Runners());
  EXPECT_EQ(session.refreshes(), 0u);
  EXPECT_EQ(session.password_grants(), 2u);
}

TEST_F(AdminSessionTest, AWrongPasswordIsNotTriedAgainForAMinute) {
  AdminSession session = Session();
  server.Stand(
      "/api/v1/users/token",
      FakeServer::Answer(
          400,
          R"({"code":"invalid_grant","detail":"Invalid grant: user credentials are invalid"})"));
  Result<std::vector<RegisteredRunner>> first = session.Runners();
  ASSERT_FALSE(first);
  EXPECT_TRUE(first.error().IsPermissionDenied());
  EXPECT_EQ(first.error_message(),
            "the runners: no token: the password grant: HTTP 400 (invalid_grant: Invalid grant: "
            "user credentials are invalid)");
  const std::uint64_t sent = session.requests_made();
  Advance(30);
  Result<std::vector<RegisteredRunner>> second = session.Runners();
  ASSERT_FALSE(second);
  EXPECT_TRUE(second.error().IsPermissionDenied());
  EXPECT_EQ(second.error().retry_after, seconds(30));
  EXPECT_EQ(session.requests_made(), sent);
  Advance(30);
  server.Stand("/api/v1/users/token", FakeServer::Ok(Recorded("users-token-password.json")));
  EXPECT_TRUE(session.Runners());
  // The refused grant made the session read the client again.
  EXPECT_EQ(server.CountOf("/api/v1/oauth-clients/local"), 2);
}

TEST_F(AdminSessionTest, TheBudgetRefusesRequestsPastItInASlidingWindowWithoutSleeping) {
  AdminSessionOptions options;
  options.request_budget = 5;
  AdminSession session = Session(options);
  ASSERT_TRUE(session.Runners());  // client, token, runners: 3
  Advance(4);
  ASSERT_TRUE(session.Runners());  // 4
  ASSERT_TRUE(session.Runners());  // 5
  Advance(1);
  Result<std::vector<RegisteredRunner>> refused = session.Runners();
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().IsUnavailable());
  EXPECT_EQ(refused.error_message(),
            "GET /api/v1/runners: not sent: the session's budget of 5 requests per 10 s is spent; "
            "the next fits in 5 s");
  EXPECT_EQ(refused.error().retry_after, seconds(5));
  EXPECT_EQ(session.requests_made(), 5u);
  // The first three age out 10 s after they were sent, the other two 4 s later.
  Advance(5);
  ASSERT_TRUE(session.Runners());
  ASSERT_TRUE(session.Runners());
  ASSERT_TRUE(session.Runners());
  EXPECT_FALSE(session.Runners());
  EXPECT_EQ(session.requests_made(), 8u);
}

TEST_F(AdminSessionTest, A429IsHonouredForItsRetryAfter) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  http::ClientResponse limited{.status = 429, .body = "Too many requests, please try again later."};
  limited.headers.push_back({"Retry-After", "9"});
  server.Queue("/api/v1/runners", limited);
  Result<std::vector<RegisteredRunner>> first = session.Runners();
  ASSERT_FALSE(first);
  EXPECT_TRUE(first.error().IsUnavailable());
  EXPECT_EQ(first.error().retry_after, seconds(9));
  const std::uint64_t sent = session.requests_made();
  Advance(8.5);
  Result<std::vector<RegisteredRunner>> waiting = session.Runners();
  ASSERT_FALSE(waiting);
  EXPECT_EQ(waiting.error_message(),
            "GET /api/v1/runners: not sent: the server answered 429 and asked to wait 1 s more");
  EXPECT_EQ(session.requests_made(), sent);
  Advance(0.5);
  EXPECT_TRUE(session.Runners());
  EXPECT_EQ(session.requests_made(), sent + 1);
}

TEST_F(AdminSessionTest, A429sWaitCountsFromWhenTheAnswerCameNotWhenTheRequestLeft) {
  // A server (or a proxy in front of it) that takes 4 s to say 429 with Retry-After: 5.
  AdminSessionOptions options;
  options.now = [this] { return now; };
  options.send = [this](const http::Url& url, const http::ClientRequest& request) {
    Result<http::ClientResponse> answer = server.Serve(url, request);
    if (answer && answer->status == 429) Advance(4);
    return answer;
  };
  AdminSession slow(*http::ParseUrl("http://127.0.0.1:9001"), AdminCredentials("root", kPassword),
                    std::move(options));
  ASSERT_TRUE(slow.Runners());
  http::ClientResponse limited{.status = 429, .body = "Too many requests, please try again later."};
  limited.headers.push_back({"Retry-After", "5"});
  server.Queue("/api/v1/runners", limited);
  ASSERT_FALSE(slow.Runners());
  const std::uint64_t sent = slow.requests_made();
  // 5 s after the request left, but only 1 s after the answer came: still inside the wait.
  Advance(1);
  Result<std::vector<RegisteredRunner>> waiting = slow.Runners();
  ASSERT_FALSE(waiting);
  EXPECT_EQ(waiting.error_message(),
            "GET /api/v1/runners: not sent: the server answered 429 and asked to wait 4 s more");
  EXPECT_EQ(slow.requests_made(), sent);
  Advance(4);
  EXPECT_TRUE(slow.Runners());
  EXPECT_EQ(slow.requests_made(), sent + 1);
}

TEST_F(AdminSessionTest, A5xxOrATransportFailureIsUnavailableAndLeftToTheNextCycle) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  server.Queue("/api/v1/runners/jobs", FakeServer::Answer(502, "Bad Gateway"));
  Result<std::vector<PendingJob>> bad = session.PendingRunnerJobs(kVodTypes);
  ASSERT_FALSE(bad);
  EXPECT_TRUE(bad.error().IsUnavailable());
  server.Queue("/api/v1/runners/jobs",
               Unavailable("GET http://127.0.0.1:9001/api/v1/runners/jobs: connection refused"));
  EXPECT_FALSE(session.PendingRunnerJobs(kVodTypes));
  EXPECT_EQ(server.CountOf("/api/v1/runners/jobs"), 2);
  EXPECT_TRUE(session.PendingRunnerJobs(kVodTypes));
}

TEST_F(AdminSessionTest, PagesUntilTheTotalAndKeepsOnlyPendingJobsOfTheTypesAsked) {
  AdminSessionOptions options;
  options.page_size = 5;
  AdminSession session = Session(options);
  // PeerTube 7.2.1 filters by neither type nor (here) state: the session does both.
  Result<std::vector<PendingJob>> jobs = session.PendingRunnerJobs({"vod-web-video-transcoding"});
  ASSERT_TRUE(jobs) << jobs.error_message();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].uuid, "2ee53e6a-c028-47ff-9ca4-bcad4434b21b");
  EXPECT_EQ((*jobs)[0].video_uuid, kVideo720);
  EXPECT_EQ((*jobs)[1].uuid, "21fc9512-cef4-4384-bcb4-3a7e641f479c");
  EXPECT_EQ(server.CountOf("/api/v1/runners/jobs"), 3);  // 14 jobs by 5
  EXPECT_EQ(server.sent()[2].target,
            "/api/v1/runners/jobs?stateOneOf=1&typeOneOf=vod-web-video-transcoding&start=0&count=5&"
            "sort=createdAt");
  EXPECT_NE(server.sent()[4].target.find("&start=10&count=5&"), std::string::npos);
  Result<std::vector<PendingJob>> hls = session.PendingRunnerJobs({"vod-hls-transcoding"});
  ASSERT_TRUE(hls);
  EXPECT_TRUE(hls->empty());
}

TEST_F(AdminSessionTest, LeavesOutACompletingJobEvenWhenTheServerListsIt) {
  AdminSession session = Session();
  server.jobs[0]["state"] = {{"id", kJobCompleting}, {"label", "Completing"}};
  Result<std::vector<PendingJob>> jobs = session.PendingRunnerJobs({});
  ASSERT_TRUE(jobs) << jobs.error_message();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].uuid, "21fc9512-cef4-4384-bcb4-3a7e641f479c");
}

TEST_F(AdminSessionTest, AFailedPageFailsTheWholeList) {
  AdminSessionOptions options;
  options.page_size = 5;
  AdminSession session = Session(options);
  ASSERT_TRUE(session.Runners());
  server.Queue("/api/v1/runners/jobs", FakeServer::Ok(R"({"total":14,"data":[]})"));
  // An empty page before the total ends the paging rather than loop.
  Result<std::vector<PendingJob>> short_list = session.PendingRunnerJobs({});
  ASSERT_TRUE(short_list);
  EXPECT_TRUE(short_list->empty());
  server.Queue("/api/v1/runners/jobs",
               server.Serve(*http::ParseUrl("http://x/api/v1/runners/jobs?start=0&count=5"), {}));
  server.Queue("/api/v1/runners/jobs", FakeServer::Answer(500, "{}"));
  Result<std::vector<PendingJob>> failed = session.PendingRunnerJobs({});
  ASSERT_FALSE(failed);
  EXPECT_TRUE(failed.error().IsUnavailable());
}

TEST_F(AdminSessionTest, ReadsAVideoAndItsCodecOnceThenFromTheCache) {
  AdminSession session = Session();
  Result<VideoFacts> video = session.Video(kVideo720);
  ASSERT_TRUE(video) << video.error_message();
  EXPECT_EQ(video->uuid, kVideo720);
  EXPECT_EQ(video->duration_s, 4);
  EXPECT_EQ(video->height, 720);
  EXPECT_EQ(video->fps, 30);
  EXPECT_EQ(video->codec, "h264");
  EXPECT_EQ(server.sent().back().target,
            std::string("/api/v1/videos/") + kVideo720 + "/metadata/3");
  const std::uint64_t sent = session.requests_made();
  EXPECT_EQ(sent, 4u);
  ASSERT_TRUE(session.Video(kVideo720));
  EXPECT_EQ(session.requests_made(), sent);
}

TEST_F(AdminSessionTest, TheVideoCacheIsBoundedAndSkipsVideosWithoutAPicture) {
  AdminSessionOptions options;
  options.video_cache_size = 1;
  options.read_codec = false;
  AdminSession session = Session(options);
  ASSERT_TRUE(session.Video(kVideo720));
  ASSERT_TRUE(session.Video(kVideo480));
  ASSERT_TRUE(session.Video(kVideo480));
  ASSERT_TRUE(session.Video(kVideo720));
  EXPECT_EQ(server.CountOf(std::string("/api/v1/videos/") + kVideo720), 2);
  EXPECT_EQ(server.CountOf(std::string("/api/v1/videos/") + kVideo480), 1);

  const std::string bare = "00000000-0000-4000-8000-000000000000";
  nlohmann::json video = nlohmann::json::parse(Recorded("video-to-transcode-480p.json"));
  video["uuid"] = bare;
  video["files"] = nlohmann::json::array();
  server.Stand("/api/v1/videos/" + bare, FakeServer::Ok(video.dump()));
  ASSERT_TRUE(session.Video(bare));
  ASSERT_TRUE(session.Video(bare));
  EXPECT_EQ(server.CountOf("/api/v1/videos/" + bare), 2);
}

TEST_F(AdminSessionTest, AnUnknownVideoIsNotFoundAndANonUuidIsNotAsked) {
  AdminSession session = Session();
  Result<VideoFacts> unknown = session.Video("00000000-0000-4000-8000-000000000001");
  ASSERT_FALSE(unknown);
  EXPECT_TRUE(unknown.error().IsNotFound()) << unknown.error_message();
  const std::uint64_t sent = session.requests_made();
  Result<VideoFacts> path = session.Video("../../users/me");
  ASSERT_FALSE(path);
  EXPECT_TRUE(path.error().IsInvalidInput());
  EXPECT_EQ(session.requests_made(), sent);
}

TEST_F(AdminSessionTest, NoMessageHoldsThePasswordTheClientSecretOrAToken) {
  AdminSession session = Session();
  ASSERT_TRUE(session.Runners());
  const std::string secret =
      nlohmann::json::parse(Recorded("oauth-client-local.json"))["client_secret"];
  const std::string token = "removed-access-token-of-the-password-grant";
  // A server (or a proxy) that echoes what it was sent.
  server.Queue("/api/v1/runners/jobs",
               FakeServer::Answer(400, nlohmann::json{{"detail", std::string("bad: ") + kPassword +
                                                                     " " + secret + " " + token}}
                                           .dump()));
  Result<std::vector<PendingJob>> echoed = session.PendingRunnerJobs(kVodTypes);
  ASSERT_FALSE(echoed);
  EXPECT_EQ(echoed.error_message().find(kPassword), std::string::npos) << echoed.error_message();
  EXPECT_EQ(echoed.error_message().find(secret), std::string::npos) << echoed.error_message();
  EXPECT_EQ(echoed.error_message().find(token), std::string::npos) << echoed.error_message();
  EXPECT_NE(echoed.error_message().find("[redacted]"), std::string::npos) << echoed.error_message();
}

}  // namespace
}  // namespace mc::peertube
