// The CUDA fake's whole state in one process, in one place:
//  - its contexts, each a client in the state directory;
//    each holds the video memory allocated in it;
//  - the current context of each thread;
//  - the allocations.
// Device memory is host memory: a CUdeviceptr is a host address.
// The fakes' copies and the NVENC fake read it directly.
#pragma once

#include <ffnvcodec/dynlink_cuda.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "fake_record.h"
#include "fakenv_state.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

namespace fakenv {

struct CudaContext {
  // The machine's index of the GPU the context is on (not CUDA's ordinal, which
  // CUDA_VISIBLE_DEVICES renumbers).
  int device = 0;
  std::unique_ptr<OwnedClient> client;
  std::size_t allocated_bytes = 0;
  // For the primary context: how many retains are outstanding.
  int retains = 0;
};

struct CudaDriver {
  std::mutex mutex;
  bool initialised = false;
  std::set<CudaContext*> contexts;
  // Each GPU's primary context, by the machine's index.
  std::map<int, CudaContext*> primary;
  // Each allocation's size and the context it was made in.
  std::map<CUdeviceptr, std::pair<std::size_t, CudaContext*>> allocations;
};

CudaDriver& Driver();

// A CUdevice is the machine's index of the GPU (fake_record.h's DeviceRecord); cuDeviceGet
// maps CUDA's ordinal to it through CUDA_VISIBLE_DEVICES. DeviceOf gives the GPU's record,
// or nullptr for a handle that names no visible GPU.
const Record* DeviceOf(CUdevice device);

// CurrentContext is the calling thread's current context, or null.
CudaContext* CurrentContext();

// AccountContextMemory rewrites a context's client record after an allocation changed.
void AccountContextMemory(CudaContext& context);

// The CUresult values nv-codec-headers does not name.
inline CUresult Result(int value) { return static_cast<CUresult>(value); }

}  // namespace fakenv
