#include "worker/self_test/self_test_ffmpeg_log.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

#include "common/base/text.h"

namespace mc::worker {
namespace {

std::string WithoutContextPrefix(std::string line) {
  while (!line.empty() && line.front() == '[') {
    const std::size_t end = line.find("] ");
    if (end == std::string::npos) break;
    line = line.substr(end + 2);
  }
  return line;
}

bool IsProgress(const std::string& line) {
  return line.starts_with("frame=") || line.starts_with("size=") || line.starts_with("video:") ||
         line.starts_with("Conversion failed");
}

}  // namespace

std::string FfmpegErrorLine(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line, '\n');) {
    // Progress lines end in carriage returns; each part is a line of its own.
    std::istringstream parts(line);
    for (std::string part; std::getline(parts, part, '\r');) {
      while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back())))
        part.pop_back();
      if (!part.empty()) lines.push_back(WithoutContextPrefix(part));
    }
  }
  for (const std::string& line : lines) {
    const std::string lowered = AsciiLower(line);
    if (lowered.find("failed") != std::string::npos && !IsProgress(line)) return line;
  }
  for (auto line = lines.rbegin(); line != lines.rend(); ++line) {
    if (!IsProgress(*line)) return *line;
  }
  return "";
}

std::set<std::string> ListedCodecs(const std::string& list_output) {
  std::set<std::string> names;
  std::istringstream in(list_output);
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (!listing) {
      listing = line.find("------") != std::string::npos;
      continue;
    }
    std::istringstream fields(line);
    std::string flags;
    std::string name;
    if (fields >> flags >> name) names.insert(name);
  }
  return names;
}

}  // namespace mc::worker
