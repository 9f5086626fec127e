#include "common/peertube/admin_session.h"

#include <algorithm>
#include <cmath>
#include <unordered_set>

#include "common/base/text.h"
#include "common/peertube/api_answer.h"
#include "common/peertube/runner_paths.h"

namespace mc::peertube {
namespace {

using Clock = AdminSessionOptions::Clock;

std::chrono::seconds CeilSeconds(Clock::duration wait) {
  return std::chrono::ceil<std::chrono::seconds>(std::max(wait, Clock::duration::zero()));
}

Clock::duration Seconds(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// Whether the server answered no, such as a refused grant. Not whether it failed to answer.
bool Refused(const Error& error) {
  return error.code == ErrorCode::kInvalidInput || error.code == ErrorCode::kPermissionDenied ||
         error.code == ErrorCode::kNotFound;
}

}  // namespace

AdminSession::AdminSession(http::Url server, AdminCredentials credentials,
                           AdminSessionOptions options)
    : server_(std::move(server)),
      credentials_(std::move(credentials)),
      options_(std::move(options)),
      window_(options_.request_budget, options_.window) {
  options_.page_size = std::clamp(options_.page_size, 1, 100);
  options_.video_cache_size = std::max<std::size_t>(options_.video_cache_size, 1);
  if (!options_.send) options_.send = http::Request;
}

Clock::time_point AdminSession::Now() const { return options_.now ? options_.now() : Clock::now(); }

Error AdminSession::Scrubbed(Error error) const {
  error.message = WithoutSecret(std::move(error.message), credentials_.password());
  if (client_) error.message = WithoutSecret(std::move(error.message), client_->client_secret);
  if (token_) {
    error.message = WithoutSecret(std::move(error.message), token_->access_token);
    error.message = WithoutSecret(std::move(error.message), token_->refresh_token);
  }
  return error;
}

Result<http::ClientResponse> AdminSession::Send(const std::string& target,
                                                http::ClientRequest request) {
  const Clock::time_point now = Now();
  const std::string what = request.method + " " + target.substr(0, target.find('?'));
  if (blocked_until_ && now < *blocked_until_) {
    Error error =
        Unavailable(what + ": not sent: the server answered 429 and asked to wait " +
                    std::to_string(CeilSeconds(*blocked_until_ - now).count()) + " s more");
    error.retry_after = CeilSeconds(*blocked_until_ - now);
    return error;
  }
  if (!window_.TryTake(now)) {
    const auto wait = CeilSeconds(window_.WaitFor(now));
    Error error = Unavailable(
        what + ": not sent: the session's budget of " + std::to_string(window_.budget()) +
        " requests per " +
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(window_.window()).count()) +
        " s is spent; the next fits in " + std::to_string(wait.count()) + " s");
    error.retry_after = wait;
    return error;
  }
  ++requests_made_;
  request.timeout = options_.request_timeout;
  http::Url url = server_;
  url.path_and_query = target;
  Result<http::ClientResponse> answer = options_.send(url, request);
  // The wait counts from when the answer came, not when the request left. A server may take seconds
  // to say 429. It still means the seconds it asked for, from then.
  if (answer && answer->status == 429)
    blocked_until_ = Now() + RetryAfter(answer->Header("Retry-After"), options_.window);
  return answer;
}

Result<void> AdminSession::TakeToken(const Result<http::ClientResponse>& answer,
                                     std::string_view what) {
  if (!answer) return answer.error();
  Result<std::string> body = AnswerBody(*answer, what);
  if (!body) return body.error();
  Result<OAuthToken> token = ParseOAuthToken(*body);
  if (!token) return token.error();
  token_ = std::move(*token);
  token_at_ = Now();
  token_rejected_ = false;
  return Ok();
}

Result<void> AdminSession::PasswordGrant() {
  const Clock::time_point now = Now();
  if (no_login_until_ && now < *no_login_until_) {
    Error error = PermissionDenied(
        "the password grant: not tried: the last one was refused; the next try is in " +
        std::to_string(CeilSeconds(*no_login_until_ - now).count()) + " s");
    error.retry_after = CeilSeconds(*no_login_until_ - now);
    return error;
  }
  if (!client_) {
    Result<http::ClientResponse> answer = Send("/api/v1/oauth-clients/local", {});
    if (!answer) return answer.error();
    Result<std::string> body = AnswerBody(*answer, "the OAuth client");
    if (!body) return body.error();
    Result<OAuthClient> client = ParseOAuthClient(*body);
    if (!client) return client.error();
    client_ = std::move(*client);
  }
  ++password_grants_;
  Result<void> taken = TakeToken(
      Send("/api/v1/users/token", http::FormRequest({{"client_id", client_->client_id},
                                                     {"client_secret", client_->client_secret},
                                                     {"grant_type", "password"},
                                                     {"response_type", "code"},
                                                     {"username", credentials_.username()},
                                                     {"password", credentials_.password()}})),
      "the password grant");
  if (!taken && Refused(taken.error())) {
    // A refused grant may mean the server no longer knows the client. It may have been reinstalled.
    // The next try reads the client again.
    client_.reset();
    no_login_until_ = Now() + options_.login_retry_after;
    // PeerTube refuses a wrong password with a 400 (invalid_grant). To the caller it is a refusal
    // of who is asking, whatever the status.
    return PermissionDenied(taken.error_message());
  }
  return taken;
}

Result<void> AdminSession::RefreshGrant() {
  ++refreshes_;
  return TakeToken(
      Send("/api/v1/users/token", http::FormRequest({{"client_id", client_->client_id},
                                                     {"client_secret", client_->client_secret},
                                                     {"grant_type", "refresh_token"},
                                                     {"refresh_token", token_->refresh_token}})),
      "the token refresh");
}

Result<void> AdminSession::EnsureToken() {
  if (!token_ || !client_) return PasswordGrant();
  const Clock::time_point now = Now();
  const bool due =
      token_rejected_ || now >= token_at_ + Seconds(options_.refresh_at * token_->expires_in_s);
  if (!due) return Ok();
  const bool refresh_expired = token_->refresh_token_expires_in_s > 0 &&
                               now >= token_at_ + Seconds(token_->refresh_token_expires_in_s);
  if (refresh_expired) return PasswordGrant();
  Result<void> refreshed = RefreshGrant();
  if (refreshed) return refreshed;
  if (Refused(refreshed.error())) {
    // The refresh token is no good either. Only the password grant is left.
    token_.reset();
    return PasswordGrant();
  }
  // No answer to the refresh. The session's token is still good until it expires.
  if (!token_rejected_ && now < token_at_ + Seconds(token_->expires_in_s)) return Ok();
  return refreshed;
}

Result<std::string> AdminSession::Get(const std::string& target, std::string_view what) {
  for (int attempt = 0;; ++attempt) {
    if (Result<void> token = EnsureToken(); !token) {
      return token.error().WithContext(std::string(what) + ": no token");
    }
    http::ClientRequest request = http::WithBearer({}, token_->access_token);
    Result<http::ClientResponse> answer = Send(target, std::move(request));
    if (!answer) return answer.error();
    if (answer->status == 401 && attempt == 0) {
      token_rejected_ = true;
      continue;
    }
    return AnswerBody(*answer, what);
  }
}

// A read is not retried here. These are unavailable errors:
// - a 5xx;
// - a transport failure;
// - a refusal by the budget;
// - a 429.
//
// The caller reads again on its next cycle. A paged read that fails on any page fails whole. So
// part of the queue is never taken for all of it.
Result<std::vector<PendingJob>> AdminSession::PendingRunnerJobs(
    const std::vector<std::string>& types) {
  std::vector<PendingJob> pending;
  std::unordered_set<std::string> seen;
  std::int64_t start = 0;
  while (true) {
    Result<std::string> body =
        Get(PendingJobsTarget(types, start, options_.page_size), "the pending runner jobs");
    if (!body) return Scrubbed(body.error());
    Result<RunnerJobPage> page = ParseRunnerJobList(*body);
    if (!page) return page.error();
    for (PendingJob& job : page->jobs) {
      if (job.state != kJobPending) continue;
      if (!types.empty() && std::find(types.begin(), types.end(), job.type) == types.end())
        continue;
      // A job that became pending again during the read can be listed twice.
      if (seen.insert(job.uuid).second) pending.push_back(std::move(job));
    }
    start += static_cast<std::int64_t>(page->jobs.size());
    if (page->jobs.empty() || start >= page->total) break;
  }
  return pending;
}

Result<VideoFacts> AdminSession::Video(const std::string& uuid) {
  if (!IsUuid(uuid)) return InvalidInput("the video: not a UUID");
  if (auto cached = videos_.find(uuid); cached != videos_.end()) return cached->second;
  const std::string target = "/api/v1/videos/" + uuid;
  Result<std::string> body = Get(target, "the video " + uuid);
  if (!body) return Scrubbed(body.error());
  Result<VideoAnswer> answer = ParseVideo(*body);
  if (!answer) return Error{answer.error_message() + " (" + uuid + ")", answer.error_code()};
  VideoFacts facts = std::move(answer->facts);
  if (facts.uuid != uuid)
    return InvalidInput("the video " + uuid + ": the answer is of " + facts.uuid);
  if (options_.read_codec && answer->highest_file_id) {
    Result<std::string> metadata =
        Get(target + "/metadata/" + std::to_string(*answer->highest_file_id),
            "the metadata of the video " + uuid);
    // A file replaced since the video was read has no metadata any more. The codec stays unknown;
    // the read does not fail.
    if (!metadata && !metadata.error().IsNotFound()) return Scrubbed(metadata.error());
    if (metadata) {
      Result<std::string> codec = ParseVideoFileCodec(*metadata);
      if (!codec) return Error{codec.error_message() + " (" + uuid + ")", codec.error_code()};
      facts.codec = std::move(*codec);
    }
  }
  if (facts.height > 0) {
    if (videos_.size() >= options_.video_cache_size) {
      videos_.erase(video_order_.front());
      video_order_.pop_front();
    }
    videos_.emplace(uuid, facts);
    video_order_.push_back(uuid);
  }
  return facts;
}

Result<std::vector<RegisteredRunner>> AdminSession::Runners() {
  std::vector<RegisteredRunner> runners;
  std::int64_t start = 0;
  while (true) {
    const std::string target =
        "/api/v1/runners?" + http::FormEncode({{"start", std::to_string(start)},
                                               {"count", std::to_string(options_.page_size)},
                                               {"sort", "createdAt"}});
    Result<std::string> body = Get(target, "the runners");
    if (!body) return Scrubbed(body.error());
    Result<RegisteredRunnerPage> page = ParseRunnerList(*body);
    if (!page) return page.error();
    start += static_cast<std::int64_t>(page->runners.size());
    for (RegisteredRunner& runner : page->runners) {
      const bool listed = std::any_of(runners.begin(), runners.end(),
                                      [&](const RegisteredRunner& r) { return r.id == runner.id; });
      if (!listed) runners.push_back(std::move(runner));
    }
    if (page->runners.empty() || start >= page->total) break;
  }
  return runners;
}

}  // namespace mc::peertube
