// peertube_admin_probe asks a real PeerTube server's admin API what the pool manager asks it,
// through AdminSession, and prints the answers as one JSON document: the pending jobs of the
// types given, the facts of their videos, the registered runners, and how many requests that
// took. The pool's end-to-end test checks the session against the real server with it; an
// operator can see with it what the pool sees.
//
//   peertube_admin_probe --url URL --credentials-file FILE
//                        [--types vod-web-video-transcoding,vod-hls-transcoding]
//                        [--page-size N] [--no-videos] [--no-runners]
//
// Exit status: 0 when every read succeeded, 1 when one failed (its error on stderr, and in
// the document under "errors"), 2 for a wrong command line.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "common/http/url.h"
#include "common/peertube/admin_credentials.h"
#include "common/peertube/admin_session.h"

namespace {

using mc::peertube::AdminSession;
using nlohmann::ordered_json;

int Usage(const std::string& why) {
  std::cerr << "peertube_admin_probe: " << why
            << "\nusage: peertube_admin_probe --url URL --credentials-file FILE [--types T1,T2]"
               " [--page-size N] [--no-videos] [--no-runners]\n";
  return 2;
}

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    if (end > start) parts.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return parts;
}

}  // namespace

int main(int argc, char** argv) {
  std::string url_text, credentials_file;
  std::vector<std::string> types;
  mc::peertube::AdminSessionOptions options;
  bool videos = true, runners = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string& out) {
      if (i + 1 >= argc) return false;
      out = argv[++i];
      return true;
    };
    std::string text;
    if (arg == "--url") {
      if (!value(url_text)) return Usage("--url needs a value");
    } else if (arg == "--credentials-file") {
      if (!value(credentials_file)) return Usage("--credentials-file needs a value");
    } else if (arg == "--types") {
      if (!value(text)) return Usage("--types needs a value");
      types = SplitCommas(text);
    } else if (arg == "--page-size") {
      if (!value(text)) return Usage("--page-size needs a value");
      options.page_size = std::atoi(text.c_str());
      if (options.page_size < 1 || options.page_size > 100) return Usage("--page-size is 1..100");
    } else if (arg == "--no-videos") {
      videos = false;
    } else if (arg == "--no-runners") {
      runners = false;
    } else {
      return Usage("unknown argument " + arg);
    }
  }
  if (url_text.empty() || credentials_file.empty())
    return Usage("--url and --credentials-file are needed");
  mc::Result<mc::http::Url> url = mc::http::ParseUrl(url_text);
  if (!url) return Usage(url.error_message());
  mc::Result<mc::peertube::AdminCredentials> credentials =
      mc::peertube::ReadAdminCredentials(credentials_file);
  if (!credentials) {
    std::cerr << "peertube_admin_probe: " << credentials.error_message() << "\n";
    return 1;
  }

  AdminSession session(*url, std::move(*credentials), options);
  ordered_json out = ordered_json::object();
  ordered_json errors = ordered_json::array();
  auto failed = [&](const std::string& what, const mc::Error& error) {
    std::cerr << "peertube_admin_probe: " << what << ": " << error.message << "\n";
    errors.push_back(
        {{"read", what}, {"code", mc::ErrorCodeName(error.code)}, {"message", error.message}});
  };

  std::set<std::string> video_uuids;
  out["pending"] = ordered_json::array();
  if (auto pending = session.PendingRunnerJobs(types)) {
    for (const auto& job : *pending) {
      ordered_json item{{"uuid", job.uuid},
                        {"type", job.type},
                        {"state", job.state},
                        {"createdAt_s", job.created_at_s}};
      item["resolution"] = job.resolution ? ordered_json(*job.resolution) : ordered_json(nullptr);
      item["fps"] = job.fps ? ordered_json(*job.fps) : ordered_json(nullptr);
      item["videoUUID"] = job.video_uuid;
      out["pending"].push_back(std::move(item));
      if (!job.video_uuid.empty()) video_uuids.insert(job.video_uuid);
    }
  } else {
    failed("pending", pending.error());
  }
  const std::uint64_t after_pending = session.requests_made();

  if (videos) {
    out["videos"] = ordered_json::array();
    for (const std::string& uuid : video_uuids) {
      if (auto video = session.Video(uuid)) {
        out["videos"].push_back({{"uuid", video->uuid},
                                 {"duration_s", video->duration_s},
                                 {"height", video->height},
                                 {"fps", video->fps},
                                 {"codec", video->codec}});
      } else {
        failed("video " + uuid, video.error());
      }
    }
  }
  if (runners) {
    out["runners"] = ordered_json::array();
    if (auto list = session.Runners()) {
      for (const auto& runner : *list)
        out["runners"].push_back(
            {{"id", runner.id}, {"name", runner.name}, {"lastContact_s", runner.last_contact_s}});
    } else {
      failed("runners", list.error());
    }
  }
  out["requests_made"] = session.requests_made();
  out["requests_for_pending"] = after_pending;
  out["errors"] = errors;
  std::cout << out.dump(2) << "\n";
  return errors.empty() ? 0 : 1;
}
