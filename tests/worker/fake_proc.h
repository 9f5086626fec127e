// FakeProc lays out a /proc tree in a test's directory: processes with a stat line, a
// children file and open file descriptors, some of them DRM files with their fdinfo.
#pragma once

#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace mc::worker::testing {

class FakeProc {
 public:
  std::string root() const { return (dir_.path() / "proc").string(); }

  // AddProcess writes /proc/PID/stat with utime of cpu_ticks and lists PID among its parent's
  // children.
  void AddProcess(int pid, int ppid, unsigned long long cpu_ticks,
                  const std::string& comm = "ffmpeg");
  // AddDrmFile opens fd as a render node whose fdinfo holds `fdinfo`.
  void AddDrmFile(int pid, int fd, const std::string& fdinfo,
                  const std::string& node = "/dev/dri/renderD128");
  // AddPlainFile opens fd on a file that is not a DRM device.
  void AddPlainFile(int pid, int fd, const std::string& target);

 private:
  mc::testing::TempDir dir_;
  std::vector<std::pair<int, int>> parents_;
};

}  // namespace mc::worker::testing
