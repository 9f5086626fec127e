// Reading a file of the source tree, such as a shipped trace or docs/pool/design.md, in a test.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace mc::pool::testing {

// SourceFile is the text of `path`, relative to the top of the source tree; empty when it
// cannot be read.
inline std::string SourceFile(const std::string& path) {
  std::ifstream in(std::string(MEDIA_CAP_SOURCE_DIR) + "/" + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace mc::pool::testing
