// The token of a worker's control API: a token of the worker's own, read from its file at each
// use (a token rotated on disk is picked up at the next action without restarting the
// service), or one derived from the pool's control key and the worker's name, so that a
// worker holds its own token and never the key nor another worker's token.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::pool {

// ReadControlToken reads the first line of `path`, trimmed of surrounding white space (a
// token written by `openssl rand -hex 32 > FILE` ends with a line break). A missing or
// unreadable file, or one with no token on its first line, is an error naming the file and
// never its content.
Result<std::string> ReadControlToken(const std::string& path);

// DeriveControlToken is the token of the worker named `worker_name` (its runner's name) under
// the pool's control `key`: HMAC-SHA256 of the name, in hex. `worker control-token` writes it
// where the worker reads it; the pool derives it again at each use.
Result<std::string> DeriveControlToken(std::string_view key, std::string_view worker_name);

// ControlTokenOf is the token to send `worker_name`: its own file's, else the one derived
// from the key file's first line.
Result<std::string> ControlTokenOf(const std::string& token_file, const std::string& key_file,
                                   std::string_view worker_name);

}  // namespace mc::pool
