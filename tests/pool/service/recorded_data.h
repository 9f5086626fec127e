// The documents recorded for the pool service's tests (data/, data/README.md).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "common/base/read_file.h"

namespace mc::pool::testing {

// Recorded is the text of data/`name`, or "" with a test failure when it cannot be read.
inline std::string Recorded(const std::string& name) {
  Result<std::string> text = ReadFileText(std::string(POOL_SERVICE_DATA_DIR) + "/" + name);
  EXPECT_TRUE(text) << text.error_message();
  return text ? *text : "";
}

}  // namespace mc::pool::testing
