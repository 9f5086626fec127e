#include "worker/transcode/plan.h"

#include <algorithm>
#include <iterator>

#include "worker/transcode/decode_table.h"
#include "worker/transcode/video_output.h"

namespace mc::worker {
namespace {

// ffmpeg 5.1's video encoders that run on the CPU, by name or by family prefix.
constexpr std::string_view kSoftwareEncoderPrefixes[] = {"libx26",      "libvpx",    "libaom",
                                                         "libsvtav1",   "librav1e",  "libxvid",
                                                         "libopenh264", "libtheora", "libkvazaar"};
constexpr std::string_view kSoftwareEncoders[] = {"mpeg4", "mpeg2video", "mpeg1video", "h263",
                                                  "mjpeg", "ffv1",       "huffyuv",    "prores",
                                                  "dnxhd", "rawvideo",   "libx264rgb"};

// The video codec the runner writes, which the plan translates. ffmpeg chooses it too for an output
// that names none.
constexpr std::string_view kRunnerVideoCodec = "libx264";

std::string DeviceWords(const PlanDevice& device) { return device.name + " (" + device.api + ")"; }

Plan Refuse(std::string line, std::string job_form) {
  Plan plan;
  plan.kind = PlanKind::kRefuse;
  plan.refusal = std::move(line);
  plan.job_form = std::move(job_form);
  return plan;
}

Plan PassThrough(const std::vector<std::string>& args, std::string job_form) {
  Plan plan;
  plan.kind = PlanKind::kPassThrough;
  plan.argv = args;
  plan.job_form = std::move(job_form);
  return plan;
}

bool HasInputOption(const CommandInput& input, std::string_view name) {
  return std::any_of(input.options.begin(), input.options.end(),
                     [name](const CommandOption& option) { return option.name == name; });
}

std::string JobFormOf(const RunnerCommand& command) {
  const bool looped_image =
      std::any_of(command.inputs.begin(), command.inputs.end(),
                  [](const CommandInput& input) { return HasInputOption(input, "-loop"); });
  if (looped_image && command.inputs.size() >= 2) return "audio-merge";
  const CommandOutput& output = command.outputs.front();
  const CommandOption* format = output.Last({"-f"});
  if (format && format->value == "hls") return "hls";
  if (format && format->value == "mp4") return "web-video";
  return "other";
}

// NVDEC's picture-size range per codec. The device JSON states neither end:
// - the maxima are what the recorded GPUs' decoder caps answer;
// - the minima are from NVIDIA's NVDEC programming guide.
// The cuvid decoder fails a picture outside it ("Video width 32 not within range from 48 to 4096").
// That is the input's doing, never the GPU's. So such an input is decoded on the CPU.
struct NvdecRange {
  std::string_view codec;  // ffprobe's codec_name
  int min_width, min_height, max_width, max_height;
};
// clang-format off
constexpr NvdecRange kNvdecRanges[] = {
    {"h264",       48,  16,  4096, 4096},
    {"hevc",       144, 144, 8192, 8192},
    {"vp9",        128, 128, 8192, 8192},
    {"av1",        128, 128, 8192, 8192},
    {"vp8",        48,  16,  4096, 4096},
    {"mpeg2video", 48,  16,  4080, 4080},
    {"vc1",        48,  16,  2048, 2048},
};
// clang-format on

// OutsideNvdecRange says how the picture falls outside NVDEC's range for its codec, or "".
std::string OutsideNvdecRange(const InputFacts& facts) {
  for (const NvdecRange& range : kNvdecRanges) {
    if (range.codec != facts.video_codec) continue;
    if (facts.width >= range.min_width && facts.height >= range.min_height &&
        facts.width <= range.max_width && facts.height <= range.max_height)
      return "";
    return std::to_string(facts.width) + "x" + std::to_string(facts.height) +
           " is outside NVDEC's " + std::string(range.codec) + " range (" +
           std::to_string(range.min_width) + "x" + std::to_string(range.min_height) + " to " +
           std::to_string(range.max_width) + "x" + std::to_string(range.max_height) + ")";
  }
  return "";
}

// The decode choice for the input a video is decoded from.
struct DecodeChoice {
  bool on_gpu = false;
  std::string cuvid;    // the NVIDIA decoder, where on_gpu
  std::string why_not;  // for a note, where not on_gpu
};

DecodeChoice ChooseDecode(const InputFacts& facts, const CommandInput& input,
                          const PlanDevice& device) {
  const std::string stream = facts.video_codec + " " + std::to_string(facts.bit_depth) + "-bit" +
                             (facts.pix_fmt.empty() ? "" : " " + facts.pix_fmt);
  if (facts.still_image || HasInputOption(input, "-loop")) {
    return {false, "",
            input.path + " is a still image (" + facts.video_codec +
                "): it is decoded on the CPU, the only form there is"};
  }
  const std::optional<DecodeRow> row = DecodeRowOf(facts.video_codec, facts.bit_depth);
  if (!row) {
    return {false, "",
            "no GPU decoder covers " + stream + ": " + input.path + " is decoded on the CPU"};
  }
  if (!facts.pix_fmt.empty() && !IsChroma420(facts.pix_fmt)) {
    return {false, "",
            device.name + " decodes 4:2:0 alone, and " + input.path + " is " + stream +
                ": it is decoded on the CPU"};
  }
  if (!device.Flag(row->attribute)) {
    return {false, "",
            device.name + " does not state " + std::string(row->attribute) + ": " + input.path +
                " (" + stream + ") is decoded on the CPU"};
  }
  if (device.api == "nvidia" && facts.width > 0 && facts.height > 0) {
    if (const std::string outside = OutsideNvdecRange(facts); !outside.empty())
      return {false, "",
              input.path + " (" + stream + "): " + outside + ": it is decoded on the CPU"};
  }
  return {true, std::string(row->cuvid), ""};
}

// HardwareDecodeOptions are the options put before the input's -i.
std::vector<std::string> HardwareDecodeOptions(const PlanDevice& device, const DecodeChoice& choice,
                                               const PlanOptions& options) {
  if (device.api == "nvidia") {
    // The cuvid decoder rather than libavcodec's NVDEC hwaccel. When the GPU refuses the stream,
    // -hwaccel alone silently falls back to a CPU decode. A cuvid decoder fails.
    return {"-hwaccel",
            "cuda",
            "-hwaccel_output_format",
            "cuda",
            "-hwaccel_device",
            std::to_string(options.cuda_ordinal),
            "-c:v",
            choice.cuvid};
  }
  return {"-hwaccel", "vaapi", "-hwaccel_output_format", "vaapi"};
}

// The names of an argv's hardware components. These are encoders, decoders and filters whose names
// say they run on the GPU: "h264_nvenc", "h264_cuvid", "scale_cuda", "hwupload".
constexpr std::string_view kHardwareNameParts[] = {"nvenc", "cuvid",    "_cuda",      "vaapi",
                                                   "_qsv",  "hwupload", "hwdownload", "_npp"};

// The options whose values name a device or an API ("cuda", "vaapi"), not a component.
constexpr std::string_view kDeviceOptions[] = {"-hwaccel",          "-hwaccel_output_format",
                                               "-hwaccel_device",   "-init_hw_device",
                                               "-filter_hw_device", "-vaapi_device"};

std::vector<std::string> HardwareComponentsOf(const std::vector<std::string>& argv) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    if (i > 0 && std::find(std::begin(kDeviceOptions), std::end(kDeviceOptions), argv[i - 1]) !=
                     std::end(kDeviceOptions))
      continue;
    std::size_t start = 0;
    while (start <= arg.size()) {
      std::size_t end = arg.find_first_of(",;[]=: ", start);
      if (end == std::string::npos) end = arg.size();
      const std::string word = arg.substr(start, end - start);
      const auto holds = [&word](std::string_view part) {
        return word.find(part) != std::string::npos;
      };
      const bool hardware =
          std::any_of(std::begin(kHardwareNameParts), std::end(kHardwareNameParts), holds);
      if (hardware && !word.starts_with("-") &&
          std::find(names.begin(), names.end(), word) == names.end())
        names.push_back(word);
      start = end + 1;
    }
  }
  return names;
}

std::string UploadName(const PlanDevice& device) {
  return device.api == "nvidia" ? "hwupload_cuda" : "hwupload";
}

// Which outputs encode video:
// - those that name libx264;
// - those that name no codec where the input has a video stream (ffmpeg would choose libx264).
// Any other codec is refused. The error is the refusal's line.
Result<std::vector<std::size_t>> VideoOutputsOf(const RunnerCommand& command,
                                                const PlanDevice& device,
                                                const std::optional<InputFacts>& facts) {
  std::vector<std::size_t> video_outputs;
  for (std::size_t i = 0; i < command.outputs.size(); ++i) {
    const CommandOutput& output = command.outputs[i];
    if (DropsVideo(output) || WritesImage(output)) continue;
    const std::string codec = VideoCodecOf(output);
    if (codec == "copy") continue;
    const std::string name = "output " + std::to_string(i + 1) + " (" + output.path + ")";
    if (!codec.empty() && codec != kRunnerVideoCodec) {
      return InvalidInput(name + " asks for video codec " + codec +
                          ", which has no hardware mapping on " + DeviceWords(device) +
                          "; only libx264 is translated");
    }
    if (!facts) {
      return InvalidInput("the input facts of " + InputsToProbe(command).front() +
                          " are missing: a video encode needs them to choose the decoder on " +
                          DeviceWords(device));
    }
    if (!facts->has_video) {
      if (codec.empty()) continue;  // no video stream: ffmpeg opens no video encoder
      return InvalidInput(InputsToProbe(command).front() + " has no video stream, and " + name +
                          " asks for " + codec);
    }
    video_outputs.push_back(i);
  }
  return video_outputs;
}

// Whether the device can take the command's video encode with `encoder`. The error is the refusal's
// line.
Result<void> CheckEncodable(const RunnerCommand& command, const PlanDevice& device,
                            const PlanOptions& options, const std::string& encoder) {
  if (encoder.empty()) {
    return InvalidInput(DeviceWords(device) + " does not encode H.264: it states neither " +
                        "encodeH264 nor encodeH264LowPower");
  }
  if (device.api == "vaapi" && options.render_node.empty()) {
    return InvalidInput(DeviceWords(device) +
                        " is a VA-API device, and no render node was given for it");
  }
  for (const CommandOption& option : command.global_options) {
    if (option.name == "-filter_complex" || option.name == "-lavfi" ||
        option.name == "-filter_complex_script") {
      return InvalidInput("argument " + std::to_string(option.position + 1) + " (" + option.name +
                          "): a filter graph has no hardware mapping; only a scale filter (-vf) "
                          "is translated");
    }
  }
  return Ok();
}

// The decode: on the GPU where the device states the codec at its depth. Else on the CPU and
// uploaded, and the notes say so. Also the device the command's filters and encoders open. Gives
// where the frames come from.
FrameSource PlanDecode(const RunnerCommand& command, const InputFacts& facts,
                       const PlanDevice& device, const PlanOptions& options, RunnerCommand& planned,
                       Plan& plan) {
  const std::string probed = InputsToProbe(command).front();
  const auto input =
      std::find_if(planned.inputs.begin(), planned.inputs.end(),
                   [&probed](const CommandInput& each) { return each.path == probed; });
  const DecodeChoice decode = ChooseDecode(facts, *input, device);
  if (decode.on_gpu) {
    plan.hardware_decode = true;
    // VA-API decodes through libavcodec's own decoder. That decoder then speaks for the GPU.
    if (device.api == "vaapi") plan.hardware_components.push_back(facts.video_codec);
    const std::vector<std::string> words = HardwareDecodeOptions(device, decode, options);
    for (std::size_t i = 0; i + 1 < words.size(); i += 2) {
      input->options.push_back({words[i], words[i + 1], input->position});
    }
    if (facts.bit_depth > 8) {
      plan.notes.push_back(input->path + " (" + facts.video_codec + ", " +
                           std::to_string(facts.bit_depth) +
                           "-bit) is decoded on the GPU; its scaler makes 8-bit NV12 of it for "
                           "the H.264 encoder");
    }
  } else {
    plan.notes.push_back(decode.why_not + ", and uploaded with " + UploadName(device) +
                         " to be scaled and encoded on the GPU");
  }
  if (device.api == "vaapi") {
    planned.global_options.insert(planned.global_options.begin(),
                                  {"-vaapi_device", options.render_node, -1});
  } else {
    plan.environment.push_back("CUDA_DEVICE_ORDER=PCI_BUS_ID");
  }
  return decode.on_gpu ? FrameSource::kGpuDecoded : FrameSource::kCpuUploaded;
}

// Translates each video output for the GPU into `planned`. The plan takes the first one's size and
// rate. It takes every output's notes, and an encode session for each.
Result<void> TranslateOutputs(const RunnerCommand& command,
                              const std::vector<std::size_t>& video_outputs, OutputContext context,
                              RunnerCommand& planned, Plan& plan) {
  for (std::size_t index : video_outputs) {
    context.number = static_cast<int>(index) + 1;
    Result<TranslatedOutput> translated = TranslateVideoOutput(command.outputs[index], context);
    if (!translated) return translated.error();
    planned.outputs[index] = std::move(translated->output);
    if (plan.encode_sessions == 0) {
      plan.output_height = translated->size.height;
      plan.output_fps = translated->fps;
    }
    plan.notes.insert(plan.notes.end(), translated->notes.begin(), translated->notes.end());
    ++plan.encode_sessions;
  }
  return Ok();
}

}  // namespace

const char* PlanKindName(PlanKind kind) {
  switch (kind) {
    case PlanKind::kPassThrough:
      return "pass";
    case PlanKind::kRun:
      return "run";
    case PlanKind::kRefuse:
      return "refuse";
  }
  return "refuse";
}

bool IsSoftwareVideoEncoder(const std::string& name) {
  if (name == kRunnerVideoCodec) return true;
  for (std::string_view prefix : kSoftwareEncoderPrefixes) {
    if (name.starts_with(prefix)) return true;
  }
  return std::find(std::begin(kSoftwareEncoders), std::end(kSoftwareEncoders), name) !=
         std::end(kSoftwareEncoders);
}

Plan PlanArgv(const std::vector<std::string>& args, const PlanDevice& device,
              const std::optional<InputFacts>& facts, const PlanOptions& options) {
  Result<RunnerCommand> command = ParseRunnerCommand(args);
  if (!command)
    return Refuse("the ffmpeg command line does not parse: " + command.error_message(), "other");
  return PlanCommand(*command, device, facts, options);
}

Plan PlanCommand(const RunnerCommand& command, const PlanDevice& device,
                 const std::optional<InputFacts>& facts, const PlanOptions& options) {
  const std::vector<std::string> args = RenderCommand(command);
  switch (KindOf(command)) {
    case CommandKind::kListing:
      return PassThrough(args, "listing");
    case CommandKind::kProbe:
      return PassThrough(args, "probe");
    case CommandKind::kAudioOnly:
      return PassThrough(args, "audio-only");
    case CommandKind::kImage:
      return PassThrough(args, "image");
    case CommandKind::kOther:
      return PassThrough(args, "other");
    case CommandKind::kVideoEncode:
      break;
  }
  const std::string job_form = JobFormOf(command);
  Result<std::vector<std::size_t>> video_outputs = VideoOutputsOf(command, device, facts);
  if (!video_outputs) return Refuse(video_outputs.error_message(), job_form);
  if (video_outputs->empty()) return PassThrough(args, "audio-only");
  const std::string encoder = H264EncoderOf(device);
  if (Result<void> encodable = CheckEncodable(command, device, options, encoder); !encodable)
    return Refuse(encodable.error_message(), job_form);

  Plan plan;
  plan.kind = PlanKind::kRun;
  plan.job_form = job_form;
  plan.encoder = encoder;
  RunnerCommand planned = command;
  OutputContext context;
  context.device = &device;
  context.options = &options;
  context.facts = &*facts;
  context.frames = PlanDecode(command, *facts, device, options, planned, plan);
  if (Result<void> translated = TranslateOutputs(command, *video_outputs, context, planned, plan);
      !translated)
    return Refuse(translated.error_message(), job_form);
  plan.argv = RenderCommand(planned);
  for (std::string& name : HardwareComponentsOf(plan.argv)) {
    if (std::find(plan.hardware_components.begin(), plan.hardware_components.end(), name) ==
        plan.hardware_components.end())
      plan.hardware_components.push_back(std::move(name));
  }

  // The last guard of the rule the worker is built on: no plan runs a CPU video encoder.
  for (const CommandOutput& output : planned.outputs) {
    for (const CommandOption& option : output.options) {
      if (IsVideoCodecOption(option.name) && option.value &&
          IsSoftwareVideoEncoder(*option.value)) {
        return Refuse(
            "the plan for " + output.path + " would encode with " + *option.value + " on the CPU",
            job_form);
      }
    }
  }
  return plan;
}

}  // namespace mc::worker
