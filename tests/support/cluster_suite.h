// StartClusterSuite is the first step of every C++ suite run against the real control plane.
// tests/cluster/start-control-plane starts that control plane.
// This takes the control plane's directory from MEDIA_CAP_CLUSTER_DIR.
// It runs the suite's own set-up on it once.
// Any failure is kept as the suite's `setup_error`, which each test asserts empty.
// So when set-up fails, every test fails with the reason.
// The suite does not stop at the first.
#pragma once

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <map>
#include <string>

#include "common/base/result.h"

namespace mc::testing {

// ReadClusterEnv reads the control plane's `dir`/cluster.env.
// start-control-plane writes these facts for a shell to source: API_PORT, ADMIN_TOKEN, ...
// Each line is NAME=value or NAME='value'; the quotes are taken off.
// Empty lines, comments and lines without "=" are skipped.
Result<std::map<std::string, std::string>> ReadClusterEnv(const std::filesystem::path& dir);

// `Cluster` has the string members `dir` and `setup_error`.
// `set_up` fills the rest of it, and throws std::exception on a failure.
template <typename Cluster, typename SetUp>
Cluster* StartClusterSuite(SetUp set_up) {
  auto* cluster = new Cluster;
  const char* dir = std::getenv("MEDIA_CAP_CLUSTER_DIR");
  if (!dir || !*dir) {
    cluster->setup_error =
        "MEDIA_CAP_CLUSTER_DIR is not set: start a control plane with "
        "tests/cluster/start-control-plane DIR and give its DIR";
    return cluster;
  }
  cluster->dir = dir;
  try {
    set_up(*cluster);
  } catch (const std::exception& error) {
    cluster->setup_error = error.what();
  }
  return cluster;
}

}  // namespace mc::testing
