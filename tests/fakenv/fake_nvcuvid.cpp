// The stand-in for libnvcuvid.so.1: cuvidGetDecoderCaps answers each question from the
// record's decoders, a question the record does not hold as "not supported" (as a driver
// answers for a codec its silicon lacks), and every other entry point the loader requires
// says CUDA_ERROR_NOT_SUPPORTED.
#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/dynlink_cuviddec.h>

#include "fake_record.h"
#include "fake_results.h"

#define FAKENV_EXPORT extern "C" __attribute__((visibility("default")))

FAKENV_EXPORT CUresult cuvidGetDecoderCaps(CUVIDDECODECAPS* caps) {
  const fakenv::Record& record = fakenv::CurrentRecord();
  if (record.replay.decoder_caps_result) return static_cast<CUresult>(*record.replay.decoder_caps_result);
  caps->bIsSupported = 0;
  caps->nNumNVDECs = 0;
  caps->nOutputFormatMask = 0;
  caps->nMaxWidth = 0;
  caps->nMaxHeight = 0;
  for (const mc::NvDecoderCaps& answer : record.report->decoders) {
    if (answer.codec != static_cast<int>(caps->eCodecType) || answer.chroma != static_cast<int>(caps->eChromaFormat) ||
        answer.bit_depth != static_cast<int>(caps->nBitDepthMinus8) + 8) {
      continue;
    }
    caps->bIsSupported = answer.supported ? 1 : 0;
    caps->nNumNVDECs = static_cast<unsigned char>(answer.engines);
    caps->nOutputFormatMask = static_cast<unsigned short>(answer.output_formats);
    caps->nMaxWidth = answer.max_width;
    caps->nMaxHeight = answer.max_height;
    break;
  }
  return CUDA_SUCCESS;
}

#define FAKENV_UNSUPPORTED(name) \
  FAKENV_EXPORT int name() { return fakenv::kCudaErrorNotSupported; }
FAKENV_UNSUPPORTED(cuvidCreateDecoder)
FAKENV_UNSUPPORTED(cuvidDestroyDecoder)
FAKENV_UNSUPPORTED(cuvidDecodePicture)
FAKENV_UNSUPPORTED(cuvidGetDecodeStatus)
FAKENV_UNSUPPORTED(cuvidReconfigureDecoder)
FAKENV_UNSUPPORTED(cuvidMapVideoFrame64)
FAKENV_UNSUPPORTED(cuvidUnmapVideoFrame64)
FAKENV_UNSUPPORTED(cuvidMapVideoFrame)
FAKENV_UNSUPPORTED(cuvidUnmapVideoFrame)
FAKENV_UNSUPPORTED(cuvidCtxLockCreate)
FAKENV_UNSUPPORTED(cuvidCtxLockDestroy)
FAKENV_UNSUPPORTED(cuvidCtxLock)
FAKENV_UNSUPPORTED(cuvidCtxUnlock)
FAKENV_UNSUPPORTED(cuvidCreateVideoSource)
FAKENV_UNSUPPORTED(cuvidCreateVideoSourceW)
FAKENV_UNSUPPORTED(cuvidDestroyVideoSource)
FAKENV_UNSUPPORTED(cuvidSetVideoSourceState)
FAKENV_UNSUPPORTED(cuvidGetVideoSourceState)
FAKENV_UNSUPPORTED(cuvidGetSourceVideoFormat)
FAKENV_UNSUPPORTED(cuvidGetSourceAudioFormat)
FAKENV_UNSUPPORTED(cuvidCreateVideoParser)
FAKENV_UNSUPPORTED(cuvidParseVideoData)
FAKENV_UNSUPPORTED(cuvidDestroyVideoParser)
