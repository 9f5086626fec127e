// An ffmpeg command line as ffmpeg 5.1 reads it, in order:
// - global options;
// - inputs, each with the options written before its -i;
// - outputs, each with the options written before its file.
// Every option is kept as written, stream specifier and all (-maxrate:v, -g:v, -c:a). The runner
// writes its command lines through fluent-ffmpeg. That puts each input's options before its -i, and
// each output's options before its file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc::worker {

struct CommandOption {
  std::string name;                  // "-maxrate:v", as written
  std::optional<std::string> value;  // none for an option written without a value (-vn, -y)
  int position = 0;                  // the index of the name in the argv (0 is the first argument)
};

struct CommandInput {
  std::vector<CommandOption> options;
  std::string path;
  int position = 0;  // the index of its -i
};

struct CommandOutput {
  std::vector<CommandOption> options;
  std::string path;
  int position = 0;  // the index of its file

  // Last gives the value of the last option of that name, or none. ffmpeg takes the last.
  const CommandOption* Last(const std::vector<std::string>& names) const;
};

enum class CommandKind { kListing, kProbe, kAudioOnly, kImage, kVideoEncode, kOther };

struct RunnerCommand {
  std::vector<CommandOption> global_options;
  std::vector<CommandInput> inputs;
  std::vector<CommandOutput> outputs;
};

// ParseRunnerCommand reads `args` (without argv[0]). An error names the argument and its place,
// such as "argument 7 (-vf): the option has no value".
Result<RunnerCommand> ParseRunnerCommand(const std::vector<std::string>& args);

// RenderCommand writes the command line back, every part at its position. A plan that replaces an
// option gives the new one the old one's position.
std::vector<std::string> RenderCommand(const RunnerCommand& command);

CommandKind KindOf(const RunnerCommand& command);
const char* CommandKindName(CommandKind kind);

// InputsToProbe gives the input paths whose facts the planner needs: those a video is decoded from.
// That is the input a video output maps (-map N:v), else the first input. The first is what
// ffmpeg's own selection takes in every form the runner writes. There the video, or an audio
// merge's still image, comes first.
std::vector<std::string> InputsToProbe(const RunnerCommand& command);

// The video codec an output asks for ("" for none written, "copy"). It takes the last of
// -c:v, -vcodec, -codec:v and the bare -c, -codec. Also whether it drops video (-vn).
std::string VideoCodecOf(const CommandOutput& output);
bool DropsVideo(const CommandOutput& output);

// WritesImage says whether an output is a still image. PeerTube 8's storyboard writes one .jpg. It
// tells by the output's -f or its video codec. Naming neither, it tells by its file's extension.
// From that, ffmpeg chooses an image encoder rather than libx264.
bool WritesImage(const CommandOutput& output);

// IsVideoCodecOption says whether an option sets the video codec: -c:v, -vcodec, -codec:v, -c:v:0.
// The bare -c and -codec count too; they set every stream's.
bool IsVideoCodecOption(const std::string& name);

}  // namespace mc::worker
