// AdminSession is PeerTube's admin API as the pool manager reads it: an OAuth session of the
// administrator, kept under PeerTube's rate limit, and the three reads the pool decides by (the
// pending runner jobs, the facts of their videos, the registered runners), each returning
// values. A failed read is not retried here but on the caller's next cycle, and no error holds
// a secret. What an operator sees of it: docs/pool/operating.md.
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
  // Jobs or runners asked per page; PeerTube answers at most 100 and refuses more.
  int page_size = 100;
  // Videos whose facts are kept; past it the one cached first is dropped.
  std::size_t video_cache_size = 1024;
  // Whether Video() reads the codec from the highest file's metadata: one more request per
  // video, which the cache makes once.
  bool read_codec = true;
  // The share of a token's lifetime after which it is refreshed.
  double refresh_at = 0.8;
  // How long a refused password grant keeps the session from trying another.
  std::chrono::seconds login_retry_after{60};
  std::chrono::milliseconds request_timeout{10000};
  // The clock and the transport; empty, they are steady_clock::now and http::Request. Tests
  // give their own, so that time passes without sleeping and answers come without a server.
  std::function<Clock::time_point()> now;
  Sender send;
};

class AdminSession {
 public:
  AdminSession(http::Url server, AdminCredentials credentials, AdminSessionOptions options = {});

  // PendingRunnerJobs lists the pending jobs of `types` (every type when empty), oldest
  // first, paged until the list's total is reached. Jobs of any other state, Completing
  // among them, are left out even when the server lists them.
  Result<std::vector<PendingJob>> PendingRunnerJobs(const std::vector<std::string>& types);

  // Video reads the facts of the video `uuid`, from the cache when it was read before. A
  // video with no file with a picture yet is not cached, since its files are still to come.
  Result<VideoFacts> Video(const std::string& uuid);

  // Runners lists the registered runners, paged.
  Result<std::vector<RegisteredRunner>> Runners();

  // What the session has sent in all: every request, the token's included. A request
  // refused by the budget or by a 429's wait was not sent and does not count.
  std::uint64_t requests_made() const { return requests_made_; }
  std::uint64_t password_grants() const { return password_grants_; }
  std::uint64_t refreshes() const { return refreshes_; }

 private:
  using Clock = AdminSessionOptions::Clock;

  Clock::time_point Now() const;
  // Send sends one request, within the budget and the 429's wait: past either it refuses the
  // request with an unavailable error that carries the wait, rather than sleep. Every request
  // counts, the token's included, since PeerTube's limiter and any proxy's in front of it
  // count them alike.
  Result<http::ClientResponse> Send(const std::string& target, http::ClientRequest request);
  // Get is an authenticated GET of `target`; the body of a 2xx answer.
  Result<std::string> Get(const std::string& target, std::string_view what);
  // EnsureToken logs in with the password grant on the first read, refreshes the token once
  // `refresh_at` of its lifetime has passed or a 401 said it is no good, and falls back to a
  // new password grant when a refresh is refused. A refresh that gets no answer keeps the old
  // token while it lasts. A refused password grant is not tried again for
  // `login_retry_after`: PeerTube allows an address 15 logins in 5 minutes.
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
  // A 401 said the access token is no good, whatever its lifetime says.
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
