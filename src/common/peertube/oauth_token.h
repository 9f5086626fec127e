// PeerTube's OAuth answers, read into values:
// - the local client of `GET /api/v1/oauth-clients/local`: {"client_id", "client_secret"};
// - the token of `POST /api/v1/users/token`: {"token_type": "Bearer", "access_token",
//   "refresh_token", "expires_in", "refresh_token_expires_in"}.
//
// The password grant and the refresh grant both answer with the token. Every member here is a
// secret. So neither value can be written to a stream. No parser's error quotes what it read;
// errors name places only.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::peertube {

struct OAuthClient {
  std::string client_id;
  std::string client_secret;

  friend std::ostream& operator<<(std::ostream&, const OAuthClient&) = delete;
};

struct OAuthToken {
  std::string access_token;
  std::string refresh_token;
  // Lifetimes from when the answer came. PeerTube's defaults: a day, and two weeks less a second.
  double expires_in_s = 0;
  double refresh_token_expires_in_s = 0;

  friend std::ostream& operator<<(std::ostream&, const OAuthToken&) = delete;
};

// ParseOAuthClient reads the local client. Both members must be non-empty strings.
Result<OAuthClient> ParseOAuthClient(std::string_view json);

// ParseOAuthToken reads a grant's answer. A stated token type must be Bearer, the only kind the
// session sends. Both tokens must be non-empty. Both lifetimes must be positive. A missing
// refresh_token_expires_in is unknown (0). The session then tries the refresh anyway. If refused,
// it falls back to the password grant.
Result<OAuthToken> ParseOAuthToken(std::string_view json);

}  // namespace mc::peertube
