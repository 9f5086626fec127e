// Plain http:// to a PeerTube server: what crosses it (the admin's password, a registration
// token, a runner's and its jobs' tokens) crosses in clear. It is taken on loopback, where
// nothing leaves the host, and elsewhere only where the admin says so.
#pragma once

#include <string>
#include <string_view>

#include "common/base/result.h"
#include "common/http/url.h"

namespace mc::peertube {

// IsLoopback is whether `host` (a URL's host) names this host: localhost, 127.0.0.0/8, ::1.
bool IsLoopback(const std::string& host);

// CheckPlainHttp refuses `url` where it is http:// to a host other than this one and the admin
// has not `allowed` it; the error names what would cross in clear (`secrets`) and the setting
// that allows it (`allow_with`).
Result<void> CheckPlainHttp(const http::Url& url, bool allowed, std::string_view secrets,
                            std::string_view allow_with);

// PlainHttpWarning is the log line of an allowed http:// beyond this host; empty otherwise.
std::string PlainHttpWarning(const http::Url& url, std::string_view secrets,
                             std::string_view allowed_by);

}  // namespace mc::peertube
