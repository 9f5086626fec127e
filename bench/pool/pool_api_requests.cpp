// The pool manager's requests to PeerTube per read of the queue, against the bare minimum: one
// list per job type the pool serves (a page of up to 100 jobs each), which is what any reader
// of the pending jobs must send. The reader is the service's own (PeerTubeQueue over
// AdminSession); the server is a fake inside this process that answers with what
// PeerTube 7.2.1 answered (tests/peertube/data/admin-api/): the login, N pending jobs spread
// over M videos (the recorded job and video, given new UUIDs), each video and its file's
// metadata. The real server is not needed for a count of requests, and the e2e test
// (tests/peertube/pool_e2e.py) prints the same figure against it. The first read pays the
// login and each video's facts; from the second on, the videos come from the session's cache.
// The request budget is lifted, since this counts requests and does not pace them.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common/peertube/admin_session.h"
#include "pool/service/peertube_queue.h"

namespace {

using namespace mc;

constexpr char kRecordedVideo[] = "433600b5-b8b4-4920-a9dc-fcea1a908566";
const std::vector<std::string> kJobTypes = {"vod-web-video-transcoding", "vod-hls-transcoding",
                                            "vod-audio-merge-transcoding"};

std::string Recorded(const std::string& name) {
  std::ifstream in(MEDIA_CAP_SOURCE_DIR "/tests/peertube/data/admin-api/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Uuid(int kind, int i) {
  char text[40];
  std::snprintf(text, sizeof text, "%08x-0000-4000-8000-%012d", kind, i);
  return text;
}

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

long QueryNumber(const std::string& target, const std::string& name) {
  const std::size_t at = target.find(name + "=");
  return at == std::string::npos ? 0 : std::stol(target.substr(at + name.size() + 1));
}

// The fake server: N pending jobs, half web video and half HLS, over M videos.
class FakeServer {
 public:
  FakeServer(int jobs, int videos) {
    const nlohmann::json recorded = nlohmann::json::parse(Recorded("jobs-pending.json"))["data"][0];
    for (int i = 0; i < jobs; ++i) {
      nlohmann::json job = recorded;
      job["uuid"] = Uuid(1, i);
      job["type"] = kJobTypes[i % 2];
      job["privatePayload"]["videoUUID"] = Uuid(2, i % videos);
      jobs_.push_back(std::move(job));
    }
    video_ = Recorded("video-to-transcode-720p.json");
    metadata_ = Recorded("video-file-metadata-720p.json");
    client_ = Recorded("oauth-client-local.json");
    token_ = Recorded("users-token-password.json");
  }

  Result<http::ClientResponse> Serve(const http::Url& url, const http::ClientRequest&) {
    ++requests;
    const std::string& target = url.path_and_query;
    const std::string path = target.substr(0, target.find('?'));
    if (path == "/api/v1/oauth-clients/local") return Answer(client_);
    if (path == "/api/v1/users/token") return Answer(token_);
    if (path == "/api/v1/runners/jobs") {
      const long start = QueryNumber(target, "start"), count = QueryNumber(target, "count");
      nlohmann::json page = nlohmann::json::array();
      for (long i = start; i < static_cast<long>(jobs_.size()) && i < start + count; ++i)
        page.push_back(jobs_[i]);
      return Answer(nlohmann::json{{"total", jobs_.size()}, {"data", page}}.dump());
    }
    const std::string videos = "/api/v1/videos/";
    if (path.rfind(videos, 0) == 0) {
      const std::string uuid = path.substr(videos.size(), 36);
      if (path.find("/metadata/") != std::string::npos) return Answer(metadata_);
      return Answer(ReplaceAll(video_, kRecordedVideo, uuid));
    }
    return http::ClientResponse{.status = 404, .body = Recorded("video-not-found.json")};
  }

  long requests = 0;

 private:
  static Result<http::ClientResponse> Answer(std::string body) {
    return http::ClientResponse{.status = 200, .body = std::move(body)};
  }
  std::vector<nlohmann::json> jobs_;
  std::string video_, metadata_, client_, token_;
};

void Measure(int jobs, int videos) {
  FakeServer server(jobs, videos);
  peertube::AdminSessionOptions options;
  options.request_budget = 1 << 30;
  options.send = [&](const http::Url& url, const http::ClientRequest& request) {
    return server.Serve(url, request);
  };
  peertube::AdminSession session(*http::ParseUrl("http://127.0.0.1:9001"),
                                 peertube::AdminCredentials("root", "bench"), options);
  pool::PeerTubeQueue queue(session, kJobTypes, [](const std::string&) {});
  // The bare minimum: one list per job type, each a page of up to 100 of its jobs.
  long minimum = 0;
  for (std::size_t t = 0; t < kJobTypes.size(); ++t) {
    const long of_type = t < 2 ? (jobs + 1 - static_cast<long>(t)) / 2 : 0;
    minimum += std::max(1L, (of_type + 99) / 100);
  }
  const long before = server.requests;
  Result<pool::QueueSignal> first = queue.Read(1000);
  if (!first || static_cast<int>(first->pending.size()) != jobs) {
    std::printf("pool_api_requests: the first read failed: %s\n",
                first ? "a job is missing" : first.error_message().c_str());
    return;
  }
  const long first_requests = server.requests - before;
  const int steady_reads = 20;
  const long steady_before = server.requests;
  for (int i = 0; i < steady_reads; ++i) {
    if (!queue.Read(1015 + 15 * i)) {
      std::printf("pool_api_requests: a steady read failed\n");
      return;
    }
  }
  const double steady = static_cast<double>(server.requests - steady_before) / steady_reads;
  std::printf(
      "%5d jobs over %4d videos: first read %4ld requests (%.2fx the minimum of %ld), "
      "steady state %.2f a read (%.2fx)\n",
      jobs, videos, first_requests, static_cast<double>(first_requests) / minimum, minimum, steady,
      steady / minimum);
}

}  // namespace

int main() {
  std::printf(
      "requests to PeerTube per read of the queue, against one list per job type (%zu types)\n",
      kJobTypes.size());
  Measure(0, 1);
  Measure(2, 1);
  Measure(24, 3);
  Measure(100, 10);
  Measure(250, 50);
  Measure(1000, 200);
  return 0;
}
