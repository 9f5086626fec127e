// What the runner reads: its config.toml as the worker writes it, and the registration kept in
// the state directory, written for the worker's user alone.
#include "worker/daemon/runner_config.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/temp_dir.h"

namespace mc::worker {
namespace {

TEST(RunnerConfig, TheTomlPointsTheRunnerAtTheGateWithItsToken) {
  EXPECT_EQ(RunnerConfigToml({.concurrency = 7,
                              .url = "http://127.0.0.1:9465",
                              .runner_name = "w2:gpu0",
                              .runner_token = "ptrt-1\"2"}),
            "[jobs]\nconcurrency = 7\n\n[ffmpeg]\nthreads = 2\nnice = 20\n\n"
            "[[registeredInstances]]\nurl = \"http://127.0.0.1:9465\"\n"
            "runnerToken = \"ptrt-1\\\"2\"\nrunnerName = \"w2:gpu0\"\n");
  EXPECT_EQ(RunnerConfigPath("/x/config", "gpu-pci-0000-01-00-0"),
            "/x/config/peertube-runner-nodejs/gpu-pci-0000-01-00-0/config.toml");
}

TEST(Registration, IsKeptForTheWorkersUserAloneAndReadsBack) {
  mc::testing::TempDir dir;
  const std::string path = RegistrationPath(dir.path().string());
  ASSERT_TRUE(SaveRegistration(path, {.server_url = "https://v.example",
                                      .runner_name = "w2:gpu0",
                                      .runner_id = 4,
                                      .runner_token = "ptrt-secret"}));
  struct stat info {};
  ASSERT_EQ(stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  Result<Registration> read = LoadRegistration(path);
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_EQ(read->runner_token, "ptrt-secret");
  EXPECT_EQ(read->runner_id, 4);
}

TEST(Registration, ABrokenFileNamesWhatIsWrong) {
  mc::testing::TempDir dir;
  const auto path = dir.Write("registration.json", R"({"server_url": "x", "runner_name": 3})");
  Result<Registration> read = LoadRegistration(path.string());
  ASSERT_FALSE(read);
  EXPECT_NE(read.error_message().find("runner_name"), std::string::npos) << read.error_message();
  EXPECT_TRUE(LoadRegistration((dir.path() / "none").string()).error().IsNotFound());
}

}  // namespace
}  // namespace mc::worker
