#include "proc_mirror.h"

#include <array>
#include <cctype>
#include <system_error>

namespace mc::fakeva {
namespace {

namespace fs = std::filesystem;

// What a process's entry links to the real one; fd and fdinfo are the fake's own.
constexpr std::array<const char*, 9> kLinked = {"stat",  "status", "task",    "cmdline", "comm",
                                                "statm", "io",     "environ", "cgroup"};

bool IsPid(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

bool MirrorProcess(const fs::path& proc_root, int pid, std::string* error) {
  const fs::path entry = proc_root / std::to_string(pid);
  const fs::path real = fs::path("/proc") / std::to_string(pid);
  std::error_code code;
  fs::create_directories(entry / "fd", code);
  if (!code) fs::create_directories(entry / "fdinfo", code);
  if (code) {
    *error = "cannot make " + entry.string() + ": " + code.message();
    return false;
  }
  for (const char* name : kLinked) {
    // An existing link is left as it is: another process may be making the same entry.
    std::error_code ignored;
    fs::create_symlink(real / name, entry / name, ignored);
  }
  return true;
}

void MirrorMachineFiles(const fs::path& proc_root) {
  std::error_code code;
  fs::create_directories(proc_root, code);
  for (const fs::directory_entry& file : fs::directory_iterator("/proc", code)) {
    const std::string name = file.path().filename().string();
    if (IsPid(name) || name == "self" || name == "thread-self") continue;
    std::error_code ignored;
    fs::create_symlink(file.path(), proc_root / name, ignored);
  }
}

}  // namespace mc::fakeva
