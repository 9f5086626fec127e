// The fake of libnvcuvid.so.1.
//
// cuvidGetDecoderCaps answers from the record of the current CUDA context's GPU.
// It reads that record's decoders.
// A question the record does not hold is "not supported".
// A driver answers so for a codec its silicon lacks.
//
// The parser (cuvid_parser.h) has an engine process decode the stream.
// A decoder is the set of NV12 output surfaces the parser's pictures land in.
// cuvidMapVideoFrame hands them out as device memory.
//
// A decoder asked for outside the fake's own parser is refused.
// That is libavcodec's NVDEC hwaccel, which parses the stream itself.
// So ffmpeg's `-hwaccel cuda` falls back to decoding on the CPU.
// A parser works on the GPU of the context current when it is made.
// NVIDIA's decoder likewise works on its context's GPU.
#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/dynlink_cuviddec.h>
#include <ffnvcodec/dynlink_nvcuvid.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cuda_client.h"
#include "cuvid_parser.h"
#include "fake_record.h"
#include "fake_results.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

constexpr std::uint32_t kSurfacePitchAlignment = 512;

// A decoder's output surfaces, each NV12.
// The luma rows at `pitch` come first, then the chroma rows.
struct Decoder {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t pitch = 0;
  std::vector<std::vector<std::byte>> surfaces;
};

// The decoder fake's state in this process, all of it.
struct CuvidDriver {
  std::mutex mutex;
  std::map<void*, std::unique_ptr<fakenv::VideoParser>> parsers;
  std::map<void*, std::unique_ptr<Decoder>> decoders;
};

CuvidDriver& Driver() {
  static CuvidDriver driver;
  return driver;
}

CUresult Fail(int result) { return static_cast<CUresult>(result); }

template <typename T>
T* Find(std::map<void*, std::unique_ptr<T>>& map, void* handle) {
  std::lock_guard<std::mutex> lock(Driver().mutex);
  auto found = map.find(handle);
  return found == map.end() ? nullptr : found->second.get();
}

}  // namespace

FAKENV_EXPORT CUresult cuvidGetDecoderCaps(CUVIDDECODECAPS* caps) {
  const std::optional<int> device = fakenv::CurrentDevice();
  if (!device) return Fail(fakenv::kCudaErrorInvalidContext);
  const fakenv::Record* gpu = fakenv::DeviceRecord(*device);
  if (!gpu || !gpu->report) return Fail(fakenv::kCudaErrorInvalidContext);
  const fakenv::Record& record = *gpu;
  if (record.replay.decoder_caps_result)
    return static_cast<CUresult>(*record.replay.decoder_caps_result);
  caps->bIsSupported = 0;
  caps->nNumNVDECs = 0;
  caps->nOutputFormatMask = 0;
  caps->nMaxWidth = 0;
  caps->nMaxHeight = 0;
  caps->nMaxMBCount = 0;
  caps->nMinWidth = 0;
  caps->nMinHeight = 0;
  for (const mc::probe::NvDecoderCaps& answer : record.report->decoders) {
    if (answer.codec != static_cast<int>(caps->eCodecType) ||
        answer.chroma != static_cast<int>(caps->eChromaFormat) ||
        answer.bit_depth != static_cast<int>(caps->nBitDepthMinus8) + 8) {
      continue;
    }
    caps->bIsSupported = answer.supported ? 1 : 0;
    caps->nNumNVDECs = static_cast<unsigned char>(answer.engines);
    caps->nOutputFormatMask = static_cast<unsigned short>(answer.output_formats);
    caps->nMaxWidth = answer.max_width;
    caps->nMaxHeight = answer.max_height;
    // NVDEC's smallest picture, and the macroblock count of the largest.
    // NVIDIA's driver states them with every supported answer.
    if (answer.supported) {
      caps->nMinWidth = 48;
      caps->nMinHeight = 16;
      caps->nMaxMBCount = (answer.max_width / 16) * (answer.max_height / 16);
    }
    break;
  }
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidCreateVideoParser(CUvideoparser* parser, CUVIDPARSERPARAMS* params) {
  if (!parser || !params) return Fail(fakenv::kCudaErrorInvalidValue);
  const std::optional<int> device = fakenv::CurrentDevice();
  if (!device) return Fail(fakenv::kCudaErrorInvalidContext);
  CUresult result = CUDA_SUCCESS;
  std::unique_ptr<fakenv::VideoParser> created =
      fakenv::VideoParser::Create(*params, *device, &result);
  if (!created) return result;
  std::lock_guard<std::mutex> lock(Driver().mutex);
  *parser = reinterpret_cast<CUvideoparser>(created.get());
  Driver().parsers.emplace(created.get(), std::move(created));
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidParseVideoData(CUvideoparser parser, CUVIDSOURCEDATAPACKET* packet) {
  fakenv::VideoParser* found = Find(Driver().parsers, parser);
  if (!found || !packet) return Fail(fakenv::kCudaErrorInvalidValue);
  return found->Parse(*packet);
}

FAKENV_EXPORT CUresult cuvidDestroyVideoParser(CUvideoparser parser) {
  std::unique_ptr<fakenv::VideoParser> destroyed;
  std::lock_guard<std::mutex> lock(Driver().mutex);
  auto found = Driver().parsers.find(parser);
  if (found == Driver().parsers.end()) return Fail(fakenv::kCudaErrorInvalidValue);
  destroyed = std::move(found->second);
  Driver().parsers.erase(found);
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidCreateDecoder(CUvideodecoder* decoder, CUVIDDECODECREATEINFO* info) {
  if (!decoder || !info) return Fail(fakenv::kCudaErrorInvalidValue);
  if (!fakenv::CurrentHandoff().in_sequence_callback) return Fail(fakenv::kCudaErrorNotSupported);
  if (info->OutputFormat != cudaVideoSurfaceFormat_NV12 || info->bitDepthMinus8 != 0 ||
      info->ulNumDecodeSurfaces == 0 || info->ulNumDecodeSurfaces > 64) {
    return Fail(fakenv::kCudaErrorNotSupported);
  }
  auto created = std::make_unique<Decoder>();
  created->width = static_cast<std::uint32_t>(info->ulTargetWidth);
  created->height = static_cast<std::uint32_t>(info->ulTargetHeight);
  created->pitch = (created->width + kSurfacePitchAlignment - 1) / kSurfacePitchAlignment *
                   kSurfacePitchAlignment;
  const std::size_t bytes =
      static_cast<std::size_t>(created->pitch) * (created->height + (created->height + 1) / 2);
  created->surfaces.assign(info->ulNumDecodeSurfaces, std::vector<std::byte>(bytes));
  std::lock_guard<std::mutex> lock(Driver().mutex);
  *decoder = reinterpret_cast<CUvideodecoder>(created.get());
  Driver().decoders.emplace(created.get(), std::move(created));
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidDestroyDecoder(CUvideodecoder decoder) {
  std::lock_guard<std::mutex> lock(Driver().mutex);
  return Driver().decoders.erase(decoder) ? CUDA_SUCCESS : Fail(fakenv::kCudaErrorInvalidValue);
}

// cuvidDecodePicture puts the parser's picture into the surface the client chose.
// The engine decoded it already.
FAKENV_EXPORT CUresult cuvidDecodePicture(CUvideodecoder decoder, CUVIDPICPARAMS* params) {
  Decoder* found = Find(Driver().decoders, decoder);
  const fakenv::Handoff& handoff = fakenv::CurrentHandoff();
  if (!found || !params || params->CurrPicIdx < 0 ||
      params->CurrPicIdx >= static_cast<int>(found->surfaces.size())) {
    return Fail(fakenv::kCudaErrorInvalidValue);
  }
  if (!handoff.unit) return Fail(fakenv::kCudaErrorNotSupported);
  std::vector<std::byte>& surface = found->surfaces[static_cast<std::size_t>(params->CurrPicIdx)];
  const fakenv::wire::UnitHeader& unit = *handoff.unit;
  const std::uint32_t rows = std::min(unit.height, found->height);
  const std::uint32_t width = std::min(unit.width, found->width);
  for (std::uint32_t row = 0; row < rows; ++row) {
    std::memcpy(surface.data() + row * found->pitch, handoff.nv12 + row * unit.pitch, width);
  }
  const std::byte* chroma = handoff.nv12 + static_cast<std::size_t>(unit.pitch) * unit.height;
  std::byte* surface_chroma =
      surface.data() + static_cast<std::size_t>(found->pitch) * found->height;
  for (std::uint32_t row = 0; row < (rows + 1) / 2; ++row) {
    std::memcpy(surface_chroma + row * found->pitch, chroma + row * unit.pitch, (width + 1) & ~1u);
  }
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidGetDecodeStatus(CUvideodecoder decoder, int,
                                            CUVIDGETDECODESTATUS* status) {
  if (!Find(Driver().decoders, decoder) || !status) return Fail(fakenv::kCudaErrorInvalidValue);
  std::memset(status, 0, sizeof *status);
  status->decodeStatus = cuvidDecodeStatus_Success;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidMapVideoFrame64(CUvideodecoder decoder, int index,
                                            unsigned long long* pointer, unsigned int* pitch,
                                            CUVIDPROCPARAMS*) {
  Decoder* found = Find(Driver().decoders, decoder);
  if (!found || !pointer || !pitch || index < 0 ||
      index >= static_cast<int>(found->surfaces.size())) {
    return Fail(fakenv::kCudaErrorInvalidValue);
  }
  *pointer =
      reinterpret_cast<unsigned long long>(found->surfaces[static_cast<std::size_t>(index)].data());
  *pitch = found->pitch;
  return CUDA_SUCCESS;
}

FAKENV_EXPORT CUresult cuvidUnmapVideoFrame64(CUvideodecoder decoder, unsigned long long) {
  return Find(Driver().decoders, decoder) ? CUDA_SUCCESS : Fail(fakenv::kCudaErrorInvalidValue);
}

FAKENV_EXPORT CUresult cuvidMapVideoFrame(CUvideodecoder decoder, int index, unsigned int* pointer,
                                          unsigned int* pitch, CUVIDPROCPARAMS* params) {
  // The 32-bit form cannot carry a 64-bit host address.
  (void)decoder, (void)index, (void)pointer, (void)pitch, (void)params;
  return Fail(fakenv::kCudaErrorNotSupported);
}

FAKENV_EXPORT CUresult cuvidUnmapVideoFrame(CUvideodecoder, unsigned int) {
  return Fail(fakenv::kCudaErrorNotSupported);
}

// Context locks guard a context shared between threads.
// The fake's calls are safe without them.
FAKENV_EXPORT CUresult cuvidCtxLockCreate(CUvideoctxlock* lock, CUcontext) {
  static char lock_token;
  *lock = reinterpret_cast<CUvideoctxlock>(&lock_token);
  return CUDA_SUCCESS;
}
FAKENV_EXPORT CUresult cuvidCtxLockDestroy(CUvideoctxlock) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuvidCtxLock(CUvideoctxlock, unsigned int) { return CUDA_SUCCESS; }
FAKENV_EXPORT CUresult cuvidCtxUnlock(CUvideoctxlock, unsigned int) { return CUDA_SUCCESS; }

#define FAKENV_UNSUPPORTED(name) \
  FAKENV_EXPORT int name() { return fakenv::kCudaErrorNotSupported; }
FAKENV_UNSUPPORTED(cuvidReconfigureDecoder)
FAKENV_UNSUPPORTED(cuvidCreateVideoSource)
FAKENV_UNSUPPORTED(cuvidCreateVideoSourceW)
FAKENV_UNSUPPORTED(cuvidDestroyVideoSource)
FAKENV_UNSUPPORTED(cuvidSetVideoSourceState)
FAKENV_UNSUPPORTED(cuvidGetVideoSourceState)
FAKENV_UNSUPPORTED(cuvidGetSourceVideoFormat)
FAKENV_UNSUPPORTED(cuvidGetSourceAudioFormat)
