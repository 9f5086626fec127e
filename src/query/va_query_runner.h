// The parent's side of the VA-API query: one `query-va NODE` child per render node, all at
// once, each under the seed's deadline, and every way a child can go wrong turned into a
// failed result with the words that explain it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "base/result.h"
#include "facts/va_facts.h"

namespace mc {

// The seed's deadline for one render node's query.
inline constexpr std::chrono::milliseconds kQueryDeadline{20000};

struct QueryCommand {
  // The binary to run as the child, normally this binary (/proc/self/exe).
  std::string program;
  std::chrono::milliseconds deadline = kQueryDeadline;
};

// VaQueryArgv is the command line of the child that queries one render node.
std::vector<std::string> VaQueryArgv(const QueryCommand& command, const std::string& render_node);

std::vector<Result<VaFacts>> QueryVaNodes(const QueryCommand& command,
                                          const std::vector<std::string>& render_nodes);

}  // namespace mc
