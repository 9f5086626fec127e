// The doctor's checks as data. Each check has:
//  - its id;
//  - whether it looks at this node or at the cluster;
//  - the question it answers;
//  - what, in general, to do when it fails.
// The report prints its results in this order.
// `--output json` names them by these ids.
// docs/dra/doctor.md lists every one; a test holds the two together.
#pragma once

#include <span>
#include <string_view>

namespace mc::dra {

enum class Scope { kNode, kCluster };

struct CheckSpec {
  std::string_view id;
  Scope scope;
  // What the check looks at, as a question an operator asks.
  std::string_view question;
};

inline constexpr CheckSpec kChecks[] = {
    {"render-nodes", Scope::kNode, "Does /dev/dri hold a render node for each one sysfs lists?"},
    {"render-node-access", Scope::kNode, "May this user open each render node?"},
    {"va-driver", Scope::kNode,
     "Is there a VA driver for each GPU's kernel driver where libva looks, and which one does "
     "libva load?"},
    {"va-driver-version", Scope::kNode,
     "Did the VA driver answer, and is its version one that supports the kernel driver?"},
    {"huc-firmware", Scope::kNode,
     "Where an Intel driver lists low-power encode (EncSliceLP), is the HuC firmware loaded?"},
    {"nvidia-kernel-module", Scope::kNode, "Is NVIDIA's kernel module loaded, at which version?"},
    {"nvidia-libraries", Scope::kNode,
     "Are libcuda, libnvcuvid, libnvidia-encode and libnvidia-ml present, at the kernel "
     "module's version?"},
    {"nvidia-device-nodes", Scope::kNode,
     "Are /dev/nvidiactl, /dev/nvidia-uvm and /dev/nvidiaN present and openable?"},
    {"nvml", Scope::kNode, "Does NVML answer?"},
    {"nvidia-query", Scope::kNode, "Did CUDA, NVDEC and NVENC answer for each NVIDIA GPU?"},
    // The workers of a bare-metal box (src/cli/worker_command.h); none where no unit ran.
    {"kernel-log", Scope::kNode,
     "Can the workers' Xid check read the kernel log, under the units' user too?"},
    {"worker-units", Scope::kNode,
     "Does each unit media-worker@N run its worker, and in which state?"},
    {"peertube-server", Scope::kNode, "Does the PeerTube server the units name answer?"},
    {"peertube-runner", Scope::kNode, "Is the official runner the units start installed?"},
    {"resource-api", Scope::kCluster, "Does the API server serve resource.k8s.io/v1?"},
    {"consumable-capacity", Scope::kCluster,
     "Does the API server keep allowMultipleAllocations and a capacity's requestPolicy "
     "(the DRAConsumableCapacity feature gate)?"},
    {"media-slices", Scope::kCluster, "Does this node have its media.liken.sh ResourceSlice?"},
    {"liken-pci-bus-id", Scope::kCluster,
     "Do liken's render nodes on this node carry resource.kubernetes.io/pciBusID?"},
    {"pending-claims", Scope::kCluster,
     "Which ResourceClaims for media.liken.sh devices wait, and why does the scheduler say?"},
};

inline constexpr std::span<const CheckSpec> Checks() { return kChecks; }

// The position of `id` in the table, which is the report's order.
// The table's size for an id it does not hold.
std::size_t CheckOrder(std::string_view id);

}  // namespace mc::dra
