#include "cli/query_va_command.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "facts/va_facts_json.h"
#include "va/va_query.h"

namespace mc {
namespace {

bool WriteAll(int fd, const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

int RunQueryVa(const std::string& render_node) {
  // Drivers and libva itself may print on stdout. The report keeps the original stdout
  // to itself and everything else written to stdout lands on stderr, where the parent
  // reads it as diagnostics rather than as part of the report.
  std::fflush(stdout);
  const int report_fd = dup(STDOUT_FILENO);
  if (report_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("query-va: cannot set up its output");
    return 1;
  }
  Result<VaFacts> facts = QueryVaDriver(render_node);
  std::fflush(stdout);
  if (!facts) {
    std::fprintf(stderr, "%s\n", facts.error().c_str());
    return 1;
  }
  if (!WriteAll(report_fd, VaFactsToJson(*facts))) {
    std::perror("query-va: cannot write the report");
    return 1;
  }
  close(report_fd);
  return 0;
}

}  // namespace mc
