// Where a channel says what it did and what a command printed: one line at a time, already
// free of secrets. The caller decides where the lines go (the service's log, a test's list).
#pragma once

#include <functional>
#include <string>

namespace mc::pool {

using Logger = std::function<void(const std::string& line)>;

}  // namespace mc::pool
