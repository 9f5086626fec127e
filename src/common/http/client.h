// A one-shot HTTP/1.1 client. It sends one request on a connection of its own. It reads the
// whole answer back, bounded in size and time. It registers the runner with PeerTube and asks
// PeerTube's admin API. It is not a general client: no redirects, no connection reuse, no
// compression. Those callers need none of it.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/base/result.h"
#include "common/http/message_head.h"
#include "common/http/transport.h"
#include "common/http/url.h"

namespace mc::http {

struct ClientRequest {
  std::string method = "GET";
  // Sent as given, after Host, Content-Length and Connection, which the client writes itself.
  Headers headers;
  std::string body;
  // From connecting until the last byte of the answer.
  std::chrono::milliseconds timeout{10000};
  // A larger answer's body is an error rather than a memory hog.
  std::size_t max_body_bytes = 8 * 1024 * 1024;
  TransportOptions transport;
};

struct ClientResponse {
  int status = 0;
  std::string reason;
  Headers headers;
  std::string body;

  std::string_view Header(std::string_view name) const { return HeaderValue(headers, name); }
};

// Request sends `request` to `url` and reads the answer whole. It reads by Content-Length,
// chunked coding or the server's close. Any status is an answer. What fails is not getting
// one:
//  - unavailable: no connection, a closed or malformed answer;
//  - deadline exceeded;
//  - invalid input: an answer over the limit.
// Each error names the method and the URL without its query.
Result<ClientResponse> Request(const Url& url, const ClientRequest& request);

// GetOk sends one GET to `url` and gives the body of its 200 answer. Any other status is an
// error that names it ("GET URL answered 503"). So is a URL that does not parse.
Result<std::string> GetOk(const std::string& url, std::chrono::milliseconds timeout);

// FormRequest is a POST of `fields` as application/x-www-form-urlencoded.
ClientRequest FormRequest(const std::vector<std::pair<std::string, std::string>>& fields);
// JsonRequest is `method` with `json` (already serialized) as application/json.
ClientRequest JsonRequest(std::string method, std::string json);
// WithBearer adds "Authorization: Bearer TOKEN"; the token appears in no message of ours.
ClientRequest WithBearer(ClientRequest request, std::string_view token);

// FormEncode writes `fields` as "a=1&b=x%20y" (RFC 3986's unreserved characters kept).
std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields);

}  // namespace mc::http
