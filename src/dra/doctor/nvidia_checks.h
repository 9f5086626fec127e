// The checks of an NVIDIA node: the kernel module and its version (nvidia-kernel-module), the
// user-space libraries the project loads and their versions against the module's
// (nvidia-libraries), the device nodes CUDA opens (nvidia-device-nodes), NVML (nvml), and
// the project's own CUDA, NVDEC and NVENC query of each GPU (nvidia-query). On a node with
// no NVIDIA GPU and no NVIDIA module they give nothing.
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

// HasNvidia says whether the NVIDIA checks apply: an NVIDIA GPU on the PCI bus, or NVIDIA's
// kernel module loaded.
bool HasNvidia(const NodeInput& input);

CheckResults CheckNvidiaKernelModule(const NodeInput& input);
CheckResults CheckNvidiaLibraries(const NodeInput& input);
CheckResults CheckNvidiaDeviceNodes(const NodeInput& input);
CheckResults CheckNvml(const NodeInput& input);
CheckResults CheckNvidiaQueries(const NodeInput& input);

}  // namespace mc::dra
