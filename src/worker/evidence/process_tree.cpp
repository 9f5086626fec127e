#include "worker/evidence/process_tree.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "common/base/read_file.h"
#include "common/base/text.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

// The major number of DRM character devices.
constexpr unsigned kDrmMajor = 226;

bool ReadSmallFile(const fs::path& path, std::string& text) {
  Result<std::string> content = ReadFileText(path);
  if (!content) return false;
  text = std::move(*content);
  return true;
}

std::optional<int> PidOf(std::string_view name) {
  const std::optional<int> pid = ParseInteger<int>(name);
  if (!pid || *pid <= 0) return std::nullopt;
  return pid;
}

// ChildrenOf reads /proc/PID/task/*/children; nullopt where the kernel offers no such file.
std::optional<std::vector<int>> ChildrenOf(const fs::path& process) {
  std::error_code error;
  fs::directory_iterator tasks(process / "task", error);
  if (error) return std::nullopt;
  std::vector<int> children;
  bool any = false;
  for (const fs::directory_entry& task : tasks) {
    std::string text;
    if (!ReadSmallFile(task.path() / "children", text)) continue;
    any = true;
    std::istringstream words(text);
    int child = 0;
    while (words >> child) children.push_back(child);
  }
  if (!any) return std::nullopt;
  return children;
}

std::vector<int> ScanDescendants(const std::string& proc_root, int root) {
  std::vector<ProcStat> stats;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(proc_root, error)) {
    if (!PidOf(entry.path().filename().string())) continue;
    std::string line;
    if (!ReadSmallFile(entry.path() / "stat", line)) continue;
    if (Result<ProcStat> stat = ParseProcStat(line)) stats.push_back(*stat);
  }
  std::vector<int> tree = {root};
  for (std::size_t i = 0; i < tree.size(); ++i) {
    for (const ProcStat& stat : stats) {
      if (stat.ppid == tree[i] && std::find(tree.begin(), tree.end(), stat.pid) == tree.end())
        tree.push_back(stat.pid);
    }
  }
  return tree;
}

}  // namespace

Result<ProcStat> ParseProcStat(std::string_view line) {
  const std::size_t open = line.find('(');
  const std::size_t close = line.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
    return InvalidInput("stat: expected \"PID (COMM) STATE ...\"");
  }
  ProcStat stat;
  const std::optional<int> pid = PidOf(std::string(line.substr(0, open - (open > 0 ? 1 : 0))));
  if (!pid) return InvalidInput("stat: the PID is not a positive integer");
  stat.pid = *pid;
  // After the command name: state (field 3), ppid (4), ... utime (14), stime (15), cutime
  // (16), cstime (17).
  std::istringstream fields{std::string(line.substr(close + 1))};
  std::vector<std::string> words;
  std::string word;
  while (words.size() < 15 && fields >> word) words.push_back(word);
  if (words.size() < 15) return InvalidInput("stat: fewer than 17 fields");
  const std::optional<int> ppid = ParseInteger<int>(words[1]);
  if (!ppid) return InvalidInput("stat: a numeric field is not a number");
  stat.ppid = *ppid;
  for (int field : {11, 12, 13, 14}) {
    const std::optional<std::uint64_t> ticks = ParseInteger<std::uint64_t>(words[field]);
    if (!ticks) return InvalidInput("stat: a numeric field is not a number");
    stat.cpu_ticks += *ticks;
  }
  return stat;
}

Result<std::vector<int>> TreePids(const std::string& proc_root, int root) {
  const fs::path root_path = fs::path(proc_root) / std::to_string(root);
  std::error_code error;
  if (!fs::exists(root_path, error))
    return NotFound("no process " + std::to_string(root) + " in " + proc_root);
  if (!ChildrenOf(root_path)) return ScanDescendants(proc_root, root);
  std::vector<int> tree = {root};
  for (std::size_t i = 0; i < tree.size(); ++i) {
    const std::optional<std::vector<int>> children =
        ChildrenOf(fs::path(proc_root) / std::to_string(tree[i]));
    if (!children) continue;
    for (int child : *children) {
      if (std::find(tree.begin(), tree.end(), child) == tree.end()) tree.push_back(child);
    }
  }
  return tree;
}

double TreeCpuSeconds(const std::string& proc_root, const std::vector<int>& pids) {
  static_assert(sizeof(long) >= 4);
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  std::uint64_t ticks = 0;
  for (int pid : pids) {
    std::string line;
    if (!ReadSmallFile(fs::path(proc_root) / std::to_string(pid) / "stat", line)) continue;
    if (Result<ProcStat> stat = ParseProcStat(line)) ticks += stat->cpu_ticks;
  }
  return static_cast<double>(ticks) /
         static_cast<double>(ticks_per_second > 0 ? ticks_per_second : 100);
}

std::vector<DrmClient> DrmClients(const std::string& proc_root, const std::vector<int>& pids,
                                  std::vector<std::string>* problems) {
  std::vector<DrmClient> clients;
  for (int pid : pids) {
    const fs::path process = fs::path(proc_root) / std::to_string(pid);
    std::error_code error;
    for (const fs::directory_entry& entry : fs::directory_iterator(process / "fd", error)) {
      const std::optional<int> fd = PidOf(entry.path().filename().string());
      if (!fd) continue;
      std::error_code link_error;
      const std::string target = fs::read_symlink(entry.path(), link_error).string();
      bool drm = target.starts_with("/dev/dri/");
      struct stat status {};
      if (!drm && stat(entry.path().c_str(), &status) == 0) {
        drm = S_ISCHR(status.st_mode) && major(status.st_rdev) == kDrmMajor;
      }
      if (!drm) continue;
      std::string text;
      if (!ReadSmallFile(process / "fdinfo" / std::to_string(*fd), text)) {
        if (problems)
          problems->push_back("cannot read the fdinfo of PID " + std::to_string(pid) + " fd " +
                              std::to_string(*fd));
        continue;
      }
      Result<DrmFdinfo> fdinfo = ParseDrmFdinfo(text);
      if (!fdinfo) {
        if (problems && !fdinfo.error().IsNotFound()) {
          problems->push_back("PID " + std::to_string(pid) + " fd " + std::to_string(*fd) + ": " +
                              fdinfo.error_message());
        }
        continue;
      }
      clients.push_back({pid, *fd, std::move(*fdinfo)});
    }
  }
  return clients;
}

}  // namespace mc::worker
