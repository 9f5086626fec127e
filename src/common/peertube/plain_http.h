// Plain http:// to a PeerTube server. What crosses it crosses in clear: the admin's password, a
// registration token, a runner's and its jobs' tokens. It is taken on loopback, where nothing
// leaves the host. Elsewhere it is taken only where the admin says so.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/http/url.h"

namespace mc::peertube {

// IsLoopback: whether `host`, a URL's host, is this host. That is localhost, 127.0.0.0/8 or ::1.
bool IsLoopback(const std::string& host);

// CheckPlainHttp refuses `url` when all of these hold:
// - it is http://;
// - it names a host other than this one;
// - the admin has not `allowed` it.
//
// The error names what would cross in clear (`secrets`). It names the setting that allows it
// (`allow_with`).
Result<void> CheckPlainHttp(const http::Url& url, bool allowed, std::string_view secrets,
                            std::string_view allow_with);

// PlainHttpWarning: the log line of an allowed http:// beyond this host. Empty otherwise.
std::string PlainHttpWarning(const http::Url& url, std::string_view secrets,
                             std::string_view allowed_by);

}  // namespace mc::peertube
