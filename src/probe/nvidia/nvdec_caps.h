// The NVDEC side of the NVIDIA query. It makes one cuvidGetDecoderCaps call per question the
// table's decoder and scaler rules need.
#pragma once

#include <array>
#include <vector>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"
#include "probe/nvidia/nvidia_loader.h"

namespace mc::probe {

struct DecodeQuestion {
  cudaVideoCodec codec;
  cudaVideoChromaFormat chroma;
  int bit_depth;
};

// kDecodeQuestions are the (codec, chroma, bit depth) triples the query asks. They are exactly the
// ones the table's decoder rules name. A unit test holds the two together. Only real combinations
// are asked. A driver need not answer 10-bit MPEG-2 sensibly, say.
inline constexpr std::array<DecodeQuestion, 10> kDecodeQuestions{{
    {cudaVideoCodec_H264, cudaVideoChromaFormat_420, 8},
    {cudaVideoCodec_HEVC, cudaVideoChromaFormat_420, 8},
    {cudaVideoCodec_HEVC, cudaVideoChromaFormat_420, 10},
    {cudaVideoCodec_AV1, cudaVideoChromaFormat_420, 8},
    {cudaVideoCodec_AV1, cudaVideoChromaFormat_420, 10},
    {cudaVideoCodec_VP9, cudaVideoChromaFormat_420, 8},
    {cudaVideoCodec_VP9, cudaVideoChromaFormat_420, 10},
    {cudaVideoCodec_VP8, cudaVideoChromaFormat_420, 8},
    {cudaVideoCodec_VC1, cudaVideoChromaFormat_420, 8},
    {cudaVideoCodec_MPEG2, cudaVideoChromaFormat_420, 8},
}};

// QueryDecoderCaps asks every question with the caller's CUDA context current. A failed call fails
// the query. The parent then publishes every capability false. A partial answer could look whole.
Result<std::vector<NvDecoderCaps>> QueryDecoderCaps(const CudaFunctions& cuda,
                                                    const CuvidFunctions& cuvid);

}  // namespace mc::probe
