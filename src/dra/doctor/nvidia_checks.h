// The checks of an NVIDIA node:
//  - nvidia-kernel-module: the kernel module and its version;
//  - nvidia-libraries: the libraries the project loads, their versions against the module's;
//  - nvidia-device-nodes: the device nodes CUDA opens;
//  - nvml: NVML;
//  - nvidia-query: the project's CUDA, NVDEC and NVENC query of each GPU.
// On a node with no NVIDIA GPU and no NVIDIA module they give nothing.
#pragma once

#include "dra/doctor/check_result.h"
#include "dra/doctor/node_input.h"

namespace mc::dra {

// HasNvidia says whether the NVIDIA checks apply.
// They do with an NVIDIA GPU on the PCI bus, or NVIDIA's kernel module loaded.
bool HasNvidia(const NodeInput& input);

CheckResults CheckNvidiaKernelModule(const NodeInput& input);
CheckResults CheckNvidiaLibraries(const NodeInput& input);
CheckResults CheckNvidiaDeviceNodes(const NodeInput& input);
CheckResults CheckNvml(const NodeInput& input);
CheckResults CheckNvidiaQueries(const NodeInput& input);

}  // namespace mc::dra
