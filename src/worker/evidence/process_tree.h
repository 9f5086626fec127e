// A process tree as /proc shows it, read from an overridable root so that tests can lay one
// out: the PIDs of a process and all its descendants, their CPU time, and the DRM files they
// hold open with their fdinfo.
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
  // utime + stime + cutime + cstime in clock ticks: the process's own CPU time and that of
  // the children it has reaped, so that a tree's sum survives a child's exit.
  std::uint64_t cpu_ticks = 0;
};

// ParseProcStat reads one stat line; the command name may hold spaces and parentheses.
Result<ProcStat> ParseProcStat(std::string_view line);

// TreePids gives `root` and every descendant alive under proc_root. It reads each task's
// `children` file and, where the kernel has none, scans every process's stat.
Result<std::vector<int>> TreePids(const std::string& proc_root, int root);

// TreeCpuSeconds sums the CPU time of the PIDs; a PID that is gone counts nothing.
double TreeCpuSeconds(const std::string& proc_root, const std::vector<int>& pids);

// DrmClient is one open DRM file of the tree.
struct DrmClient {
  int pid = 0;
  int fd = 0;
  DrmFdinfo fdinfo;
};

// DrmClients gives the DRM files the PIDs hold open: descriptors whose link names a file
// under /dev/dri/, or a character device of major 226, and whose fdinfo is a DRM file's.
// Files that cannot be read (the process exited meanwhile, or access is refused) are left out
// and named in `problems`.
std::vector<DrmClient> DrmClients(const std::string& proc_root, const std::vector<int>& pids,
                                  std::vector<std::string>* problems = nullptr);

}  // namespace mc::worker
