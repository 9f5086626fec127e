// Text made fit for one log line, in the two ways the log needs it.
#pragma once

#include <string>
#include <string_view>

namespace mc {

// JoinLines trims each line of `text`, drops the empty ones and joins the rest with "; ", so
// that a child's multi-line stderr fits the log's one line per device.
std::string JoinLines(std::string_view text);

// PrintableLine makes `text` valid UTF-8 and turns every control character (line breaks
// included) into a space, so that a server's message, which may hold anything, cannot break
// or forge a log line.
std::string PrintableLine(std::string_view text);

}  // namespace mc
