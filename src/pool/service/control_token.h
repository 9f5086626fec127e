// The token of a worker's control API is either:
//  - the worker's own, read from its file at each use;
//  - or one derived from the pool's control key and the worker's name.
// A token rotated on disk is picked up at the next action, without a restart.
// A derived token means a worker holds its own token only.
// It never holds the key, nor another worker's token.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::pool {

// ReadControlToken reads the first line of `path`, trimmed of surrounding white space.
// A token written by `openssl rand -hex 32 > FILE` ends with a line break.
// A missing or unreadable file, or one with no token on its first line, is an error.
// The error names the file, never its content.
Result<std::string> ReadControlToken(const std::string& path);

// DeriveControlToken is the token of the worker `worker_name` under the pool's `key`.
// The name is the runner's name. The token is HMAC-SHA256 of the name, in hex.
// `worker control-token` writes it where the worker reads it.
// The pool derives it again at each use.
Result<std::string> DeriveControlToken(std::string_view key, std::string_view worker_name);

// ControlTokenOf is the token to send `worker_name`: its own file's, else the one derived
// from the key file's first line.
Result<std::string> ControlTokenOf(const std::string& token_file, const std::string& key_file,
                                   std::string_view worker_name);

}  // namespace mc::pool
