// The token of a worker's control API, read from its file at each use: a token rotated on
// disk is picked up at the next action without restarting the service.
#pragma once

#include <string>

#include "common/base/result.h"

namespace mc::pool {

// ReadControlToken reads the first line of `path`, trimmed of surrounding white space (a
// token written by `openssl rand -hex 32 > FILE` ends with a line break). A missing or
// unreadable file, or one with no token on its first line, is an error naming the file and
// never its content.
Result<std::string> ReadControlToken(const std::string& path);

}  // namespace mc::pool
