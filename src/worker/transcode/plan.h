// The plan: what to run on this one GPU instead of the runner's libx264 command line. It is a pure
// function of:
// - the command line;
// - the device;
// - the facts of the input;
// - the worker's settings.
// docs/worker/ffmpeg-translation.md is the table it follows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "worker/transcode/input_facts.h"
#include "worker/transcode/plan_device.h"
#include "worker/transcode/runner_command.h"

namespace mc::worker {

struct PlanOptions {
  std::string nvenc_preset = "p5";  // PT_WORKER_FFMPEG_NVENC_PRESET
  int cuda_ordinal = 0;     // CUDA's index of this GPU in PCI bus order (-gpu N, -hwaccel_device N)
  std::string render_node;  // VA-API: "/dev/dri/renderD128"; the device JSON has none
  // The most B-frames between references the encoder is given. Unset, the runner's -bf is dropped.
  // The encoder's preset then chooses, within what the GPU takes. The device JSON does not state
  // NVENC's limit. Above it, h264_nvenc fails ("Max B-frames 16 exceed 4").
  std::optional<int> max_b_frames;
};

enum class PlanKind { kPassThrough, kRun, kRefuse };

const char* PlanKindName(PlanKind kind);

struct Plan {
  PlanKind kind = PlanKind::kRefuse;
  // Without argv[0]: what to give the real ffmpeg (kRun). For kPassThrough, the args unchanged.
  std::vector<std::string> argv;
  // kRefuse: one line for the runner to send to PeerTube as the job's error.
  std::string refusal;
  // What the plan chose that a person should know, such as a CPU decode before the upload.
  std::vector<std::string> notes;
  int encode_sessions = 0;       // hardware encode contexts the argv opens (one per video output)
  bool hardware_decode = false;  // whether the argv asks the GPU to decode
  std::string encoder;           // "h264_nvenc", "h264_vaapi" (empty for pass-through)
  // The components of ffmpeg's log that speak for the GPU in this argv:
  // - its hardware encoders, decoders and filters ("h264_nvenc", "h264_cuvid", "scale_cuda");
  // - the decoder a VA-API hwaccel runs through ("h264").
  // Only their error lines can name a GPU failure.
  std::vector<std::string> hardware_components;
  // "web-video", "hls", "audio-merge", "listing", "probe", "audio-only", "image", "other".
  std::string job_form;
  int output_height = 0;  // from scale=w=-2:h=H (0 when unknown)
  double output_fps = 0;  // from -r
  // Variables the argv must run with, as NAME=VALUE. On NVIDIA that is
  // CUDA_DEVICE_ORDER=PCI_BUS_ID. Then the ordinal of -gpu and -hwaccel_device counts GPUs in PCI
  // bus order.
  std::vector<std::string> environment;
};

Plan PlanCommand(const RunnerCommand& command, const PlanDevice& device,
                 const std::optional<InputFacts>& facts, const PlanOptions& options);

// PlanArgv parses `args` (without argv[0]) and plans them. A command line that does not parse is
// refused with the parser's words. They name the argument and its place.
Plan PlanArgv(const std::vector<std::string>& args, const PlanDevice& device,
              const std::optional<InputFacts>& facts, const PlanOptions& options);

// IsSoftwareVideoEncoder says whether an ffmpeg encoder runs on the CPU: libx264, libx265,
// libvpx-vp9, libsvtav1, mpeg4, ... A plan never runs one.
bool IsSoftwareVideoEncoder(const std::string& name);

}  // namespace mc::worker
