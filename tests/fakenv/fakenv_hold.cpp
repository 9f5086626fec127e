// fakenv_hold ORDINAL MIB: another tenant of a GPU. It:
//  - makes a CUDA context on CUDA's device ORDINAL;
//  - allocates MIB MiB of device memory in it;
//  - says so on stderr: "fakenv_hold: holding MIB MiB on CUDA device ORDINAL";
//  - holds it until a signal ends it.
// It uses whatever libcuda.so.1 the dynamic loader finds; run-on puts the fake first.
// The tests use it to take a GPU's memory from its worker.
// Another process on a shared box does the same.
#include <dlfcn.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using CuInit = int (*)(unsigned);
using CuDeviceGet = int (*)(int*, int);
using CuCtxCreate = int (*)(void**, unsigned, int);
using CuMemAlloc = int (*)(unsigned long long*, std::size_t);

// The allocation is made in pieces, so that no single one asks the host for all of it.
constexpr std::size_t kPieceMiB = 256;

template <typename Function>
Function Bind(void* library, const char* name) {
  void* symbol = dlsym(library, name);
  if (!symbol) {
    std::fprintf(stderr, "fakenv_hold: libcuda.so.1 has no %s\n", name);
    std::exit(1);
  }
  return reinterpret_cast<Function>(symbol);
}

void Check(int result, const char* call) {
  if (result == 0) return;
  std::fprintf(stderr, "fakenv_hold: %s failed: CUresult %d\n", call, result);
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fakenv_hold ORDINAL MIB\n");
    return 2;
  }
  const int ordinal = std::atoi(argv[1]);
  const std::size_t mib = std::strtoull(argv[2], nullptr, 10);
  void* library = dlopen("libcuda.so.1", RTLD_NOW);
  if (!library) {
    std::fprintf(stderr, "fakenv_hold: cannot load libcuda.so.1: %s\n", dlerror());
    return 1;
  }
  Check(Bind<CuInit>(library, "cuInit")(0), "cuInit");
  int device = 0;
  Check(Bind<CuDeviceGet>(library, "cuDeviceGet")(&device, ordinal), "cuDeviceGet");
  void* context = nullptr;
  Check(Bind<CuCtxCreate>(library, "cuCtxCreate_v2")(&context, 0, device), "cuCtxCreate_v2");
  const auto allocate = Bind<CuMemAlloc>(library, "cuMemAlloc_v2");
  for (std::size_t held = 0; held < mib; held += kPieceMiB) {
    unsigned long long pointer = 0;
    const std::size_t piece = (mib - held < kPieceMiB ? mib - held : kPieceMiB) << 20;
    Check(allocate(&pointer, piece), "cuMemAlloc_v2");
  }
  std::fprintf(stderr, "fakenv_hold: holding %zu MiB on CUDA device %d\n", mib, ordinal);
  for (;;) pause();
}
