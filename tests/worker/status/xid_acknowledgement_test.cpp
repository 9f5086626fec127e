// An Xid and the operator's enable, through the gatherer a running worker reads its GPU with:
// the enable acknowledges the kernel log's record for good, and a later record still counts.
#include <gtest/gtest.h>

#include <fstream>

#include "support/temp_dir.h"
#include "worker/status/status_gather.h"

namespace mc::worker {
namespace {

constexpr char kFellOff[] =
    "4,1201,5012700000,-;NVRM: Xid (PCI:0000:01:00): 79, GPU has fallen off the bus.\n";
constexpr char kDoubleBit[] = "4,1305,6001200000,-;NVRM: Xid (PCI:0000:01:00): 48, DBE\n";

GatherOptions Options(const mc::testing::TempDir& dir) {
  GatherOptions options;
  options.kernel_log = dir.Write("kmsg", kFellOff).string();
  options.nvml_library = "libnvidia-ml-not-here.so.1";
  // A proc of the test's own: a plain Linux kernel with room to spare, whatever this machine is.
  dir.Write("proc/sys/kernel/osrelease", "6.1.0-28-amd64\n");
  dir.Write("proc/version", "Linux version 6.1.0-28-amd64\n");
  dir.Write("proc/loadavg", "0.10 0.20 0.30 1/100 4242\n");
  dir.Write("proc/meminfo", "MemAvailable:   16384000 kB\n");
  options.proc_root = (dir.path() / "proc").string();
  options.platform = {.dev = dir.Write("dev/null", "").parent_path().string(),
                      .proc = options.proc_root};
  options.config.work_dir = dir.path().string();
  return options;
}

TEST(XidAcknowledgement, AnEnabledXidStaysAcknowledgedAtTheNextReadingAndANewOneCounts) {
  mc::testing::TempDir dir;
  GatherOptions options = Options(dir);
  const probe::ProbeResult probe;
  const StatusInputs first = GatherStatus(options, probe);
  ASSERT_EQ(StateName(first.state.state), "OFFLINE") << first.state.reason;
  ASSERT_EQ(first.signals.xid_sequence, 1201u);

  // The enable: the worker acknowledges that record and decides anew, off OFFLINE, while the
  // gatherer's own last reading was OFFLINE.
  options.previous = WorkerState::kOffline;
  options.live.acknowledged_xid = first.signals.xid_sequence;
  options.live.state = WorkerState::kGpuUnavailable;
  const StatusInputs next = GatherStatus(options, probe);
  EXPECT_NE(StateName(next.state.state), "OFFLINE") << next.state.reason;
  EXPECT_FALSE(next.signals.xid_line);

  std::ofstream(options.kernel_log, std::ios::app) << kDoubleBit;
  options.live.state = next.state.state;
  const StatusInputs later = GatherStatus(options, probe);
  EXPECT_EQ(StateName(later.state.state), "OFFLINE");
  EXPECT_NE(later.state.reason.find("48, DBE"), std::string::npos) << later.state.reason;
}

}  // namespace
}  // namespace mc::worker
