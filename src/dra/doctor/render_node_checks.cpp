#include "dra/doctor/render_node_checks.h"

#include <fcntl.h>
#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace mc::dra {
namespace {

constexpr char kNodes[] = "render-nodes";
constexpr char kAccess[] = "render-node-access";

std::string DevPath(const NodeInput& input, const std::string& node) {
  return input.roots.discovery.dev + "/dri/" + node;
}

// GroupName is the name of `gid` on this machine, or empty when it has none.
// A container's /etc/group rarely knows the host's render group.
std::string GroupName(gid_t gid) {
  std::vector<char> buffer(16384);
  group entry{};
  group* found = nullptr;
  if (getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) != 0 || !found) return "";
  return found->gr_name;
}

std::string Describe(const probe::Gpu& gpu) {
  std::string text = gpu.pci_address.empty() ? "no PCI address" : gpu.pci_address;
  if (!gpu.kernel_driver.empty()) text += ", " + gpu.kernel_driver;
  if (!gpu.product_name.empty()) text += ", " + gpu.product_name;
  return text;
}

// AccessRemedy names the node's group and the way to join it: a user's, a unit's or a pod's.
// The kernel's udev rules grant render nodes through a group.
// It is render, or video on older systems.
std::string AccessRemedy(const std::string& path, bool cluster) {
  struct stat status {};
  if (stat(path.c_str(), &status) != 0)
    return "check the node's owner and mode (ls -l " + path + ")";
  const std::string name = GroupName(status.st_gid);
  const std::string gid = std::to_string(status.st_gid);
  const std::string group = name.empty() ? "gid " + gid : "group " + name + " (gid " + gid + ")";
  const std::string add = "the node belongs to " + group + ": add this user to it (usermod -aG " +
                          (name.empty() ? gid : name) + " USER)";
  // On bare metal the worker's unit joins it with SupplementaryGroups=render video.
  if (!cluster)
    return add + "; the worker's systemd unit joins it (SupplementaryGroups=render video)";
  return add + ", or in a pod set securityContext.supplementalGroups: [" + gid +
         "]; the agent's DaemonSet runs as uid 0 instead";
}

}  // namespace

CheckResults CheckRenderNodes(const NodeInput& input) {
  CheckResults results;
  std::vector<const probe::DeviceReport*> with_nodes;
  bool nvidia = false;
  for (const probe::DeviceReport& report : input.probe.reports) {
    nvidia = nvidia || IsNvidia(report);
    if (!report.gpu.render_node.empty()) with_nodes.push_back(&report);
  }
  if (with_nodes.empty()) {
    const std::string where = input.probe.searched.empty() ? "sysfs" : input.probe.searched;
    const std::string nvidia_only =
        "no render node in " + where + "; the NVIDIA GPUs are asked through NVIDIA's own APIs";
    if (nvidia && !input.cluster) {
      // Bare metal: the worker asks NVIDIA's APIs too, and no claim needs a render node.
      results.push_back(Ok(kNodes, nvidia_only + ", as the worker does"));
    } else if (nvidia) {
      results.push_back(Warn(kNodes, nvidia_only,
                             "the agent's claim asks for at least one render node: on a node "
                             "without any, label it media.liken.sh/gpu=none (docs/install.md)"));
    } else {
      std::string finding = "no render node and no NVIDIA GPU in " + where;
      for (const std::string& error : input.probe.discovery_errors) finding += " (" + error + ")";
      std::string remedy =
          "is the GPU's kernel driver loaded (lsmod | grep -e i915 -e xe -e amdgpu -e nvidia)?";
      if (input.cluster)
        remedy +=
            " In a container: are /sys and the render nodes given to it (the media-render "
            "claim)?";
      results.push_back(Fail(kNodes, finding, remedy));
    }
    return results;
  }
  for (const probe::DeviceReport* report : with_nodes) {
    const std::string node = probe::RenderNodeForPath(report->gpu.render_node);
    const std::string path = DevPath(input, node);
    std::error_code error;
    if (std::filesystem::exists(path, error)) {
      results.push_back(Ok(kNodes, path + " (" + Describe(report->gpu) + ")"));
    } else {
      results.push_back(Fail(
          kNodes,
          path + " is missing, though sysfs lists " + node + " (" + Describe(report->gpu) + ")",
          input.cluster ? "the render node was not delivered into this container: give it "
                          "the node (the media-render claim, or a hostPath device)"
                        : "udev did not make the node: run `udevadm trigger`, and check the "
                          "kernel log for the GPU driver's errors (dmesg | grep -i drm)"));
    }
  }
  return results;
}

CheckResults CheckRenderNodeAccess(const NodeInput& input) {
  CheckResults results;
  for (const probe::DeviceReport& report : input.probe.reports) {
    if (report.gpu.render_node.empty()) continue;
    const std::string path = DevPath(input, probe::RenderNodeForPath(report.gpu.render_node));
    std::error_code exists_error;
    if (!std::filesystem::exists(path, exists_error)) continue;  // render-nodes says so
    const int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd >= 0) {
      close(fd);
      results.push_back(Ok(kAccess, path + " opens for uid " + std::to_string(geteuid())));
      continue;
    }
    const int why = errno;
    std::string finding = "cannot open " + path + ": " + std::strerror(why);
    if (why == EACCES || why == EPERM) {
      results.push_back(Fail(kAccess, finding, AccessRemedy(path, input.cluster)));
    } else {
      results.push_back(Fail(kAccess, finding, "check the node with ls -l " + path));
    }
  }
  return results;
}

}  // namespace mc::dra
