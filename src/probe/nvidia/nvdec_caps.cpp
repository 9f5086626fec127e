#include "probe/nvidia/nvdec_caps.h"

#include "probe/facts/cuvid_names.h"
#include "probe/nvidia/cuda_device.h"

namespace mc::probe {

Result<std::vector<NvDecoderCaps>> QueryDecoderCaps(const CudaFunctions& cuda,
                                                    const CuvidFunctions& cuvid) {
  // The loader loads cuvidGetDecoderCaps as optional. Drivers before 375 lack it.
  if (!cuvid.cuvidGetDecoderCaps) return Error{"libnvcuvid.so.1 has no cuvidGetDecoderCaps"};
  std::vector<NvDecoderCaps> answers;
  for (const DecodeQuestion& question : kDecodeQuestions) {
    CUVIDDECODECAPS caps{};
    caps.eCodecType = question.codec;
    caps.eChromaFormat = question.chroma;
    caps.nBitDepthMinus8 = static_cast<unsigned>(question.bit_depth - 8);
    if (CUresult result = cuvid.cuvidGetDecoderCaps(&caps); result != CUDA_SUCCESS) {
      const std::string call =
          "cuvidGetDecoderCaps(" +
          DecoderCapsLabel(question.codec, question.chroma, question.bit_depth) + ")";
      return Error{CudaCallError(cuda, call.c_str(), result)};
    }
    NvDecoderCaps answer;
    answer.codec = question.codec;
    answer.chroma = question.chroma;
    answer.bit_depth = question.bit_depth;
    answer.supported = caps.bIsSupported != 0;
    answer.engines = caps.nNumNVDECs;
    answer.max_width = caps.nMaxWidth;
    answer.max_height = caps.nMaxHeight;
    answer.output_formats = caps.nOutputFormatMask;
    answers.push_back(answer);
  }
  return answers;
}

}  // namespace mc::probe
