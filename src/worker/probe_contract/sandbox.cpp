#include "worker/probe_contract/sandbox.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <thread>

#include "worker/probe_contract/landlock.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

// The uapi of linux/landlock.h that Debian 12's headers predate.
constexpr std::uint64_t kTruncate = 1ULL << 14;          // ABI 3
constexpr std::uint64_t kNetBindTcp = 1ULL << 0;         // ABI 4
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;      // ABI 4
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI 6
constexpr std::uint64_t kScopeSignal = 1ULL << 1;        // ABI 6

// The ruleset's attributes as ABI 6 has them. Older kernels take the leading fields.
struct RulesetAttributes {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;
  std::uint64_t scoped = 0;
};

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
// A job's output: read and write, never run. Faststart reads its own output back.
constexpr std::uint64_t kOutputFile = LANDLOCK_ACCESS_FS_READ_FILE | kWriteFile;

// The system's files a decode and an encode read:
// - the loader and the libraries;
// - the VA and GPU drivers;
// - the kernel's views of the devices.
// /etc holds more than the loader's files; the pool's credentials may live there. So only those are
// named.
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
// The device nodes a decode and an encode open for reading and writing. These are the standard ones
// and the GPUs': render nodes in /dev/dri, NVIDIA's /dev/nvidia*. No other node: a root ffmpeg
// could open a disk.
constexpr const char* kDeviceNodes[] = {"/dev/null",       "/dev/zero",    "/dev/full",
                                        "/dev/random",     "/dev/urandom", "/dev/dri",
                                        "/dev/nvidia-caps"};
constexpr std::string_view kNvidiaNodePrefix = "nvidia";
// POSIX shared memory, which GPU libraries make and remove.
constexpr const char* kSharedMemory = "/dev/shm";

// What the kernel's ABI knows, all of it handled. A right the ruleset does not handle is allowed
// everywhere.
std::uint64_t HandledRights(int abi) {
  std::uint64_t rights = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;  // ABI 1: bits 0 to 12
  if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) rights |= kTruncate;
  return rights;
}

// The socket rule, a seccomp filter:
// - socket() is refused for every family but netlink;
// - socketpair() is refused for all but a connected stream pair;
// - io_uring is refused, since it makes sockets past seccomp;
// - so is every call of another architecture's numbering.
// A fake driver talks to its engine over such a pair. connect() cannot turn the pair towards
// another socket.
#if defined(__x86_64__)
constexpr std::uint32_t kArchitecture = AUDIT_ARCH_X86_64;
constexpr std::uint32_t kForeignCalls = 0x40000000;  // x32's numbering
#elif defined(__aarch64__)
constexpr std::uint32_t kArchitecture = AUDIT_ARCH_AARCH64;
constexpr std::uint32_t kForeignCalls = 0xffffffff;
#else
#error "the socket rule knows x86-64 and AArch64"
#endif
constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kRefuse = SECCOMP_RET_ERRNO | EACCES;
constexpr std::uint32_t kNoSuchCall = SECCOMP_RET_ERRNO | ENOSYS;
constexpr std::uint32_t ArgLowWord(int n) {
  return static_cast<std::uint32_t>(offsetof(seccomp_data, args) + 8 * n);
}
constexpr sock_filter kSocketRule[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, kArchitecture, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, kNoSuchCall),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, kForeignCalls, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, kNoSuchCall),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_io_uring_setup, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, kNoSuchCall),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socketpair, 4, 0),
    BPF_STMT(BPF_RET | BPF_K, kAllow),
    // socket(family, ...): netlink alone.
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ArgLowWord(0)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 4, 0),
    BPF_STMT(BPF_RET | BPF_K, kRefuse),
    // socketpair(family, type, ...): a stream pair alone.
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ArgLowWord(1)),
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, kAllow),
    BPF_STMT(BPF_RET | BPF_K, kRefuse),
};

void AddSplit(std::string_view list, std::vector<std::string>& out) {
  while (!list.empty()) {
    const std::size_t colon = list.find(':');
    const std::string_view entry = list.substr(0, colon);
    if (!entry.empty()) out.emplace_back(entry);
    if (colon == std::string_view::npos) break;
    list.remove_prefix(colon + 1);
  }
}

// AddRule lets the ruleset grant `rights` beneath `path`, or on it for a file. A path that does not
// exist has no rule.
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

// The device nodes of kDeviceNodes, and NVIDIA's, named by the GPU's number.
std::vector<std::string> DeviceNodes() {
  std::vector<std::string> nodes(std::begin(kDeviceNodes), std::end(kDeviceNodes));
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator("/dev", error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(kNvidiaNodePrefix)) nodes.push_back(entry.path().string());
  }
  return nodes;
}

// The ruleset of the kernel's ABI:
// - every filesystem right it knows;
// - TCP, from ABI 4;
// - the signal and abstract-socket scopes, from ABI 6.
long CreateRuleset(int abi, std::uint64_t handled) {
  RulesetAttributes attributes{.handled_access_fs = handled};
  std::size_t size = offsetof(RulesetAttributes, handled_access_net);
  if (abi >= 4) {
    attributes.handled_access_net = kNetBindTcp | kNetConnectTcp;
    size = offsetof(RulesetAttributes, scoped);
  }
  if (abi >= 6) {
    attributes.scoped = kScopeAbstractUnix | kScopeSignal;
    size = sizeof attributes;
  }
  return syscall(SYS_landlock_create_ruleset, &attributes, size, 0);
}

// DropCapabilities empties the bounding set and the thread's own sets. With an empty bounding set,
// exec gives a root program none. Unprivileged, the first fails harmlessly and the second changes
// nothing.
bool DropCapabilities() {
  for (int capability = 0; capability < 64; ++capability)
    prctl(PR_CAPBSET_DROP, capability, 0, 0, 0);
  __user_cap_header_struct header{.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
  return syscall(SYS_capset, &header, none) == 0;
}

}  // namespace

void AddEnvironmentPaths(const SandboxEnvironment& environment, SandboxPaths& paths) {
  // A program named without a folder is found on PATH, in the system's folders.
  if (environment.ffmpeg.find('/') != std::string::npos) {
    std::error_code error;
    const fs::path program = fs::absolute(environment.ffmpeg, error);
    if (!error) paths.read.push_back(program.parent_path().string());
  }
  AddSplit(environment.library_path, paths.read);
  AddSplit(environment.va_drivers_path, paths.read);
  AddSplit(environment.extra_paths, paths.admin);
}

Result<Sandbox> Sandbox::Make(const SandboxPaths& paths) {
  const int abi = LandlockAbi();
  if (abi < 1) return Unsupported("the kernel has no Landlock (or has it turned off)");
  const std::uint64_t handled = HandledRights(abi);
  const long ruleset = CreateRuleset(abi, handled);
  if (ruleset < 0) return Internal(std::string("Landlock: no ruleset: ") + std::strerror(errno));
  Sandbox sandbox(static_cast<int>(ruleset));
  const auto add_all = [&](const auto& list, std::uint64_t rights) -> Result<void> {
    for (const auto& path : list) {
      if (Result<void> added = AddRule(sandbox.ruleset_, path, rights, handled); !added)
        return added.error();
    }
    return Ok();
  };
  for (const auto& [list, rights] :
       {std::pair{&paths.read, kReadDirectory}, std::pair{&paths.write_files, kOutputFile},
        std::pair{&paths.read_write, kWriteDirectory}, std::pair{&paths.admin, kAdminDirectory}}) {
    if (Result<void> added = add_all(*list, rights); !added) return added.error();
  }
  if (Result<void> added = add_all(kSystemRead, kReadDirectory); !added) return added.error();
  if (Result<void> added = add_all(DeviceNodes(), kReadDirectory | kWriteFile); !added)
    return added.error();
  // /dev itself may be listed. Its nodes open only as named above.
  const std::vector<std::pair<std::string, std::uint64_t>> folders = {
      {"/dev", LANDLOCK_ACCESS_FS_READ_DIR}, {kSharedMemory, kWriteDirectory}};
  for (const auto& [path, rights] : folders) {
    if (Result<void> added = AddRule(sandbox.ruleset_, path, rights, handled); !added)
      return added.error();
  }
  return sandbox;
}

Sandbox::~Sandbox() {
  if (ruleset_ >= 0) close(ruleset_);
}

bool Sandbox::Enter() const {
  const sock_fprog socket_rule{.len = std::size(kSocketRule),
                               .filter = const_cast<sock_filter*>(kSocketRule)};
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 && DropCapabilities() &&
         syscall(SYS_landlock_restrict_self, ruleset_, 0) == 0 &&
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &socket_rule, 0, 0) == 0;
}

bool Sandbox::RunEntered(const std::function<void()>& work) const {
  bool entered = false;
  // Credentials, no_new_privs, Landlock and seccomp are each the thread's own. The sandbox ends
  // with the thread. What it spawned keeps it.
  std::thread boxed([&] {
    entered = Enter();
    if (entered) work();
  });
  boxed.join();
  return entered;
}

}  // namespace mc::worker
