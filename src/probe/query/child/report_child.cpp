#include "probe/query/child/report_child.h"

#include <unistd.h>

#include <cstdio>

namespace mc::probe {
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

int RunReportChild(const char* name, const std::function<Result<std::string>()>& query) {
  std::fflush(stdout);
  const int report_fd = dup(STDOUT_FILENO);
  if (report_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::fprintf(stderr, "%s: cannot set up its output\n", name);
    return 1;
  }
  Result<std::string> report = query();
  std::fflush(stdout);
  if (!report) {
    std::fprintf(stderr, "%s\n", report.error_message().c_str());
    return 1;
  }
  if (!WriteAll(report_fd, *report)) {
    std::fprintf(stderr, "%s: cannot write the report\n", name);
    return 1;
  }
  close(report_fd);
  return 0;
}

}  // namespace mc::probe
