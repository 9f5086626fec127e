#include "fake_proc.h"

#include <filesystem>

namespace mc::worker::testing {

void FakeProc::AddProcess(int pid, int ppid, unsigned long long cpu_ticks,
                          const std::string& comm) {
  const std::string base = "proc/" + std::to_string(pid);
  // Fields 3 to 17 of stat: state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt,
  // majflt, cmajflt, utime, stime, cutime, cstime.
  dir_.Write(base + "/stat", std::to_string(pid) + " (" + comm + ") S " + std::to_string(ppid) +
                                 " " + std::to_string(pid) + " " + std::to_string(pid) +
                                 " 0 -1 4194304 100 0 0 0 " + std::to_string(cpu_ticks) +
                                 " 0 0 0 20 0 1 0\n");
  dir_.Write(base + "/task/" + std::to_string(pid) + "/children", "");
  std::filesystem::create_directories(dir_.path() / base / "fd");
  std::filesystem::create_directories(dir_.path() / base / "fdinfo");
  parents_.emplace_back(pid, ppid);
  std::string children;
  for (const auto& [child, parent] : parents_) {
    if (parent == ppid) children += std::to_string(child) + " ";
  }
  if (std::filesystem::exists(dir_.path() / ("proc/" + std::to_string(ppid)))) {
    dir_.Write("proc/" + std::to_string(ppid) + "/task/" + std::to_string(ppid) + "/children",
               children);
  }
}

void FakeProc::AddDrmFile(int pid, int fd, const std::string& fdinfo, const std::string& node) {
  const std::string base = "proc/" + std::to_string(pid);
  dir_.Link(base + "/fd/" + std::to_string(fd), node);
  dir_.Write(base + "/fdinfo/" + std::to_string(fd), fdinfo);
}

void FakeProc::AddPlainFile(int pid, int fd, const std::string& target) {
  const std::string base = "proc/" + std::to_string(pid);
  dir_.Link(base + "/fd/" + std::to_string(fd), target);
  dir_.Write(base + "/fdinfo/" + std::to_string(fd), "pos:\t0\nflags:\t0100002\nmnt_id:\t26\n");
}

}  // namespace mc::worker::testing
