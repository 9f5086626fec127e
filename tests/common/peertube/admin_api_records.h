// The answers PeerTube 7.2.1 gave its admin API (data/admin-api/, data/README.md) and the
// videos they name, shared by the admin API's tests.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "common/base/read_file.h"

namespace mc::peertube::admin_api_records {

inline constexpr char kVideo720[] = "433600b5-b8b4-4920-a9dc-fcea1a908566";
inline constexpr char kVideo480[] = "cb13ce3d-247a-4414-accd-05a2d1c6b361";

// Recorded is the recorded answer `name`, or "" with a test failure when it cannot be read.
inline std::string Recorded(const std::string& name) {
  Result<std::string> text = ReadFileText(PEERTUBE_DATA_DIR "/admin-api/" + name);
  EXPECT_TRUE(text) << text.error_message();
  return text ? *text : "";
}

}  // namespace mc::peertube::admin_api_records
