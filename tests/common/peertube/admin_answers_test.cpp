// The parsers of PeerTube's admin API, against the answers PeerTube 7.2.1 gave
// (data/admin-api/, data/README.md) and against answers that are wrong in one place each.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "admin_api_records.h"
#include "common/base/iso_time.h"
#include "common/base/read_file.h"
#include "common/peertube/admin_credentials.h"
#include "common/peertube/api_answer.h"
#include "common/peertube/oauth_token.h"
#include "common/peertube/registered_runners.h"
#include "common/peertube/runner_job_list.h"
#include "common/peertube/video_facts.h"

namespace mc::peertube {
namespace {

using admin_api_records::kVideo480;
using admin_api_records::kVideo720;
using admin_api_records::Recorded;

// Checks that `error` is invalid input whose message holds `why`.
template <typename T>
void ExpectInvalid(const Result<T>& result, const std::string& why, const std::string& input) {
  ASSERT_FALSE(result) << input;
  EXPECT_TRUE(result.error().IsInvalidInput()) << result.error_message();
  EXPECT_NE(result.error_message().find(why), std::string::npos)
      << result.error_message() << "\n  for " << input;
}

// `json` with the value at a JSON pointer set, or erased.
std::string Set(const std::string& json, const std::string& pointer, nlohmann::json value) {
  nlohmann::json document = nlohmann::json::parse(json);
  document[nlohmann::json::json_pointer(pointer)] = std::move(value);
  return document.dump();
}

std::string Erase(const std::string& json, const std::string& pointer) {
  nlohmann::json document = nlohmann::json::parse(json);
  const nlohmann::json::json_pointer at(pointer);
  document[at.parent_pointer()].erase(at.back());
  return document.dump();
}

TEST(ParseIsoTime, ReadsPeerTubesTimesToTheMillisecond) {
  const std::optional<double> created = ParseIsoTime("2026-12-03T05:34:49.259Z");
  ASSERT_TRUE(created);
  // date -u -d 2026-12-03T05:34:49Z +%s
  EXPECT_NEAR(*created, 1796276089.259, 1e-6);
  EXPECT_EQ(ParseIsoTime("1970-01-01T00:00:00Z"), 0.0);
  EXPECT_EQ(ParseIsoTime("2000-02-29T12:00:00Z"), 951825600.0);
  EXPECT_EQ(ParseIsoTime("2026-12-03T07:34:49+02:00"), ParseIsoTime("2026-12-03T05:34:49Z"));
  EXPECT_NEAR(*ParseIsoTime("2026-12-03T05:34:49.123456789Z") - 1796276089, 0.123456789, 1e-6);
}

TEST(ParseIsoTime, RefusesWhatIsNotOneOrADayThatDoesNotExist) {
  for (const char* text : {"", "2026-12-03", "2026-12-03T05:34:49", "2026-12-03 05:34:49Z",
                           "2026-13-03T05:34:49Z", "2026-02-29T05:34:49Z", "2026-12-03T24:00:00Z",
                           "2026-12-03T05:34:49.Z", "2026-12-03T05:34:49.1234567890Z",
                           "2026-12-03T05:34:49Zx", "1796276089", "2026-12-03T05:34:49+0200"}) {
    EXPECT_FALSE(ParseIsoTime(text)) << text;
  }
}

TEST(ParseAdminCredentials, ReadsTheUsernameAndThePasswordOfTwoLines) {
  Result<AdminCredentials> credentials = ParseAdminCredentials("root\ntest1\n", "admin");
  ASSERT_TRUE(credentials) << credentials.error_message();
  EXPECT_EQ(credentials->username(), "root");
  EXPECT_EQ(credentials->password(), "test1");
  Result<AdminCredentials> windows = ParseAdminCredentials("root\r\n pass word \r\n\r\n", "admin");
  ASSERT_TRUE(windows) << windows.error_message();
  EXPECT_EQ(windows->password(), " pass word ");
}

TEST(ParseAdminCredentials, NamesTheFileAndTheLineButNeverThePassword) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "admin: line 1: empty (the admin's username)"},
      {"\nsecret-pw\n", "admin: line 1: empty"},
      {"root", "admin: line 2: missing (the password)"},
      {"root\n\n", "admin: line 2: missing"},
      {"ro ot\nsecret-pw", "admin: line 1: the username holds a blank"},
      {"root\nsecret\tpw", "admin: line 2: the password holds a control character"},
      {"root\nsecret-pw\nsecret-pw-2\n", "admin: line 3: unexpected"},
  };
  for (const auto& [text, why] : cases) {
    Result<AdminCredentials> credentials = ParseAdminCredentials(text, "admin");
    ExpectInvalid(credentials, why, text);
    if (!credentials) {
      EXPECT_EQ(credentials.error_message().find("secret"), std::string::npos);
    }
  }
}

TEST(ReadAdminCredentials, ReadsAFileAndNamesAMissingOne) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                     ("admin-credentials-test-" + std::to_string(getpid()));
  std::ofstream(file) << "root\ntest1\n";
  Result<AdminCredentials> credentials = ReadAdminCredentials(file.string());
  ASSERT_TRUE(credentials) << credentials.error_message();
  EXPECT_EQ(credentials->username(), "root");
  std::filesystem::remove(file);
  Result<AdminCredentials> missing = ReadAdminCredentials(file.string());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error_message().find(file.string()), std::string::npos)
      << missing.error_message();
}

TEST(ParseOAuthClient, ReadsTheRecordedLocalClient) {
  Result<OAuthClient> client = ParseOAuthClient(Recorded("oauth-client-local.json"));
  ASSERT_TRUE(client) << client.error_message();
  EXPECT_EQ(client->client_id, "06ivl6o74diljsd3pj2hk5rjo3rpnv8p");
  EXPECT_EQ(client->client_secret.size(), 32u);
}

TEST(ParseOAuthClient, NamesThePlaceOfWhatIsWrongAndNeverTheSecret) {
  ExpectInvalid(ParseOAuthClient("{"), "the OAuth client: not JSON", "{");
  ExpectInvalid(ParseOAuthClient("[]"), "(answer): expected an object", "[]");
  const std::string no_secret = Erase(Recorded("oauth-client-local.json"), "/client_secret");
  ExpectInvalid(ParseOAuthClient(no_secret), "client_secret: missing", no_secret);
  const std::string empty_id = Set(Recorded("oauth-client-local.json"), "/client_id", "");
  ExpectInvalid(ParseOAuthClient(empty_id), "client_id: empty", empty_id);
  const std::string number = Set(Recorded("oauth-client-local.json"), "/client_id", 7);
  Result<OAuthClient> wrong = ParseOAuthClient(number);
  ExpectInvalid(wrong, "client_id: expected a string", number);
  EXPECT_EQ(wrong.error_message().find("ASZPFs3Y"), std::string::npos);
}

TEST(ParseOAuthToken, ReadsThePasswordAndTheRefreshGrantsAnswers) {
  for (const char* name : {"users-token-password.json", "users-token-refresh.json"}) {
    Result<OAuthToken> token = ParseOAuthToken(Recorded(name));
    ASSERT_TRUE(token) << token.error_message();
    EXPECT_FALSE(token->access_token.empty());
    EXPECT_FALSE(token->refresh_token.empty());
    EXPECT_EQ(token->expires_in_s, 86399);
    EXPECT_EQ(token->refresh_token_expires_in_s, 1209599);
  }
}

TEST(ParseOAuthToken, NamesThePlaceOfWhatIsWrongAndNeverAToken) {
  const std::string name = "users-token-password.json";
  const std::pair<std::string, const char*> cases[] = {
      {"not json", "the OAuth token: not JSON"},
      {Recorded("users-token-invalid-grant-400.json"), "access_token: missing"},
      {Set(Recorded(name), "/token_type", "MAC"), "token_type: not Bearer"},
      {Set(Recorded(name), "/access_token", ""), "access_token: empty"},
      {Erase(Recorded(name), "/refresh_token"), "refresh_token: missing"},
      {Set(Recorded(name), "/expires_in", "86399"), "expires_in: expected a number of seconds"},
      {Set(Recorded(name), "/expires_in", 0), "expires_in: value is out of range"},
      {Set(Recorded(name), "/refresh_token_expires_in", -1),
       "refresh_token_expires_in: value is out of range"},
  };
  for (const auto& [text, why] : cases) {
    Result<OAuthToken> token = ParseOAuthToken(text);
    ExpectInvalid(token, why, text);
    if (!token) {
      EXPECT_EQ(token.error_message().find("removed-"), std::string::npos) << token.error_message();
    }
  }
  Result<OAuthToken> lower = ParseOAuthToken(Set(Recorded(name), "/token_type", "bearer"));
  EXPECT_TRUE(lower) << lower.error_message();
}

TEST(ParseRunnerJobList, ReadsTheRecordedPendingJobs) {
  Result<RunnerJobPage> page = ParseRunnerJobList(Recorded("jobs-pending.json"));
  ASSERT_TRUE(page) << page.error_message();
  EXPECT_EQ(page->total, 2);
  ASSERT_EQ(page->jobs.size(), 2u);
  const PendingJob& first = page->jobs[0];
  EXPECT_EQ(first.uuid, "2ee53e6a-c028-47ff-9ca4-bcad4434b21b");
  EXPECT_EQ(first.type, "vod-web-video-transcoding");
  EXPECT_EQ(first.state, kJobPending);
  EXPECT_NEAR(first.created_at_s, *ParseIsoTime("2026-12-03T05:34:49Z") + 0.259, 1e-6);
  EXPECT_EQ(first.priority, 102);
  // Created pending: it has waited since its creation (updatedAt is createdAt).
  EXPECT_EQ(first.waiting_since_s, first.created_at_s);
  EXPECT_EQ(first.resolution, 720);
  EXPECT_EQ(first.fps, 30.0);
  EXPECT_EQ(first.video_uuid, kVideo720);
  EXPECT_EQ(page->jobs[1].resolution, 480);
  EXPECT_EQ(page->jobs[1].fps, 25.0);
  EXPECT_EQ(page->jobs[1].video_uuid, kVideo480);
}

TEST(ParseRunnerJobList, ReadsEveryStateOfTheRecordedListsAndTheirPages) {
  Result<RunnerJobPage> all = ParseRunnerJobList(Recorded("jobs-all-states.json"));
  ASSERT_TRUE(all) << all.error_message();
  EXPECT_EQ(all->total, 14);
  ASSERT_EQ(all->jobs.size(), 14u);
  int waiting = 0;
  for (const PendingJob& job : all->jobs) {
    waiting += job.state == kJobWaitingForParent;
    EXPECT_TRUE(job.video_uuid == kVideo720 || job.video_uuid == kVideo480) << job.uuid;
    EXPECT_TRUE(job.resolution);
  }
  EXPECT_EQ(waiting, 12);
  Result<RunnerJobPage> completed = ParseRunnerJobList(Recorded("jobs-all-completed.json"));
  ASSERT_TRUE(completed) << completed.error_message();
  EXPECT_EQ(completed->jobs.size(), 14u);
  Result<RunnerJobPage> second =
      ParseRunnerJobList(Recorded("jobs-pending-page-2-of-count-1.json"));
  ASSERT_TRUE(second) << second.error_message();
  EXPECT_EQ(second->total, 2);
  ASSERT_EQ(second->jobs.size(), 1u);
  EXPECT_EQ(second->jobs[0].uuid, "21fc9512-cef4-4384-bcb4-3a7e641f479c");
}

// A video's later jobs are made at the upload, waiting for their parent; the one made pending
// when its parent completed has waited for a worker only since then, its updatedAt.
TEST(ParseRunnerJobList, AJobReleasedByItsParentHasWaitedSinceItsLastChange) {
  const std::string released = Set(Set(Recorded("jobs-all-states.json"), "/data/1/state/id", 1),
                                   "/data/1/updatedAt", "2026-12-03T05:35:19.500Z");
  Result<RunnerJobPage> page = ParseRunnerJobList(released);
  ASSERT_TRUE(page) << page.error_message();
  const PendingJob& job = page->jobs[1];
  EXPECT_NEAR(job.created_at_s, *ParseIsoTime("2026-12-03T05:34:49Z") + 0.295, 1e-6);
  EXPECT_NEAR(job.waiting_since_s, *ParseIsoTime("2026-12-03T05:35:19Z") + 0.5, 1e-6);
  // Without updatedAt (a server that omits it) it has waited since its creation.
  Result<RunnerJobPage> bare = ParseRunnerJobList(Erase(released, "/data/1/updatedAt"));
  ASSERT_TRUE(bare) << bare.error_message();
  EXPECT_EQ(bare->jobs[1].waiting_since_s, bare->jobs[1].created_at_s);
}

TEST(ParseRunnerJobList, FindsTheVideoInTheInputUrlWhenThereIsNoPrivatePayload) {
  Result<RunnerJobPage> page =
      ParseRunnerJobList(Erase(Recorded("jobs-pending.json"), "/data/1/privatePayload"));
  ASSERT_TRUE(page) << page.error_message();
  EXPECT_EQ(page->jobs[1].video_uuid, kVideo480);
  Result<RunnerJobPage> none =
      ParseRunnerJobList(Set(Recorded("jobs-pending.json"), "/data/0/privatePayload", nullptr));
  ASSERT_TRUE(none) << none.error_message();
  EXPECT_EQ(none->jobs[0].video_uuid, kVideo720);
}

TEST(ParseRunnerJobList, ReadsJobsWithoutAnOutputClass) {
  Result<RunnerJobPage> page = ParseRunnerJobList(
      Set(Recorded("jobs-pending.json"), "/data/0/payload", nlohmann::json::object()));
  ASSERT_TRUE(page) << page.error_message();
  EXPECT_FALSE(page->jobs[0].resolution);
  EXPECT_FALSE(page->jobs[0].fps);
}

TEST(ParseRunnerJobList, NamesThePlaceOfWhatIsWrong) {
  const std::string all = "jobs-all-states.json";
  const std::pair<std::string, const char*> cases[] = {
      {"{", "the runner jobs: not JSON"},
      {"[]", "(answer): expected an object"},
      {R"({"data":[]})", "total: missing"},
      {R"({"total":-1,"data":[]})", "total: value -1 is out of range"},
      {R"({"total":0,"data":{}})", "data: expected an array"},
      {Set(Recorded(all), "/data/3/createdAt", "2026-12-03 05:34:49"),
       "data[3].createdAt: expected an ISO-8601 time"},
      {Set(Recorded(all), "/data/3/createdAt", 1796276089),
       "data[3].createdAt: expected an ISO-8601 time"},
      {Erase(Recorded(all), "/data/2/createdAt"), "data[2].createdAt: missing"},
      {Set(Recorded(all), "/data/2/updatedAt", "yesterday"),
       "data[2].updatedAt: expected an ISO-8601 time"},
      {Set(Recorded(all), "/data/2/priority", "high"), "data[2].priority: expected an integer"},
      {Set(Recorded(all), "/data/0/uuid", "2ee53e6a"), "data[0].uuid: not a UUID"},
      {Set(Recorded(all), "/data/1/type", ""), "data[1].type: empty"},
      {Set(Recorded(all), "/data/4/state", 1), "data[4].state: expected an object"},
      {Set(Recorded(all), "/data/4/state/id", "1"), "data[4].state.id: expected an integer"},
      {Erase(Recorded(all), "/data/5/payload"), "data[5].payload: missing"},
      {Set(Recorded(all), "/data/6/payload/output/resolution", "720"),
       "data[6].payload.output.resolution: expected an integer"},
      {Set(Recorded(all), "/data/7/payload/output/fps", -30),
       "data[7].payload.output.fps: value is out of range"},
      {Set(Recorded(all), "/data/8/privatePayload", "x"),
       "data[8].privatePayload: expected an object"},
      {Set(Recorded(all), "/data/9/privatePayload/videoUUID", "video"),
       "data[9].privatePayload.videoUUID: not a UUID"},
  };
  for (const auto& [text, why] : cases) ExpectInvalid(ParseRunnerJobList(text), why, text);
}

TEST(PendingJobsTarget, AsksForOnePageOfPendingJobsOfTheTypesOldestFirst) {
  EXPECT_EQ(PendingJobsTarget({"vod-web-video-transcoding", "vod-hls-transcoding"}, 200, 100),
            "/api/v1/runners/jobs?stateOneOf=1&typeOneOf=vod-web-video-transcoding&"
            "typeOneOf=vod-hls-transcoding&start=200&count=100&sort=createdAt");
  EXPECT_EQ(PendingJobsTarget({}, 0, 5),
            "/api/v1/runners/jobs?stateOneOf=1&start=0&count=5&sort=createdAt");
}

TEST(ParseVideo, ReadsTheRecordedVideoWaitingForItsTranscoding) {
  Result<VideoAnswer> video = ParseVideo(Recorded("video-to-transcode-720p.json"));
  ASSERT_TRUE(video) << video.error_message();
  EXPECT_EQ(video->facts.uuid, kVideo720);
  EXPECT_EQ(video->facts.duration_s, 4);
  EXPECT_EQ(video->facts.height, 720);
  EXPECT_EQ(video->facts.fps, 30);
  EXPECT_EQ(video->facts.codec, "");
  EXPECT_EQ(video->highest_file_id, 1);
  Result<VideoAnswer> small = ParseVideo(Recorded("video-to-transcode-480p.json"));
  ASSERT_TRUE(small) << small.error_message();
  EXPECT_EQ(small->facts.height, 480);
  EXPECT_EQ(small->facts.fps, 25);
  EXPECT_EQ(small->facts.duration_s, 3);
}

TEST(ParseVideo, TakesTheHighestOfTheWebVideoAndTheHlsFiles) {
  Result<VideoAnswer> published = ParseVideo(Recorded("video-published-720p.json"));
  ASSERT_TRUE(published) << published.error_message();
  EXPECT_EQ(published->facts.height, 720);
  EXPECT_EQ(published->facts.fps, 30);
  // The web video file of 720p (id 3) comes before the HLS one (id 7).
  EXPECT_EQ(published->highest_file_id, 3);
  // With the web video files gone (PeerTube can keep HLS only), the HLS playlist's count.
  Result<VideoAnswer> hls_only =
      ParseVideo(Set(Recorded("video-published-480p.json"), "/files", nlohmann::json::array()));
  ASSERT_TRUE(hls_only) << hls_only.error_message();
  EXPECT_EQ(hls_only->facts.height, 480);
  EXPECT_EQ(hls_only->highest_file_id, 12);
  Result<VideoAnswer> none =
      ParseVideo(Set(Set(Recorded("video-published-480p.json"), "/files", nlohmann::json::array()),
                     "/streamingPlaylists", nlohmann::json::array()));
  ASSERT_TRUE(none) << none.error_message();
  EXPECT_EQ(none->facts.height, 0);
  EXPECT_FALSE(none->highest_file_id);
}

TEST(ParseVideo, NamesThePlaceOfWhatIsWrong) {
  const std::string name = "video-published-720p.json";
  const std::pair<std::string, const char*> cases[] = {
      {"", "the video: not JSON"},
      {Recorded("video-not-found.json"), "uuid: missing"},
      {Set(Recorded(name), "/uuid", "9inuXzNgMjsKxMEwEv5wDu"), "uuid: not a UUID"},
      {Set(Recorded(name), "/duration", "4"), "duration: expected a number"},
      {Set(Recorded(name), "/files", nlohmann::json::object()), "files: expected an array"},
      {Set(Recorded(name), "/files/2/resolution", 360), "files[2].resolution: expected an object"},
      {Erase(Recorded(name), "/files/1/resolution/id"), "files[1].resolution.id: missing"},
      {Set(Recorded(name), "/streamingPlaylists/0/files/1/resolution/id", "480p"),
       "streamingPlaylists[0].files[1].resolution.id: expected an integer"},
      {Set(Recorded(name), "/streamingPlaylists/0/files/0/fps", "30"),
       "streamingPlaylists[0].files[0].fps: expected a number"},
  };
  for (const auto& [text, why] : cases) ExpectInvalid(ParseVideo(text), why, text);
}

TEST(ParseVideoFileCodec, ReadsTheRecordedFilesVideoCodec) {
  Result<std::string> codec = ParseVideoFileCodec(Recorded("video-file-metadata-720p.json"));
  ASSERT_TRUE(codec) << codec.error_message();
  EXPECT_EQ(*codec, "h264");
  Result<std::string> audio =
      ParseVideoFileCodec(R"({"streams":[{"codec_type":"audio","codec_name":"aac"}]})");
  ASSERT_TRUE(audio) << audio.error_message();
  EXPECT_EQ(*audio, "");
  ExpectInvalid(ParseVideoFileCodec(R"({"format":{}})"), "streams: missing", "no streams");
  ExpectInvalid(ParseVideoFileCodec(R"({"streams":[{"codec_type":"video","codec_name":264}]})"),
                "streams[0].codec_name: expected a string", "number");
}

TEST(ParseRunnerList, ReadsTheRecordedRunners) {
  Result<RegisteredRunnerPage> page = ParseRunnerList(Recorded("runners.json"));
  ASSERT_TRUE(page) << page.error_message();
  EXPECT_EQ(page->total, 3);
  ASSERT_EQ(page->runners.size(), 3u);
  EXPECT_EQ(page->runners[0].id, 1);
  EXPECT_EQ(page->runners[0].name, "gpu-worker-a");
  EXPECT_NEAR(page->runners[0].last_contact_s, *ParseIsoTime("2026-12-03T05:35:50Z") + 0.871, 1e-6);
  EXPECT_EQ(page->runners[2].name, "lab-1");
  EXPECT_GT(page->runners[2].last_contact_s, page->runners[1].last_contact_s);
}

TEST(ParseRunnerList, NamesThePlaceOfWhatIsWrong) {
  const std::pair<std::string, const char*> cases[] = {
      {"{]", "the runners: not JSON"},
      {Set(Recorded("runners.json"), "/data/1/lastContact", nullptr),
       "data[1].lastContact: expected an ISO-8601 time"},
      {Set(Recorded("runners.json"), "/data/0/id", 0), "data[0].id: value 0 is out of range"},
      {Erase(Recorded("runners.json"), "/data/2/name"), "data[2].name: missing"},
  };
  for (const auto& [text, why] : cases) ExpectInvalid(ParseRunnerList(text), why, text);
}

TEST(AnswerBody, TurnsEachStatusIntoTheErrorItsCallerBranchesOn) {
  auto answer = [](int status, std::string body) {
    return http::ClientResponse{.status = status, .body = std::move(body)};
  };
  EXPECT_EQ(*AnswerBody(answer(200, "{}"), "x"), "{}");
  Result<std::string> not_found =
      AnswerBody(answer(404, Recorded("video-not-found.json")), "the video");
  ASSERT_FALSE(not_found);
  EXPECT_TRUE(not_found.error().IsNotFound());
  EXPECT_EQ(not_found.error_message(), "the video: HTTP 404 (Video not found)");
  Result<std::string> refused =
      AnswerBody(answer(400, Recorded("users-token-invalid-grant-400.json")), "the token refresh");
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().IsInvalidInput());
  EXPECT_EQ(refused.error_message(),
            "the token refresh: HTTP 400 (invalid_grant: Invalid grant: refresh token is invalid)");
  Result<std::string> unauthorized =
      AnswerBody(answer(401, Recorded("invalid-token-401.json")), "jobs");
  ASSERT_FALSE(unauthorized);
  EXPECT_TRUE(unauthorized.error().IsPermissionDenied());
  EXPECT_EQ(unauthorized.error_message(), "jobs: HTTP 401 (invalid_token: Token is invalid)");
  Result<std::string> down = AnswerBody(answer(502, "<html>\nBad Gateway</html>"), "jobs");
  ASSERT_FALSE(down);
  EXPECT_TRUE(down.error().IsUnavailable());
  EXPECT_EQ(down.error_message(), "jobs: HTTP 502 (<html> Bad Gateway</html>)");
}

TEST(AnswerBody, GivesARecorded429TheWaitOfItsRetryAfter) {
  const std::string text = Recorded("oauth-client-429.http");
  const std::size_t end = text.find("\r\n\r\n");
  ASSERT_NE(end, std::string::npos);
  Result<http::ResponseHead> head = http::ParseResponseHead(text.substr(0, end + 4));
  ASSERT_TRUE(head) << head.error_message();
  const http::ClientResponse answer{
      .status = head->status, .headers = head->headers, .body = text.substr(end + 4)};
  Result<std::string> limited = AnswerBody(answer, "the OAuth client");
  ASSERT_FALSE(limited);
  EXPECT_TRUE(limited.error().IsUnavailable());
  EXPECT_EQ(limited.error().retry_after, std::chrono::seconds(9));
  EXPECT_EQ(limited.error_message(),
            "the OAuth client: HTTP 429 (Too many requests, please try again later.)");
}

TEST(RetryAfter, ReadsSecondsAndFallsBackOnAnythingElse) {
  using std::chrono::seconds;
  EXPECT_EQ(RetryAfter("9", seconds(10)), seconds(9));
  EXPECT_EQ(RetryAfter(" 0 ", seconds(10)), seconds(0));
  EXPECT_EQ(RetryAfter("", seconds(10)), seconds(10));
  EXPECT_EQ(RetryAfter("-3", seconds(10)), seconds(10));
  EXPECT_EQ(RetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", seconds(10)), seconds(10));
  EXPECT_EQ(RetryAfter("99999999999999999999", seconds(10)), seconds(3600));
}

}  // namespace
}  // namespace mc::peertube
