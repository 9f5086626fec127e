#include "dra/doctor/nvidia_checks.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "common/base/read_file.h"
#include "dra/doctor/nvidia_versions.h"

namespace mc::dra {
namespace {

namespace fs = std::filesystem;

constexpr char kModule[] = "nvidia-kernel-module";
constexpr char kLibraries[] = "nvidia-libraries";
constexpr char kDeviceNodes[] = "nvidia-device-nodes";
constexpr char kNvml[] = "nvml";
constexpr char kQuery[] = "nvidia-query";

// The libraries the project opens at run time:
//  - CUDA, NVDEC and NVENC, through nv-codec-headers' loader;
//  - NVML, for the driver's version and the worker's evidence.
constexpr std::string_view kNvidiaLibraries[] = {"libcuda", "libnvcuvid", "libnvidia-encode",
                                                 "libnvidia-ml"};

constexpr char kContainerRemedy[] =
    "in a container, the NVIDIA container toolkit mounts the host's libraries "
    "(NVIDIA_DRIVER_CAPABILITIES=compute,video,utility)";

std::string VersionFile(const NodeInput& input) {
  return input.roots.proc + "/driver/nvidia/version";
}

Result<NvidiaKernelModule> ReadKernelModule(const NodeInput& input) {
  Result<std::string> text = ReadFileText(VersionFile(input));
  if (!text) return text.error();
  return ParseNvidiaKernelVersion(*text);
}

std::size_t NvidiaGpuCount(const NodeInput& input) {
  return static_cast<std::size_t>(std::ranges::count_if(input.probe.reports, IsNvidia));
}

// Where the dynamic loader finds a library, as dlopen would for the query.
// It gives the path opened, or why it could not open one.
struct FoundLibrary {
  std::string path;
  std::string error;
};

FoundLibrary FindLibrary(const std::string& soname) {
  void* handle = dlopen(soname.c_str(), RTLD_LAZY | RTLD_LOCAL);
  if (!handle) {
    const char* detail = dlerror();
    return {.error = detail ? detail : "not found"};
  }
  FoundLibrary found;
  link_map* map = nullptr;
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name) found.path = map->l_name;
  dlclose(handle);
  if (found.path.empty()) found.error = "loaded, but the loader does not say from where";
  return found;
}

// VersionedFile follows the links from the library the loader opened.
// An example: libcuda.so.1 -> libcuda.so.580.159.04.
// It stops at the first file whose name carries a version.
// It gives that file and its version.
// When no name carries one, it gives the chain's last file and no version.
std::pair<std::string, std::string> VersionedFile(const std::string& opened,
                                                  std::string_view stem) {
  fs::path file = opened;
  for (int links = 0; links < 16; ++links) {
    const std::string version = LibraryFileVersion(file.filename().string(), stem);
    if (!version.empty()) return {file.string(), version};
    std::error_code error;
    if (!fs::is_symlink(file, error)) break;
    const fs::path target = fs::read_symlink(file, error);
    if (error) break;
    file = target.is_absolute() ? target : file.parent_path() / target;
  }
  return {file.lexically_normal().string(), ""};
}

}  // namespace

bool HasNvidia(const NodeInput& input) {
  std::error_code error;
  return NvidiaGpuCount(input) > 0 || fs::exists(VersionFile(input), error);
}

CheckResults CheckNvidiaKernelModule(const NodeInput& input) {
  if (!HasNvidia(input)) return {};
  Result<NvidiaKernelModule> module = ReadKernelModule(input);
  if (!module) {
    if (module.error().IsInvalidInput()) {
      return {Warn(kModule, module.error_message(),
                   "cat " + VersionFile(input) + " says which module")};
    }
    return {Fail(kModule, "the NVIDIA kernel module is not loaded: " + module.error_message(),
                 "load it (modprobe nvidia) or install the driver; in a container, /proc is the "
                 "host's, so the host has no module either")};
  }
  return {Ok(kModule, std::string(module->open ? "the open" : "the proprietary") +
                          " NVIDIA kernel module " + module->version + " is loaded")};
}

CheckResults CheckNvidiaLibraries(const NodeInput& input) {
  if (!HasNvidia(input)) return {};
  const Result<NvidiaKernelModule> module = ReadKernelModule(input);
  CheckResults results;
  for (std::string_view stem : kNvidiaLibraries) {
    const std::string soname = std::string(stem) + ".so.1";
    const FoundLibrary found = FindLibrary(soname);
    if (found.path.empty()) {
      results.push_back(Fail(kLibraries, soname + " cannot be loaded: " + found.error,
                             std::string("install NVIDIA's user-space driver of the kernel "
                                         "module's version; ") +
                                 kContainerRemedy));
      continue;
    }
    const auto [versioned, version] = VersionedFile(found.path, stem);
    const std::string where = soname + " (" + versioned + ")";
    if (version.empty()) {
      results.push_back(Warn(kLibraries, where + ": its file name states no version",
                             "compare its package's version with the kernel module's"));
    } else if (!module) {
      results.push_back(Warn(kLibraries,
                             where + " is " + version + "; the kernel module's version is unknown",
                             "see nvidia-kernel-module"));
    } else if (version != module->version) {
      results.push_back(
          Fail(kLibraries, where + " is " + version + ", the kernel module " + module->version,
               "install the user-space driver of the module's version " + module->version +
                   " (or reboot into the module of " + version + "); " + kContainerRemedy));
    } else {
      results.push_back(Ok(kLibraries, where + " is " + version + ", as the kernel module"));
    }
  }
  return results;
}

CheckResults CheckNvidiaDeviceNodes(const NodeInput& input) {
  if (!HasNvidia(input)) return {};
  struct Node {
    std::string name;
    bool needed;
  };
  std::vector<Node> nodes = {{"nvidiactl", true}, {"nvidia-uvm", false}};
  for (std::size_t i = 0; i < std::max<std::size_t>(NvidiaGpuCount(input), 1); ++i)
    nodes.push_back({"nvidia" + std::to_string(i), true});
  std::vector<std::string> present;
  std::string missing_needed;
  std::string missing_optional;
  for (const Node& node : nodes) {
    const std::string path = input.roots.discovery.dev + "/" + node.name;
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
      close(fd);
      present.push_back(node.name);
      continue;
    }
    std::string& into = node.needed ? missing_needed : missing_optional;
    into += (into.empty() ? "" : "; ") + path + ": " + std::strerror(errno);
  }
  std::string opened;
  for (const std::string& name : present) opened += (opened.empty() ? "" : ", ") + name;
  const std::string found = opened.empty() ? "" : " (" + opened + " open)";
  const std::string remedy =
      "the NVIDIA driver makes them as it loads (nvidia-modprobe -u -c=0 makes nvidia-uvm); in a "
      "container, the NVIDIA container toolkit or the pod's devices give them";
  if (!missing_needed.empty())
    return {Fail(kDeviceNodes, "cannot open " + missing_needed + found, remedy)};
  if (!missing_optional.empty()) {
    return {Warn(kDeviceNodes,
                 "cannot open " + missing_optional + found +
                     ": CUDA programs that use unified memory fail without it",
                 remedy)};
  }
  return {Ok(kDeviceNodes, opened + " open")};
}

CheckResults CheckNvml(const NodeInput& input) {
  if (!HasNvidia(input) || !input.nvml_driver_version) return {};
  const Result<std::string>& version = *input.nvml_driver_version;
  if (!version) {
    const bool absent = version.error_message().find("cannot load") != std::string::npos;
    return {Fail(kNvml, "NVML did not answer: " + version.error_message(),
                 absent
                     ? std::string("install libnvidia-ml.so.1 of the driver; ") + kContainerRemedy
                     : "nvidia-smi says the same in its words; 'Driver/library version "
                       "mismatch' needs the user-space driver of the module's version, or a "
                       "reboot into the module of the libraries' version")};
  }
  const Result<NvidiaKernelModule> module = ReadKernelModule(input);
  if (module && module->version != *version) {
    return {Fail(kNvml,
                 "NVML says driver " + *version + ", the kernel module is " + module->version,
                 "install the user-space driver of the module's version")};
  }
  return {Ok(kNvml, "NVML answers: driver " + *version)};
}

CheckResults CheckNvidiaQueries(const NodeInput& input) {
  CheckResults results;
  for (const probe::DeviceReport& report : input.probe.reports) {
    if (!IsNvidia(report)) continue;
    const std::string where =
        report.gpu.pci_address.empty() ? report.device.name : report.gpu.pci_address;
    if (report.failure) {
      results.push_back(Fail(kQuery, where + ": the NVIDIA query failed: " + *report.failure,
                             "the nvidia-libraries, nvidia-device-nodes and nvml lines name the "
                             "usual causes; docs/probe/nvidia.md says more"));
      continue;
    }
    if (!report.nvidia_facts) continue;
    const probe::NvidiaFacts& facts = *report.nvidia_facts;
    std::string finding = where + ": " + facts.name + " answered, CUDA " +
                          std::to_string(facts.cuda_driver_version / 1000) + "." +
                          std::to_string(facts.cuda_driver_version % 1000 / 10) + ", " +
                          std::to_string(facts.decoders.size()) + " decoder answers, NVENC ";
    finding += facts.encoder.available ? "available"
                                       : "unavailable (" + facts.encoder.unavailable_reason + ")";
    results.push_back(Ok(kQuery, finding));
  }
  return results;
}

}  // namespace mc::dra
