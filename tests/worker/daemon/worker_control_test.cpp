// `worker state|drain|enable|...` and `worker status` find the worker they ask about: --state-dir
// when given; else, with --gpu N, the systemd unit media-worker@N's state directory; else the
// default. Without --state-dir they say where they looked, and a worker not running there is
// said with what to do.
#include <gtest/gtest.h>

#include <filesystem>

#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::worker {
namespace {

// The host root of a test: ROOT/var/lib/media-worker/N stands for /var/lib/media-worker/N.
probe::ChildOutcome Control(const mc::testing::TempDir& dir, std::vector<std::string> flags) {
  std::vector<std::string> argv = {MEDIA_CAP_BINARY, "worker"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  return mc::testing::RunCommand(argv, {"MEDIA_CAP_HOST_ROOT=" + (dir.path() / "host").string(),
                                        "XDG_STATE_HOME=" + (dir.path() / "xdg").string()});
}

TEST(WorkerControl, WithGpuNItReadsTheUnitsStateDirectoryAndSaysSo) {
  mc::testing::TempDir dir;
  const std::filesystem::path unit = dir.path() / "host/var/lib/media-worker" / "1";
  std::filesystem::create_directories(unit);
  const probe::ChildOutcome run = Control(dir, {"state", "--gpu", "1"});
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("worker state: reading media-worker@1's state directory " + unit.string()),
            std::string::npos)
      << run.err;
  // No worker runs there: it says so, and where to look next.
  EXPECT_NE(run.err.find("no worker socket at " + (unit / "worker.sock").string()),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("systemctl status media-worker@N"), std::string::npos) << run.err;
}

TEST(WorkerControl, WithAGpuWhoseUnitNeverRanItSaysWhereItLookedAndReadsTheDefault) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = Control(dir, {"drain", "--gpu", "0"});
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("no state directory of media-worker@0 at " +
                         (dir.path() / "host/var/lib/media-worker" / "0").string()),
            std::string::npos)
      << run.err;
  EXPECT_NE(
      run.err.find("reading the default, " + (dir.path() / "xdg" / "peertube-worker").string()),
      std::string::npos)
      << run.err;
}

TEST(WorkerControl, WithoutGpuOrStateDirItSaysTheUnitsKeepTheirsApart) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = Control(dir, {"enable"});
  EXPECT_EQ(run.code, 1);
  EXPECT_NE(run.err.find("the systemd units keep GPU N's in"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("--gpu N"), std::string::npos) << run.err;
}

TEST(WorkerControl, AGivenStateDirIsTakenWithoutAWord) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run =
      Control(dir, {"state", "--state-dir", (dir.path() / "mine").string()});
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.err.find("reading"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("no worker socket at " + (dir.path() / "mine" / "worker.sock").string()),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace mc::worker
