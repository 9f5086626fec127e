// AdminSession is PeerTube's admin API as the pool manager reads it. It holds an OAuth session of
// the administrator. It keeps under PeerTube's rate limit. It offers the three reads the pool
// decides by, each returning values:
// - the pending runner jobs;
// - the facts of their videos;
// - the registered runners.
//
// A failed read is retried on the caller's next cycle, not here. No error holds a secret. What an
// operator sees of it: docs/pool/operating.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/base/result.h"
#include "common/http/client.h"
#include "common/http/url.h"
#include "common/peertube/admin_credentials.h"
#include "common/peertube/oauth_token.h"
#include "common/peertube/registered_runners.h"
#include "common/peertube/request_window.h"
#include "common/peertube/runner_job_list.h"
#include "common/peertube/video_facts.h"

namespace mc::peertube {

struct AdminSessionOptions {
  using Clock = std::chrono::steady_clock;
  using Sender =
      std::function<Result<http::ClientResponse>(const http::Url&, const http::ClientRequest&)>;

  // Requests the session may send in any `window`.
  int request_budget = 40;
  std::chrono::seconds window{10};
  // Jobs or runners asked per page. PeerTube answers at most 100 and refuses more.
  int page_size = 100;
  // How many videos' facts are kept. Past it, the oldest entry is dropped.
  std::size_t video_cache_size = 1024;
  // Whether Video() reads the codec from the highest file's metadata. That costs one more request
  // per video, made once thanks to the cache.
  bool read_codec = true;
  // After this share of a token's lifetime, it is refreshed.
  double refresh_at = 0.8;
  // After a refused password grant, how long before trying another.
  std::chrono::seconds login_retry_after{60};
  std::chrono::milliseconds request_timeout{10000};
  // The clock and the transport. Empty, they are steady_clock::now and http::Request. Tests give
  // their own. So time passes without sleeping, and answers come without a server.
  std::function<Clock::time_point()> now;
  Sender send;
};

class AdminSession {
 public:
  AdminSession(http::Url server, AdminCredentials credentials, AdminSessionOptions options = {});

  // PendingRunnerJobs lists the pending jobs of `types`, oldest first. Empty `types` means every
  // type. It pages until the list's total is reached. Jobs of any other state are left out, even
  // when the server lists them. Completing is one such state.
  Result<std::vector<PendingJob>> PendingRunnerJobs(const std::vector<std::string>& types);

  // Video reads the facts of the video `uuid`, from the cache if read before. A video with no
  // picture file yet is not cached. Its files are still to come.
  Result<VideoFacts> Video(const std::string& uuid);

  // Runners lists the registered runners, paged.
  Result<std::vector<RegisteredRunner>> Runners();

  // What the session has sent in all: every request, the token's included. A request refused by the
  // budget or a 429's wait was not sent. It does not count.
  std::uint64_t requests_made() const { return requests_made_; }
  std::uint64_t password_grants() const { return password_grants_; }
  std::uint64_t refreshes() const { return refreshes_; }

 private:
  using Clock = AdminSessionOptions::Clock;

  Clock::time_point Now() const;
  // Send sends one request, within the budget and the 429's wait. Past either, it does not sleep.
  // It refuses the request with an unavailable error that carries the wait. Every request counts,
  // the token's included. PeerTube's limiter counts them alike, and so does any proxy's in front.
  Result<http::ClientResponse> Send(const std::string& target, http::ClientRequest request);
  // Get is an authenticated GET of `target`. Gives the body of a 2xx answer.
  Result<std::string> Get(const std::string& target, std::string_view what);
  // EnsureToken keeps the session logged in:
  // - the first read logs in with the password grant;
  // - the token is refreshed after `refresh_at` of its lifetime, or when a 401 said it is no good;
  // - a refused refresh falls back to a new password grant;
  // - a refresh that gets no answer keeps the old token while it lasts;
  // - a refused password grant waits `login_retry_after` before the next.
  //
  // PeerTube allows an address 15 logins in 5 minutes.
  Result<void> EnsureToken();
  Result<void> PasswordGrant();
  Result<void> RefreshGrant();
  Result<void> TakeToken(const Result<http::ClientResponse>& answer, std::string_view what);
  Error Scrubbed(Error error) const;

  http::Url server_;
  AdminCredentials credentials_;
  AdminSessionOptions options_;
  RequestWindow window_;

  std::optional<OAuthClient> client_;
  std::optional<OAuthToken> token_;
  Clock::time_point token_at_{};
  // A 401 said the access token is no good, whatever its lifetime.
  bool token_rejected_ = false;
  std::optional<Clock::time_point> no_login_until_;
  std::optional<Clock::time_point> blocked_until_;

  std::unordered_map<std::string, VideoFacts> videos_;
  std::deque<std::string> video_order_;

  std::uint64_t requests_made_ = 0;
  std::uint64_t password_grants_ = 0;
  std::uint64_t refreshes_ = 0;
};

}  // namespace mc::peertube
