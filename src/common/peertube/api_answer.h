// What an answer of PeerTube's REST API means for its caller: the body of a success, or an
// error whose code says whether to retry (5xx, 429: unavailable), to log in again (401, 403:
// permission denied), or to give up on what was asked (404: not found; any other 4xx: invalid
// input). PeerTube's errors are RFC 7807 problems ({"detail", "code", ...}); the message keeps
// their `code` and `detail` and never the `invalid-params` echo, which repeats what was sent.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/http/client.h"

namespace mc::peertube {

// AnswerBody is the body of a 2xx answer, else the error above, "WHAT: HTTP 404 (Video not
// found)". A 429's error carries the wait its Retry-After states (RetryAfter below).
Result<std::string> AnswerBody(const http::ClientResponse& answer, std::string_view what);

// RetryAfter reads a Retry-After header in delta-seconds ("9", as PeerTube's rate limiter
// writes it); an absent, negative or unreadable value (the HTTP-date form included) gives
// `fallback`, and a huge one is held to an hour, since the next cycle will ask again anyway.
std::chrono::seconds RetryAfter(std::string_view header, std::chrono::seconds fallback);

// ProblemText is "code: detail" of a problem document, or the start of any other body made
// fit for one log line; empty for an empty body.
std::string ProblemText(std::string_view body);

}  // namespace mc::peertube
