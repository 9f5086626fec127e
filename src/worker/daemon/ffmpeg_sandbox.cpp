#include "worker/daemon/ffmpeg_sandbox.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "worker/probe_contract/landlock.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

// The rights of the kernel's uapi (linux/landlock.h) that Debian 12's headers predate.
constexpr std::uint64_t kTruncate = 1ULL << 14;  // ABI 3

constexpr std::uint64_t kReadFile = LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE;
constexpr std::uint64_t kReadDirectory = kReadFile | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr std::uint64_t kWriteFile = LANDLOCK_ACCESS_FS_WRITE_FILE | kTruncate;
constexpr std::uint64_t kWriteDirectory =
    kReadDirectory | kWriteFile | LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
    LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_DIR;
// The admin's folders: a folder's rights and symbolic links.
constexpr std::uint64_t kAdminDirectory = kWriteDirectory | LANDLOCK_ACCESS_FS_MAKE_SYM;
// What a rule on a file (rather than a folder) may grant.
constexpr std::uint64_t kFileRights = kReadFile | kWriteFile;

// The system's files a decode and an encode read: the loader, the libraries, the VA and GPU
// drivers, the kernel's views of the devices. /etc holds more than the loader's files (the
// pool's credentials may live there), so only those are named.
constexpr const char* kSystemRead[] = {"/usr",
                                       "/lib",
                                       "/lib32",
                                       "/lib64",
                                       "/libx32",
                                       "/bin",
                                       "/sbin",
                                       "/etc/ld.so.cache",
                                       "/etc/ld.so.conf",
                                       "/etc/ld.so.conf.d",
                                       "/etc/libva.conf",
                                       "/etc/localtime",
                                       "/etc/alternatives",
                                       "/etc/fonts",
                                       "/proc",
                                       "/sys"};
// The device nodes (the render node, /dev/nvidia*, /dev/null): opened for reading and writing.
constexpr const char* kDevices = "/dev";
// POSIX shared memory, which GPU libraries make and remove.
constexpr const char* kSharedMemory = "/dev/shm";

// What the kernel's ABI knows, all of it handled: a right the ruleset does not handle is
// allowed everywhere.
std::uint64_t HandledRights(int abi) {
  std::uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  // ABI 1: bits 0 to 12
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= kTruncate;
  return rights;
}

void AddSplit(std::string_view list, std::vector<std::string>& out) {
  while (!list.empty()) {
    const std::size_t colon = list.find(':');
    const std::string_view entry = list.substr(0, colon);
    if (!entry.empty()) out.emplace_back(entry);
    if (colon == std::string_view::npos) break;
    list.remove_prefix(colon + 1);
  }
}

// The folder of a local file of the command; empty for a URL or a pipe.
std::string FolderOf(std::string path) {
  if (path.starts_with("file:")) path.erase(0, 5);
  if (path.empty() || path == "-" || path.find("://") != std::string::npos ||
      path.starts_with("pipe:")) {
    return "";
  }
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  return error ? "" : absolute.parent_path().string();
}

// AddRule lets the ruleset grant `rights` beneath `path` (or on it, for a file); a path that
// does not exist has no rule.
Result<void> AddRule(int ruleset, const std::string& path, std::uint64_t rights,
                     std::uint64_t handled) {
  const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
  if (fd < 0) return Ok();
  struct stat facts {};
  if (fstat(fd, &facts) == 0 && !S_ISDIR(facts.st_mode)) rights &= kFileRights;
  landlock_path_beneath_attr rule{.allowed_access = rights & handled, .parent_fd = fd};
  const long added = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
  const int error = errno;
  close(fd);
  if (added != 0)
    return Internal("Landlock refused the rule for " + path + ": " + std::strerror(error));
  return Ok();
}

}  // namespace

SandboxPaths JobSandboxPaths(const RunnerCommand& command, const SandboxEnvironment& environment) {
  SandboxPaths paths;
  for (const CommandInput& input : command.inputs) {
    if (std::string folder = FolderOf(input.path); !folder.empty()) paths.read.push_back(folder);
  }
  for (const CommandOutput& output : command.outputs) {
    if (std::string folder = FolderOf(output.path); !folder.empty())
      paths.read_write.push_back(folder);
  }
  // A program named without a folder is found on PATH, in the system's folders.
  if (environment.ffmpeg.find('/') != std::string::npos) {
    if (std::string folder = FolderOf(environment.ffmpeg); !folder.empty())
      paths.read.push_back(folder);
  }
  AddSplit(environment.library_path, paths.read);
  AddSplit(environment.va_drivers_path, paths.read);
  AddSplit(environment.extra_paths, paths.admin);
  return paths;
}

Result<Sandbox> Sandbox::Make(const SandboxPaths& paths) {
  const int abi = LandlockAbi();
  if (abi < 1) return Unsupported("the kernel has no Landlock (or has it turned off)");
  const std::uint64_t handled = HandledRights(abi);
  landlock_ruleset_attr attributes{.handled_access_fs = handled};
  const long ruleset = syscall(SYS_landlock_create_ruleset, &attributes, sizeof attributes, 0);
  if (ruleset < 0) return Internal(std::string("Landlock: no ruleset: ") + std::strerror(errno));
  Sandbox sandbox(static_cast<int>(ruleset));
  const auto add = [&](const std::string& path, std::uint64_t rights) {
    return AddRule(sandbox.ruleset_, path, rights, handled);
  };
  for (const char* path : kSystemRead) {
    if (Result<void> added = add(path, kReadDirectory); !added) return added.failure();
  }
  for (const auto& [path, rights] : {std::pair{kDevices, kReadDirectory | kWriteFile},
                                     std::pair{kSharedMemory, kWriteDirectory}}) {
    if (Result<void> added = add(path, rights); !added) return added.failure();
  }
  for (const std::string& path : paths.read) {
    if (Result<void> added = add(path, kReadDirectory); !added) return added.failure();
  }
  for (const auto& [folders, rights] :
       {std::pair{&paths.read_write, kWriteDirectory}, std::pair{&paths.admin, kAdminDirectory}}) {
    for (const std::string& path : *folders) {
      if (Result<void> added = add(path, rights); !added) return added.failure();
    }
  }
  return sandbox;
}

Sandbox::~Sandbox() {
  if (ruleset_ >= 0) close(ruleset_);
}

bool Sandbox::Enter() const {
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 &&
         syscall(SYS_landlock_restrict_self, ruleset_, 0) == 0;
}

}  // namespace mc::worker
