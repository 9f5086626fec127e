// What an answer of PeerTube's REST API means for its caller. A success gives its body. An error's
// code says what to do:
// - retry on 5xx and 429: unavailable;
// - log in again on 401 and 403: permission denied;
// - give up on 404: not found;
// - give up on any other 4xx: invalid input.
//
// PeerTube's errors are RFC 7807 problems ({"detail", "code", ...}). The message keeps their `code`
// and `detail`. It never keeps the `invalid-params` echo, which repeats what was sent.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/http/client.h"

namespace mc::peertube {

// AnswerBody is the body of a 2xx answer, else the error above. Example: "WHAT: HTTP 404 (Video not
// found)". A 429's error carries the wait its Retry-After states (RetryAfter below).
Result<std::string> AnswerBody(const http::ClientResponse& answer, std::string_view what);

// RetryAfter reads a Retry-After header in delta-seconds. PeerTube's rate limiter writes "9", say.
// These give `fallback`:
// - an absent value;
// - a negative value;
// - an unreadable one, the HTTP-date form included.
//
// A huge value is held to an hour. The next cycle will ask again anyway.
std::chrono::seconds RetryAfter(std::string_view header, std::chrono::seconds fallback);

// ProblemText is "code: detail" of a problem document. For any other body, it is the start, fit for
// one log line. Empty for an empty body.
std::string ProblemText(std::string_view body);

}  // namespace mc::peertube
