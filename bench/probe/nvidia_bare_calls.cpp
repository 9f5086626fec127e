// nvidia_bare_calls ADDRESS [--verbose]: the baseline of bench/nvidia_query_vs_bare. It
// makes only the driver calls that `media-capabilities query-nvidia ADDRESS` makes, in the
// same order, with nothing else: no command line parser, no child process, no JSON, no
// product code. NVIDIA's libraries come through the same nv-codec-headers loader (and NVML
// through dlopen), so the two differ only by what the product adds around the calls.
//
// With --verbose it prints every call's result and its time, which is how
// docs/measurements/nvidia-h200-probe.md records what the H200's driver said, call by call.
#include <dlfcn.h>
#include <ffnvcodec/dynlink_loader.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

bool verbose = false;
Clock::time_point last;

void Report(const char* call, long result, const std::string& detail = {}) {
  const Clock::time_point now = Clock::now();
  if (verbose) {
    std::printf("%9.3f ms  %-40s -> %ld%s%s\n",
                std::chrono::duration<double, std::milli>(now - last).count(), call, result,
                detail.empty() ? "" : "  ", detail.c_str());
  }
  last = Clock::now();
}

std::string GuidText(const GUID& g) {
  char b[40];
  std::snprintf(b, sizeof b, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
                static_cast<unsigned>(g.Data1), g.Data2, g.Data3, g.Data4[0], g.Data4[1],
                g.Data4[2], g.Data4[3], g.Data4[4], g.Data4[5], g.Data4[6], g.Data4[7]);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: nvidia_bare_calls ADDRESS [--verbose]\n");
    return 2;
  }
  unsigned want_domain = 0, want_bus = 0, want_device = 0, want_function = 0;
  std::sscanf(argv[1], "%x:%x:%x.%x", &want_domain, &want_bus, &want_device, &want_function);
  verbose = argc > 2 && std::strcmp(argv[2], "--verbose") == 0;
  const Clock::time_point start = Clock::now();
  last = start;

  CudaFunctions* cu = nullptr;
  if (cuda_load_functions(&cu, nullptr) != 0) return 1;
  Report("cuda_load_functions", 0);
  CUresult r = cu->cuInit(0);
  Report("cuInit", r);
  if (r != CUDA_SUCCESS) return 1;
  int count = 0;
  r = cu->cuDeviceGetCount(&count);
  Report("cuDeviceGetCount", r, "count=" + std::to_string(count));
  CUdevice device = -1;
  for (int i = 0; i < count; ++i) {
    CUdevice d = 0;
    cu->cuDeviceGet(&d, i);
    int domain = 0, bus = 0, slot = 0;
    cu->cuDeviceGetAttribute(&domain, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d);
    cu->cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d);
    cu->cuDeviceGetAttribute(&slot, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d);
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x", domain, bus, slot);
    Report("cuDeviceGet+GetAttribute(PCI)", 0, text);
    if (static_cast<unsigned>(domain) == want_domain && static_cast<unsigned>(bus) == want_bus &&
        static_cast<unsigned>(slot) == want_device) {
      device = d;
    }
  }
  if (device < 0) return 1;
  char name[256] = {};
  r = cu->cuDeviceGetName(name, sizeof name - 1, device);
  Report("cuDeviceGetName", r, name);
  int major = 0, minor = 0;
  r = cu->cuDeviceComputeCapability(&major, &minor, device);
  Report("cuDeviceComputeCapability", r, std::to_string(major) + "." + std::to_string(minor));
  using GetVersion = CUresult (*)(int*);
  int cuda_version = 0;
  r = reinterpret_cast<GetVersion>(dlsym(cu->lib, "cuDriverGetVersion"))(&cuda_version);
  Report("cuDriverGetVersion", r, std::to_string(cuda_version));
  CUcontext context = nullptr;
  r = cu->cuCtxCreate(&context, 0, device);
  Report("cuCtxCreate", r);
  if (r != CUDA_SUCCESS) return 1;

  CuvidFunctions* cuvid = nullptr;
  if (cuvid_load_functions(&cuvid, nullptr) != 0) return 1;
  Report("cuvid_load_functions", 0);
  const struct {
    cudaVideoCodec codec;
    int depth;
    const char* label;
  } questions[] = {{cudaVideoCodec_H264, 8, "H264 8"},   {cudaVideoCodec_HEVC, 8, "HEVC 8"},
                   {cudaVideoCodec_HEVC, 10, "HEVC 10"}, {cudaVideoCodec_AV1, 8, "AV1 8"},
                   {cudaVideoCodec_AV1, 10, "AV1 10"},   {cudaVideoCodec_VP9, 8, "VP9 8"},
                   {cudaVideoCodec_VP9, 10, "VP9 10"},   {cudaVideoCodec_VP8, 8, "VP8 8"},
                   {cudaVideoCodec_VC1, 8, "VC1 8"},     {cudaVideoCodec_MPEG2, 8, "MPEG2 8"}};
  for (const auto& q : questions) {
    CUVIDDECODECAPS caps{};
    caps.eCodecType = q.codec;
    caps.eChromaFormat = cudaVideoChromaFormat_420;
    caps.nBitDepthMinus8 = static_cast<unsigned>(q.depth - 8);
    r = cuvid->cuvidGetDecoderCaps(&caps);
    char text[160];
    std::snprintf(text, sizeof text,
                  "%s 4:2:0: supported=%d nvdecs=%d max=%ux%u mask=0x%x min=%ux%u mbs=%u", q.label,
                  caps.bIsSupported, caps.nNumNVDECs, caps.nMaxWidth, caps.nMaxHeight,
                  caps.nOutputFormatMask, caps.nMinWidth, caps.nMinHeight, caps.nMaxMBCount);
    Report("cuvidGetDecoderCaps", r, text);
  }

  NvencFunctions* nvenc = nullptr;
  if (nvenc_load_functions(&nvenc, nullptr) != 0) {
    Report("nvenc_load_functions", -1, dlerror() ? "" : "");
  } else {
    Report("nvenc_load_functions", 0);
    uint32_t max = 0;
    NVENCSTATUS s = nvenc->NvEncodeAPIGetMaxSupportedVersion(&max);
    Report("NvEncodeAPIGetMaxSupportedVersion", s,
           std::to_string(max >> 4) + "." + std::to_string(max & 0xF));
    const uint32_t api =
        (max >> 4) >= 12 ? 12u : (NVENCAPI_MAJOR_VERSION | (NVENCAPI_MINOR_VERSION << 24));
    auto sv = [&](uint32_t v) { return api | (v << 16) | (0x7u << 28); };
    NV_ENCODE_API_FUNCTION_LIST list{};
    list.version = sv(2);
    s = nvenc->NvEncodeAPICreateInstance(&list);
    Report("NvEncodeAPICreateInstance", s);
    NV_ENC_OPEN_ENCODE_SESSION_EX_PARAMS params{};
    params.version = sv(1);
    params.deviceType = NV_ENC_DEVICE_TYPE_CUDA;
    params.device = context;
    params.apiVersion = api;
    void* encoder = nullptr;
    s = list.nvEncOpenEncodeSessionEx(&params, &encoder);
    Report("NvEncOpenEncodeSessionEx", s);
    if (s == NV_ENC_SUCCESS) {
      uint32_t n = 0;
      list.nvEncGetEncodeGUIDCount(encoder, &n);
      std::vector<GUID> guids(n);
      list.nvEncGetEncodeGUIDs(encoder, guids.data(), n, &n);
      Report("NvEncGetEncodeGUIDs", 0, std::to_string(n) + " codecs");
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t p = 0;
        list.nvEncGetEncodeProfileGUIDCount(encoder, guids[i], &p);
        std::vector<GUID> profiles(p);
        list.nvEncGetEncodeProfileGUIDs(encoder, guids[i], profiles.data(), p, &p);
        std::string text = GuidText(guids[i]) + " profiles:";
        for (uint32_t k = 0; k < p; ++k) text += " " + GuidText(profiles[k]);
        for (NV_ENC_CAPS cap :
             {NV_ENC_CAPS_SUPPORT_10BIT_ENCODE, NV_ENC_CAPS_WIDTH_MAX, NV_ENC_CAPS_HEIGHT_MAX}) {
          NV_ENC_CAPS_PARAM param{};
          param.version = sv(1);
          param.capsToQuery = cap;
          int value = 0;
          list.nvEncGetEncodeCaps(encoder, guids[i], &param, &value);
          text += " cap" + std::to_string(static_cast<int>(cap)) + "=" + std::to_string(value);
        }
        Report("NvEncGetEncodeProfileGUIDs+Caps", 0, text);
      }
      list.nvEncDestroyEncoder(encoder);
      Report("NvEncDestroyEncoder", 0);
    }
    nvenc_free_functions(&nvenc);
  }

  void* nvml = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (nvml) {
    using Init = int (*)();
    using Version = int (*)(char*, unsigned);
    char version[80] = {};
    int n = reinterpret_cast<Init>(dlsym(nvml, "nvmlInit_v2"))();
    Report("nvmlInit_v2", n);
    n = reinterpret_cast<Version>(dlsym(nvml, "nvmlSystemGetDriverVersion"))(version,
                                                                             sizeof version);
    Report("nvmlSystemGetDriverVersion", n, version);
    reinterpret_cast<Init>(dlsym(nvml, "nvmlShutdown"))();
    Report("nvmlShutdown", 0);
    dlclose(nvml);
  }
  cu->cuCtxDestroy(context);
  Report("cuCtxDestroy", 0);
  cuvid_free_functions(&cuvid);
  cuda_free_functions(&cu);
  if (verbose) {
    std::printf("total %.3f ms\n",
                std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  return 0;
}
