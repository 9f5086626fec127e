// The CUDA fake's contexts, streams and events.
// A context is current per thread, as CUDA's are.
// Streams and events exist only as handles.
// Every copy the fake does is finished when the call returns.
#include <cstdlib>
#include <vector>

#include "cuda_driver.h"
#include "fake_record.h"
#include "fake_results.h"
#include "nvml_views.h"

namespace fakenv {
namespace {

// What a context holds in video memory before any allocation, modelled on what a CUDA
// context takes on a current GPU.
constexpr std::size_t kContextBaseBytes = 256u << 20;

std::vector<CudaContext*>& ContextStack() {
  thread_local std::vector<CudaContext*> stack;
  return stack;
}

bool IsContext(CUcontext context) {
  return Driver().contexts.count(reinterpret_cast<CudaContext*>(context)) != 0;
}

// NewContext makes a context on GPU `device`, which holds video memory on that GPU alone. A
// GPU whose memory other clients hold (in any process) has no room for one, and CUDA answers
// CUDA_ERROR_OUT_OF_MEMORY, as the real driver does.
CUresult NewContext(CUdevice device, CudaContext** made) {
  const std::string dir = DeviceStateDir(device);
  if (UsedVideoMemory(LiveClients(dir)) + kContextBaseBytes >
      VideoMemoryBytes(*DeviceRecord(device)))
    return Result(kCudaErrorOutOfMemory);
  ClientRecord record;
  record.kind = ClientKind::kContext;
  record.vram_bytes = kContextBaseBytes;
  bool limited = false;
  std::string error;
  std::unique_ptr<OwnedClient> client =
      OwnedClient::Register(dir, record, std::nullopt, &limited, &error);
  if (!client) return Result(kCudaErrorUnknown);
  *made = new CudaContext{device, std::move(client)};
  Driver().contexts.insert(*made);
  return CUDA_SUCCESS;
}

void DeleteContext(CudaContext* context) {
  Driver().contexts.erase(context);
  std::erase(ContextStack(), context);
  std::erase_if(Driver().allocations, [&](const auto& entry) {
    if (entry.second.second != context) return false;
    std::free(reinterpret_cast<void*>(entry.first));
    return true;
  });
  std::erase_if(Driver().primary, [&](const auto& entry) { return entry.second == context; });
  delete context;
}

}  // namespace

CudaDriver& Driver() {
  static CudaDriver driver;
  return driver;
}

CudaContext* CurrentContext() { return ContextStack().empty() ? nullptr : ContextStack().back(); }

void AccountContextMemory(CudaContext& context) {
  ClientRecord record = context.client->record();
  record.vram_bytes = kContextBaseBytes + context.allocated_bytes;
  context.client->Update(record);
}

}  // namespace fakenv

using fakenv::Driver;
using fakenv::Result;

FAKENV_EXPORT CUresult cuCtxCreate_v2(CUcontext* context, unsigned int, CUdevice device) {
  const fakenv::Record* record = fakenv::DeviceOf(device);
  if (!record) return Result(fakenv::kCudaErrorInvalidDevice);
  // A record whose context failed (a WSL2 box whose GPU memory another tenant held) fails
  // here the way that box did.
  if (!record->report->cuda_context) return Result(fakenv::kCudaErrorOutOfMemory);
  std::lock_guard<std::mutex> lock(Driver().mutex);
  fakenv::CudaContext* created = nullptr;
  if (CUresult made = fakenv::NewContext(device, &created); made != CUDA_SUCCESS) return made;
  // A new context is current on the calling thread, as cuCtxCreate makes it.
  fakenv::ContextStack().push_back(created);
  *context = reinterpret_cast<CUcontext>(created);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuCtxDestroy_v2(CUcontext context) {
  std::lock_guard<std::mutex> lock(Driver().mutex);
  if (!fakenv::IsContext(context)) return Result(fakenv::kCudaErrorInvalidContext);
  fakenv::DeleteContext(reinterpret_cast<fakenv::CudaContext*>(context));
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuCtxPushCurrent_v2(CUcontext context) {
  std::lock_guard<std::mutex> lock(Driver().mutex);
  if (!fakenv::IsContext(context)) return Result(fakenv::kCudaErrorInvalidContext);
  fakenv::ContextStack().push_back(reinterpret_cast<fakenv::CudaContext*>(context));
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuCtxPopCurrent_v2(CUcontext* context) {
  std::vector<fakenv::CudaContext*>& stack = fakenv::ContextStack();
  if (stack.empty()) return Result(fakenv::kCudaErrorInvalidContext);
  if (context) *context = reinterpret_cast<CUcontext>(stack.back());
  stack.pop_back();
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuCtxGetDevice(CUdevice* device) {
  const fakenv::CudaContext* current = fakenv::CurrentContext();
  if (!current) return Result(fakenv::kCudaErrorInvalidContext);
  *device = current->device;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuCtxSetLimit(CUlimit, size_t) { return CUDA_SUCCESS; }

FAKENV_EXPORT CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
  const fakenv::Record* record = fakenv::DeviceOf(device);
  if (!record) return Result(fakenv::kCudaErrorInvalidDevice);
  if (!record->report->cuda_context) return Result(fakenv::kCudaErrorOutOfMemory);
  std::lock_guard<std::mutex> lock(Driver().mutex);
  fakenv::CudaContext*& primary = Driver().primary[device];
  if (!primary) {
    if (CUresult made = fakenv::NewContext(device, &primary); made != CUDA_SUCCESS) {
      Driver().primary.erase(device);
      return made;
    }
  }
  ++primary->retains;
  *context = reinterpret_cast<CUcontext>(primary);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
  if (!fakenv::DeviceOf(device)) return Result(fakenv::kCudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lock(Driver().mutex);
  const auto found = Driver().primary.find(device);
  if (found == Driver().primary.end()) return Result(fakenv::kCudaErrorInvalidContext);
  if (--found->second->retains == 0) fakenv::DeleteContext(found->second);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDevicePrimaryCtxSetFlags(CUdevice device, unsigned int) {
  return fakenv::DeviceOf(device) ? CUDA_SUCCESS : Result(fakenv::kCudaErrorInvalidDevice);
}

FAKENV_EXPORT CUresult cuDevicePrimaryCtxGetState(CUdevice device, unsigned int* flags,
                                                  int* active) {
  if (!fakenv::DeviceOf(device)) return Result(fakenv::kCudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lock(Driver().mutex);
  if (flags) *flags = 0;
  if (active) *active = Driver().primary.count(device) ? 1 : 0;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuDevicePrimaryCtxReset(CUdevice device) {
  if (!fakenv::DeviceOf(device)) return Result(fakenv::kCudaErrorInvalidDevice);
  std::lock_guard<std::mutex> lock(Driver().mutex);
  const auto found = Driver().primary.find(device);
  if (found != Driver().primary.end()) fakenv::DeleteContext(found->second);
  return CUDA_SUCCESS;
}

namespace {
// Streams and events are distinct addresses that nothing dereferences.
char stream_token;
char event_token;
}  // namespace

FAKENV_EXPORT CUresult cuStreamCreate(CUstream* stream, unsigned int) {
  *stream = reinterpret_cast<CUstream>(&stream_token);
  return CUDA_SUCCESS;
}
FAKENV_EXPORT CUresult cuStreamQuery(CUstream) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuStreamAddCallback(CUstream stream, CUstreamCallback* callback, void* data,
                                           unsigned int) {
  // Everything queued on the stream is done already, so the callback runs now.
  callback(stream, CUDA_SUCCESS, data);
  return CUDA_SUCCESS;
}
FAKENV_EXPORT CUresult cuEventCreate(CUevent* event, unsigned int) {
  *event = reinterpret_cast<CUevent>(&event_token);
  return CUDA_SUCCESS;
}
FAKENV_EXPORT CUresult cuEventDestroy_v2(CUevent) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuEventQuery(CUevent) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
