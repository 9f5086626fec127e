// fakeva_proc_mirror PROC_ROOT keeps the fake machine's /proc in step with the real one.
// It runs while a command runs on the machine (proc_mirror.h says what it lays out).
// Every live process gets its entry as soon as it is seen.
// A reaped process's entry is removed, with whatever the fake driver wrote in it.
// run-on starts it beside the command and ends it after.
// It also ends by itself once PROC_ROOT is removed or its parent is gone.
#include <dirent.h>
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

// How often /proc is read: twice the product's sampler's fastest rate, 5 Hz.
// So a process is mirrored before the sampler's next look.
// It is also seldom enough to cost little: reading /proc is not cheap.
constexpr std::chrono::milliseconds kPeriod(100);

// LivePids lists /proc's process directories with readdir alone: it runs often.
std::set<int> LivePids() {
  std::set<int> pids;
  DIR* proc = opendir("/proc");
  if (!proc) return pids;
  while (const dirent* entry = readdir(proc)) {
    int pid = 0;
    const char* c = entry->d_name;
    for (; *c >= '0' && *c <= '9' && pid < 100'000'000; ++c) pid = pid * 10 + (*c - '0');
    if (*c == '\0' && pid > 0) pids.insert(pid);
  }
  closedir(proc);
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
