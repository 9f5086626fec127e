#include "pool/service/worker_api_channel.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/text.h"
#include "common/http/client.h"
#include "common/http/url.h"
#include "pool/service/control_token.h"
#include "pool/service/eligibility_text.h"

namespace mc::pool {
namespace {

// An answer's words in an error are one line, and short: enough to say why, not a page.
constexpr std::size_t kMaxAnswerWords = 200;

constexpr std::string_view kCannotWake =
    "the worker API cannot wake or suspend a box; configure bare-metal commands";
constexpr std::string_view kCannotProbe =
    "the worker's control API has no probe action; the worker probes on its own schedule, and "
    "again before an enable when its last probe is older than five minutes";

std::string Context(const WorkerEndpoint& worker, std::string_view what) {
  return worker.name + ": " + std::string(what);
}

std::string Prefix(const WorkerEndpoint& worker, std::string_view what) {
  return Context(worker, what) + ": ";
}

Result<http::Url> StatusUrl(const WorkerEndpoint& worker) {
  Result<http::Url> url = http::ParseUrl(http::UnderBase(worker.url, "/status"));
  if (!url) return InvalidInput("the worker's URL: " + url.error_message());
  return url;
}

Result<http::Url> ControlUrl(const WorkerEndpoint& worker, std::string_view path) {
  if (worker.control_url.empty())
    return Unsupported("the worker has no control API configured (control_url)");
  Result<http::Url> url = http::ParseUrl(http::UnderBase(worker.control_url, path));
  if (!url) return InvalidInput("the worker's control URL: " + url.error_message());
  return url;
}

std::string UrlText(const WorkerEndpoint& worker, std::string_view path) {
  return http::UnderBase(worker.control_url, path);
}

// AnswerWords is what an answer says in one line.
// It is the "message" of the worker's JSON answer ({"ok", "state", "message"}), if any.
// Else it is the body's first line.
std::string AnswerWords(const std::string& body) {
  std::string words;
  const nlohmann::json json = ParseJsonOrDiscarded(body);
  if (json.is_object() && json.contains("message") && json["message"].is_string())
    words = json["message"].get<std::string>();
  if (words.empty()) words = body.substr(0, body.find('\n'));
  words = PrintableLine(words);
  while (!words.empty() && words.back() == ' ') words.pop_back();
  if (words.size() > kMaxAnswerWords) words = words.substr(0, kMaxAnswerWords) + "...";
  return words;
}

// ErrorOfStatus is what a caller branches on for an answer that is not a success.
ErrorCode ErrorOfStatus(int status) {
  if (status == 400) return ErrorCode::kInvalidInput;
  if (status == 401 || status == 403) return ErrorCode::kPermissionDenied;
  // The worker has no such action: an older worker, or a server that only serves /status.
  if (status == 404 || status == 405) return ErrorCode::kUnsupported;
  if (status == 409) return ErrorCode::kConflict;
  if (status == 429 || status >= 500) return ErrorCode::kUnavailable;
  return ErrorCode::kInternal;
}

}  // namespace

Result<void> WorkerApiChannel::Post(const WorkerEndpoint& worker, std::string_view what,
                                    std::string_view path, std::string body) const {
  const std::string context = Context(worker, what);
  Result<http::Url> url = ControlUrl(worker, path);
  if (!url) return url.error().WithContext(context);
  Result<std::string> token =
      ControlTokenOf(worker.control_token_file, worker.control_key_file, worker.name);
  if (!token) return token.error().WithContext(context);

  http::ClientRequest request{.method = "POST",
                              .body = std::move(body),
                              .timeout = options_.request_deadline,
                              .max_body_bytes = 64 * 1024};
  request.transport.ca_file = worker.control_ca_file;
  request.transport.server_name = worker.control_tls_name;
  request.headers.push_back({"Content-Type", "text/plain"});
  Result<http::ClientResponse> answer = http::Request(*url, http::WithBearer(request, *token));
  if (!answer) {
    Error redacted = answer.error();
    redacted.message = WithoutSecret(std::move(redacted.message), *token);
    return std::move(redacted).WithContext(context);
  }
  if (answer->status >= 200 && answer->status < 300) return Ok();
  // A server that echoes its request must not put the token into the log through our error.
  std::string words = WithoutSecret(AnswerWords(answer->body), *token);
  return Error{context + ": the control API answered " + std::to_string(answer->status) +
                   (words.empty() ? "" : ": " + words),
               ErrorOfStatus(answer->status)};
}

Result<void> WorkerApiChannel::Answers(const WorkerEndpoint& worker,
                                       std::chrono::milliseconds timeout) const {
  Result<http::Url> url = StatusUrl(worker);
  if (!url) return url.error().WithContext(worker.name);
  Result<http::ClientResponse> answer =
      http::Request(*url, {.timeout = timeout, .max_body_bytes = 4 * 1024 * 1024});
  if (!answer) return answer.error().WithContext(worker.name);
  return Ok();
}

// GateEligibility is the body of POST /eligibility: the job list where the action carries
// one (it holds the classes' jobs alone), else the classes' bound.
Result<std::string> WorkerApiChannel::GateEligibility(const pool::Action& action) const {
  if (!action.jobs) return EligibilityText(action.classes, options_.bounds);
  return "jobs=" + Joined(*action.jobs, ",");
}

Result<void> WorkerApiChannel::Apply(const pool::Action& action, const WorkerEndpoint& worker) {
  const std::string_view what = pool::ActionKindName(action.kind);
  switch (action.kind) {
    case pool::ActionKind::kEnable: {
      // The concurrency goes first: the worker admits jobs at the enable, and the first one
      // it takes must already be bound by the new concurrency.
      if (action.concurrency < 1)
        return InvalidInput(Prefix(worker, what) + "a concurrency of " +
                            std::to_string(action.concurrency) + " (at least 1 is needed)");
      if (Result<void> set = Post(worker, "enable: POST /concurrency", "/concurrency",
                                  std::to_string(action.concurrency));
          !set)
        return set;
      return Post(worker, "enable: POST /enable", "/enable", "");
    }
    case pool::ActionKind::kDrain:
      return Post(worker, what, "/drain", "");
    case pool::ActionKind::kSetClasses: {
      Result<std::string> text = GateEligibility(action);
      if (!text) return text.error().WithContext(Context(worker, what));
      return Post(worker, what, "/eligibility", *text);
    }
    case pool::ActionKind::kProbe:
      return Unsupported(Prefix(worker, what) + std::string(kCannotProbe));
    case pool::ActionKind::kWake:
    case pool::ActionKind::kSuspend:
      return Unsupported(Prefix(worker, what) + std::string(kCannotWake));
  }
  return Internal(Prefix(worker, what) + "an action kind the channel does not know");
}

std::string WorkerApiChannel::Describe(const pool::Action& action,
                                       const WorkerEndpoint& worker) const {
  switch (action.kind) {
    case pool::ActionKind::kEnable:
      return "POST " + UrlText(worker, "/concurrency") + " " + std::to_string(action.concurrency) +
             ", then POST " + UrlText(worker, "/enable");
    case pool::ActionKind::kDrain:
      return "POST " + UrlText(worker, "/drain");
    case pool::ActionKind::kSetClasses: {
      Result<std::string> text = GateEligibility(action);
      if (!text) return "nothing: " + text.error_message();
      const std::string said = action.jobs ? std::to_string(action.jobs->size()) + " job(s) listed"
                                           : "\"" + *text + "\"";
      return "POST " + UrlText(worker, "/eligibility") + " " + said + " (classes " +
             ClassMaskText(action.classes) + ")";
    }
    case pool::ActionKind::kProbe:
      return "nothing: " + std::string(kCannotProbe);
    case pool::ActionKind::kWake:
    case pool::ActionKind::kSuspend:
      return "nothing: " + std::string(kCannotWake);
  }
  return "nothing: an action kind the channel does not know";
}

}  // namespace mc::pool
