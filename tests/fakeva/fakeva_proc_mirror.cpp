// fakeva_proc_mirror PROC_ROOT: keeps the fake machine's /proc (proc_mirror.h) in step with the
// real one while a command runs on the machine: every live process gets its entry as soon as
// it is seen, and the entry of a process that is gone (reaped) is removed with whatever the
// stand-in driver wrote in it. run-on starts it beside the command and ends it after; it also
// ends by itself once PROC_ROOT is removed or its parent is gone.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "proc_mirror.h"

namespace mc::fakeva {
namespace {

namespace fs = std::filesystem;

// How often /proc is read: far more often than the product's sampler (5 Hz at its fastest),
// so that a process is mirrored before the sampler looks for it.
constexpr std::chrono::milliseconds kPeriod(20);

std::set<int> LivePids() {
  std::set<int> pids;
  std::error_code code;
  for (const fs::directory_entry& entry : fs::directory_iterator("/proc", code)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    pids.insert(std::stoi(name));
  }
  return pids;
}

int Run(const fs::path& root) {
  MirrorMachineFiles(root);
  const pid_t parent = getppid();
  std::set<int> mirrored;
  while (fs::is_directory(root) && getppid() == parent) {
    const std::set<int> live = LivePids();
    for (const int pid : live) {
      std::string error;
      if (!mirrored.contains(pid) && MirrorProcess(root, pid, &error)) mirrored.insert(pid);
    }
    for (auto it = mirrored.begin(); it != mirrored.end();) {
      if (live.contains(*it)) {
        ++it;
        continue;
      }
      std::error_code ignored;
      fs::remove_all(root / std::to_string(*it), ignored);
      it = mirrored.erase(it);
    }
    std::this_thread::sleep_for(kPeriod);
  }
  return 0;
}

}  // namespace
}  // namespace mc::fakeva

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fakeva_proc_mirror PROC_ROOT\n");
    return 2;
  }
  return mc::fakeva::Run(argv[1]);
}
