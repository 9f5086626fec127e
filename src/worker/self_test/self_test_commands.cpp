#include "worker/self_test/self_test_commands.h"

namespace mc::worker {
namespace {

// Every command starts the same way: no banner, no reading of the terminal, overwrite.
std::vector<std::string> Start(const std::string& ffmpeg) {
  return {ffmpeg, "-hide_banner", "-nostdin", "-y"};
}

void Append(std::vector<std::string>& argv, std::initializer_list<std::string> more) {
  argv.insert(argv.end(), more.begin(), more.end());
}

// HardwareEncode appends the encoder options that tie the encode to the device.
//  - NVENC takes the GPU by CUDA ordinal (-gpu). B-frames are off: not every NVENC has them.
//  - VA-API's frames are uploaded to the render node that -vaapi_device opened.
void HardwareEncode(std::vector<std::string>& argv, const SelfTestTarget& target,
                    std::string_view encoder) {
  if (target.api == "nvidia") {
    Append(argv,
           {"-c:v", std::string(encoder), "-gpu", std::to_string(target.cuda_index), "-bf", "0"});
  } else {
    Append(argv, {"-vf", "format=nv12,hwupload", "-c:v", std::string(encoder)});
  }
}

void Output(std::vector<std::string>& argv, const std::string& output) {
  if (output.empty()) {
    Append(argv, {"-f", "null", "-"});
  } else {
    argv.push_back(output);
  }
}

}  // namespace

std::string_view EncoderFor(const SelfTestTarget& target, const EncodeCodec& codec) {
  return target.api == "nvidia" ? codec.nvidia_encoder : codec.vaapi_encoder;
}

std::vector<std::string> EncodeArgv(const std::string& ffmpeg, const SelfTestTarget& target,
                                    const EncodeCodec& codec, const std::string& size, int seconds,
                                    const std::string& output) {
  std::vector<std::string> argv = Start(ffmpeg);
  if (target.api == "vaapi") Append(argv, {"-vaapi_device", target.render_node});
  Append(argv, {"-f", "lavfi", "-i", "testsrc2=size=" + size + ":rate=30", "-t",
                std::to_string(seconds)});
  HardwareEncode(argv, target, EncoderFor(target, codec));
  Output(argv, output);
  return argv;
}

std::vector<std::string> SessionEncodeArgv(const std::string& ffmpeg,
                                           const SelfTestTarget& target) {
  std::vector<std::string> argv = Start(ffmpeg);
  if (target.api == "vaapi") Append(argv, {"-vaapi_device", target.render_node});
  Append(argv, {"-re", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-t", "2"});
  HardwareEncode(argv, target, EncoderFor(target, kEncodeCodecs[0]));
  Output(argv, "");
  return argv;
}

std::vector<std::string> PipelineArgv(const std::string& ffmpeg, const SelfTestTarget& target,
                                      const std::string& input) {
  std::vector<std::string> argv = Start(ffmpeg);
  if (target.api == "nvidia") {
    // The cuvid decoder parses the stream itself and hands over CUDA frames. The hwaccel
    // options only keep them in CUDA memory on this GPU.
    Append(argv, {"-hwaccel", "cuda", "-hwaccel_device", std::to_string(target.cuda_index),
                  "-hwaccel_output_format", "cuda", "-c:v", "h264_cuvid", "-i", input, "-vf",
                  "scale_cuda=1280:720", "-c:v", "h264_nvenc", "-bf", "0"});
  } else {
    Append(argv,
           {"-hwaccel", "vaapi", "-hwaccel_device", target.render_node, "-hwaccel_output_format",
            "vaapi", "-i", input, "-vf", "scale_vaapi=w=1280:h=720", "-c:v", "h264_vaapi"});
  }
  Output(argv, "");
  return argv;
}

std::vector<std::string> DecodeArgv(const std::string& ffmpeg, const SelfTestTarget& target,
                                    const DecodeFamily& family, const std::string& input,
                                    int loops) {
  std::vector<std::string> argv = Start(ffmpeg);
  const std::string loop = std::to_string(loops - 1);
  if (target.api == "nvidia") {
    Append(argv, {"-c:v", std::string(family.nvidia_decoder), "-gpu",
                  std::to_string(target.cuda_index), "-stream_loop", loop, "-i", input});
  } else {
    // The pictures come back to memory for the null sink. Kept on the GPU, they make ffmpeg
    // 5.1 rebuild its filters where the loop starts again. That fails ("Impossible to convert
    // between the formats supported by the filter"). The decode is the GPU's either way.
    Append(argv, {"-hwaccel", "vaapi", "-hwaccel_device", target.render_node, "-stream_loop", loop,
                  "-i", input});
  }
  Output(argv, "");
  return argv;
}

std::vector<std::string> StreamArgv(const std::string& ffmpeg, const DecodeFamily& family,
                                    const std::string& output) {
  std::vector<std::string> argv = Start(ffmpeg);
  Append(argv, {"-f", "lavfi", "-i", "testsrc2=size=1920x1080:rate=30", "-t", "1", "-pix_fmt",
                "yuv420p", "-c:v", std::string(family.software_encoder)});
  // The fastest settings of each: the stream's content does not matter, only its codec.
  if (family.software_encoder == "libx264" || family.software_encoder == "libx265") {
    Append(argv, {"-preset", "ultrafast", "-bf", "0"});
  } else if (family.software_encoder == "libvpx-vp9") {
    Append(argv, {"-deadline", "realtime", "-cpu-used", "8", "-b:v", "2M"});
  } else if (family.software_encoder == "libsvtav1") {
    Append(argv, {"-preset", "12"});
  }
  argv.push_back(output);
  return argv;
}

std::vector<std::string> ListArgv(const std::string& ffmpeg, const std::string& what) {
  return {ffmpeg, "-hide_banner", "-nostdin", what};
}

}  // namespace mc::worker
