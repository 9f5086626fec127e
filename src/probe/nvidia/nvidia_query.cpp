#include "probe/nvidia/nvidia_query.h"

#include <dlfcn.h>

#include "probe/gpu/pci_address.h"
#include "probe/nvidia/cuda_device.h"
#include "probe/nvidia/nvdec_caps.h"
#include "probe/nvidia/nvenc_query.h"
#include "probe/nvidia/nvidia_loader.h"
#include "probe/nvidia/nvml_driver_version.h"

namespace mc::probe {
namespace {

// The holders release what the query took, in reverse order, however it returns.
struct CudaLibrary {
  CudaFunctions* functions = nullptr;
  ~CudaLibrary() { cuda_free_functions(&functions); }
};
struct CuvidLibrary {
  CuvidFunctions* functions = nullptr;
  ~CuvidLibrary() { cuvid_free_functions(&functions); }
};
struct Context {
  const CudaFunctions& cuda;
  CUcontext context = nullptr;
  ~Context() {
    if (context) cuda.cuCtxDestroy(context);
  }
};

std::string LoadError(const std::string& library, const std::string& log) {
  const char* detail = dlerror();
  std::string text = log.empty() ? "cannot load " + library : log;
  if (detail) text += std::string(" (") + detail + ")";
  return text;
}

}  // namespace

Result<NvidiaFacts> QueryNvidiaDriver(const std::string& pci_address,
                                      const NvidiaQueryOptions& options) {
  const std::optional<std::string> address = NormalisePciAddress(pci_address);
  if (!address) return InvalidInput("\"" + pci_address + "\" is not a PCI address");

  std::string log;
  CudaLibrary cuda_library;
  if (cuda_load_functions(&cuda_library.functions, &log) != 0)
    return Unavailable(LoadError("libcuda.so.1", log));
  const CudaFunctions& cuda = *cuda_library.functions;
  if (CUresult result = cuda.cuInit(0); result != CUDA_SUCCESS)
    return Unavailable(CudaCallError(cuda, "cuInit", result));

  Result<CudaDevice> found = FindCudaDevice(cuda, *address);
  if (!found) return found.error();
  const CUdevice device = found->handle;
  NvidiaFacts facts;
  facts.pci_address = *address;
  facts.cuda_ordinal = found->ordinal;
  if (Result<void> described = DescribeCudaDevice(cuda, device, facts); !described) {
    return described.error();
  }

  Context context{cuda};
  if (CUresult result = cuda.cuCtxCreate(&context.context, 0, device); result != CUDA_SUCCESS) {
    context.context = nullptr;
    return Error{CudaCallError(cuda, "cuCtxCreate", result)};
  }
  facts.cuda_context = true;

  CuvidLibrary cuvid_library;
  log.clear();
  if (cuvid_load_functions(&cuvid_library.functions, &log) != 0)
    return Unavailable(LoadError("libnvcuvid.so.1", log));
  Result<std::vector<NvDecoderCaps>> decoders = QueryDecoderCaps(cuda, *cuvid_library.functions);
  if (!decoders) return decoders.error();
  facts.decoders = std::move(decoders).value();

  facts.encoder = QueryEncoder(context.context);
  if (options.measure_sessions) facts.sessions = CountEncodeSessions(context.context);

  if (Result<std::string> version = NvmlDriverVersion()) {
    facts.driver_version = *version;
  } else {
    facts.warnings.push_back("the driver version is unknown: " + version.error_message());
  }
  return facts;
}

}  // namespace mc::probe
