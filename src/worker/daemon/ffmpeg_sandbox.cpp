#include "worker/daemon/ffmpeg_sandbox.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string_view>

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

// The output options that name a further file the muxer writes: HLS's segment file.
constexpr const char* kFileOptions[] = {"-hls_segment_filename"};

// The demuxers of what PeerTube takes for an upload (server/core/initializers/constants.ts,
// MIMETYPES). They cover video containers, audio files, and the image an audio upload is shown
// with. ffmpeg matches a demuxer by any of its names. So "mov" stands for mp4, m4a, 3gp and the
// rest.
constexpr std::string_view kAcceptedDemuxers[] = {
    "mov",      "matroska",  "webm",      "avi",     "flv", "live_flv", "asf",
    "mpegts",   "mpeg",      "mpegvideo", "m4v",     "nut", "mxf",      "ogg",
    "wav",      "mp3",       "flac",      "aac",     "ac3", "image2",   "jpeg_pipe",
    "png_pipe", "webp_pipe", "gif",       "gif_pipe"};

// What people know the accepted containers as, for the refusal's words.
constexpr std::string_view kAcceptedInWords =
    "MP4/MOV, Matroska/WebM, AVI, FLV, ASF/WMV, MPEG-TS, MPEG-PS, Ogg, NUT, MXF; audio in WAV, "
    "MP3, FLAC, AAC or AC-3; a PNG, JPEG, WebP or GIF picture";

bool Accepted(std::string_view name) {
  return std::ranges::find(kAcceptedDemuxers, name) != std::end(kAcceptedDemuxers);
}

// The absolute path of a local file of the command. Empty for a URL or a pipe.
std::string LocalPath(std::string path) {
  if (path.starts_with("file:")) path.erase(0, 5);
  if (path.empty() || path == "-" || path.find("://") != std::string::npos ||
      path.starts_with("pipe:")) {
    return "";
  }
  std::error_code error;
  const fs::path absolute = fs::absolute(path, error);
  return error ? "" : absolute.lexically_normal().string();
}

void AddLocal(const std::string& path, std::vector<std::string>& out) {
  if (std::string local = LocalPath(path); !local.empty()) out.push_back(std::move(local));
}

bool Overwrites(const RunnerCommand& command) {
  return std::any_of(command.global_options.begin(), command.global_options.end(),
                     [](const CommandOption& option) { return option.name == "-y"; });
}

}  // namespace

std::vector<std::string> FileInputOptions() {
  std::string demuxers;
  for (std::string_view name : kAcceptedDemuxers) {
    if (!demuxers.empty()) demuxers += ',';
    demuxers += name;
  }
  return {"-protocol_whitelist", "file", "-format_whitelist", demuxers};
}

std::vector<std::string> WithFileInputs(const std::vector<std::string>& argv) {
  const std::vector<std::string> options = FileInputOptions();
  std::vector<std::string> out;
  for (const std::string& arg : argv) {
    if (arg == "-i") out.insert(out.end(), options.begin(), options.end());
    out.push_back(arg);
  }
  return out;
}

Result<void> CheckDemuxer(const std::string& format_name) {
  if (format_name.empty())
    return InvalidInput("ffprobe names no container format for it; the file fails its job");
  std::string_view names = format_name;
  while (!names.empty()) {
    const std::size_t comma = names.find(',');
    if (Accepted(names.substr(0, comma))) return Ok();
    if (comma == std::string_view::npos) break;
    names.remove_prefix(comma + 1);
  }
  return InvalidInput("its container is " + format_name +
                      ", which PeerTube does not take for an upload (it takes " +
                      std::string(kAcceptedInWords) +
                      "); the file fails its job: upload it in one of those");
}

SandboxPaths JobSandboxPaths(const RunnerCommand& command, const SandboxEnvironment& environment) {
  SandboxPaths paths;
  for (const CommandInput& input : command.inputs) AddLocal(input.path, paths.read);
  for (const CommandOutput& output : command.outputs) {
    AddLocal(output.path, paths.write_files);
    for (const CommandOption& option : output.options) {
      if (option.value && std::ranges::find(kFileOptions, option.name) != std::end(kFileOptions))
        AddLocal(*option.value, paths.write_files);
    }
  }
  AddEnvironmentPaths(environment, paths);
  return paths;
}

SandboxPaths ProbeSandboxPaths(const std::vector<std::string>& args,
                               const SandboxEnvironment& environment) {
  SandboxPaths paths;
  for (const std::string& arg : args) {
    const std::string local = arg.starts_with("-") ? "" : LocalPath(arg);
    std::error_code error;
    if (!local.empty() && fs::is_regular_file(local, error)) paths.read.push_back(local);
  }
  AddEnvironmentPaths(environment, paths);
  return paths;
}

Result<void> MakeOutputFiles(const RunnerCommand& command, const SandboxPaths& paths) {
  if (!Overwrites(command)) return Ok();
  for (const std::string& file : paths.write_files) {
    // O_NOFOLLOW: a link in place of the output is refused, never followed.
    const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
      return Unavailable("cannot make the output " + file + " for the sandbox: " +
                         std::strerror(errno) + "; check that the runner's folder is writable");
    }
    close(fd);
  }
  return Ok();
}

}  // namespace mc::worker
