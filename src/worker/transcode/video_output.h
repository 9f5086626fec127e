// The translation of one video output of the runner's command line. Its codec, filter, pixel format
// and x264 options become the options of the GPU's encoder. docs/worker/ffmpeg-translation.md gives
// the rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "worker/transcode/input_facts.h"
#include "worker/transcode/plan.h"
#include "worker/transcode/plan_device.h"
#include "worker/transcode/runner_command.h"
#include "worker/transcode/scale_filter.h"

namespace mc::worker {

// How the output's frames reach its encoder.
enum class FrameSource {
  kGpuDecoded,   // decoded on the GPU: frames already in GPU memory
  kCpuUploaded,  // decoded on the CPU, then uploaded (hwupload_cuda, hwupload)
};

struct OutputContext {
  const PlanDevice* device = nullptr;
  const PlanOptions* options = nullptr;
  const InputFacts* facts = nullptr;
  FrameSource frames = FrameSource::kGpuDecoded;
  int number = 1;  // the output's place among the outputs, from 1, for messages
};

struct TranslatedOutput {
  CommandOutput output;
  std::string encoder;
  PictureSize size;  // 0 where unknown
  double fps = 0;
  std::vector<std::string> notes;
};

// TranslateVideoOutput gives the output with its video encoded on the GPU. Else the refusal line,
// naming what is missing.
Result<TranslatedOutput> TranslateVideoOutput(const CommandOutput& output,
                                              const OutputContext& context);

// The encoder a device uses for H.264. "" where it encodes none.
std::string H264EncoderOf(const PlanDevice& device);

}  // namespace mc::worker
