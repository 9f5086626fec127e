// `media-capabilities query-va NODE`: the internal child. It asks one render node's VA-API driver
// and prints the JSON report on stdout.
#pragma once

#include <string>

namespace mc::probe {

// RunQueryVa: 0 after printing a report, 1 after the error on stderr.
int RunQueryVa(const std::string& render_node);

}  // namespace mc::probe
