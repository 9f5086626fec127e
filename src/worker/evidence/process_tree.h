// A process tree as /proc shows it. It reads from an overridable root, so tests can lay one out. It
// gives:
// - the PIDs of a process and all its descendants;
// - their CPU time;
// - the DRM files they hold open, with their fdinfo.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "worker/evidence/drm_fdinfo.h"

namespace mc::worker {

// ProcStat is what the sampler reads of one /proc/PID/stat.
struct ProcStat {
  int pid = 0;
  int ppid = 0;
  // utime + stime + cutime + cstime, in clock ticks. That is the process's own CPU time and that of
  // its reaped children. So a tree's sum survives a child's exit.
  std::uint64_t cpu_ticks = 0;
};

// ParseProcStat reads one stat line. The command name may hold spaces and parentheses.
Result<ProcStat> ParseProcStat(std::string_view line);

// TreePids gives `root` and every live descendant under proc_root. It reads each task's `children`
// file. Where the kernel has none, it scans every process's stat.
Result<std::vector<int>> TreePids(const std::string& proc_root, int root);

// TreeCpuSeconds sums the CPU time of the PIDs. A PID that is gone counts nothing.
double TreeCpuSeconds(const std::string& proc_root, const std::vector<int>& pids);

// DrmClient is one open DRM file of the tree.
struct DrmClient {
  int pid = 0;
  int fd = 0;
  DrmFdinfo fdinfo;
};

// DrmClients gives the DRM files the PIDs hold open. A descriptor counts when its fdinfo is a DRM
// file's, and its link names either:
// - a file under /dev/dri/;
// - a character device of major 226.
// Files that cannot be read are left out and named in `problems`. The process may have exited
// meanwhile, or access is refused.
std::vector<DrmClient> DrmClients(const std::string& proc_root, const std::vector<int>& pids,
                                  std::vector<std::string>* problems = nullptr);

}  // namespace mc::worker
