#include "common/peertube/api_answer.h"

#include <charconv>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_path.h"
#include "common/base/text.h"

namespace mc::peertube {
namespace {

constexpr std::size_t kMaxProblemText = 200;

// A Retry-After of an hour is already too long for a pool manager.
constexpr std::chrono::seconds kMaxRetryAfter{3600};

std::string Shortened(std::string text) {
  if (text.size() > kMaxProblemText) text = text.substr(0, kMaxProblemText) + "...";
  return PrintableLine(text);
}

}  // namespace

std::string ProblemText(std::string_view body) {
  if (body.empty()) return "";
  const nlohmann::json problem = ParseJsonOrDiscarded(body);
  if (problem.is_object()) {
    const std::string code = JsonStringAt(problem, {"code"});
    std::string detail = JsonStringAt(problem, {"detail"});
    if (detail.empty()) detail = JsonStringAt(problem, {"error"});
    if (detail.empty()) detail = JsonStringAt(problem, {"title"});
    if (!code.empty() && !detail.empty()) return Shortened(code + ": " + detail);
    if (!code.empty() || !detail.empty()) return Shortened(code + detail);
  }
  return Shortened(std::string(body));
}

std::chrono::seconds RetryAfter(std::string_view header, std::chrono::seconds fallback) {
  while (!header.empty() && header.front() == ' ') header.remove_prefix(1);
  while (!header.empty() && header.back() == ' ') header.remove_suffix(1);
  long long seconds = 0;
  const auto [end, error] = std::from_chars(header.data(), header.data() + header.size(), seconds);
  if (header.empty() || error == std::errc::invalid_argument ||
      end != header.data() + header.size())
    return fallback;
  if (error == std::errc::result_out_of_range || seconds > kMaxRetryAfter.count())
    return kMaxRetryAfter;
  if (seconds < 0) return fallback;
  return std::chrono::seconds(seconds);
}

Result<std::string> AnswerBody(const http::ClientResponse& answer, std::string_view what) {
  if (answer.status >= 200 && answer.status < 300) return answer.body;
  std::string message = std::string(what) + ": HTTP " + std::to_string(answer.status);
  if (const std::string problem = ProblemText(answer.body); !problem.empty())
    message += " (" + problem + ")";
  if (answer.status == 429) {
    Error error = Unavailable(message);
    error.retry_after = RetryAfter(answer.Header("Retry-After"), std::chrono::seconds(10));
    return error;
  }
  if (answer.status >= 500) return Unavailable(message);
  if (answer.status == 401 || answer.status == 403) return PermissionDenied(message);
  if (answer.status == 404) return NotFound(message);
  return InvalidInput(message);
}

}  // namespace mc::peertube
