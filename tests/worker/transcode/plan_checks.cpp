#include "plan_checks.h"

#include <algorithm>

#include "worker/transcode/ffmpeg_options.h"

namespace mc::worker::testing {

bool IsTranslationOption(const std::string& name) {
  static const std::vector<std::string> kBases = {"-preset",  "-tune",     "-b_strategy", "-bf",
                                                  "-pix_fmt", "-vf",       "-gpu",        "-rc",
                                                  "-rc_mode", "-low_power"};
  if (IsVideoCodecOption(name) || name == "-b:v") return true;
  return std::find(kBases.begin(), kBases.end(), std::string(StreamOptionBase(name))) !=
         kBases.end();
}

std::string KeptOptionsInOrder(const RunnerCommand& runner,
                               const std::vector<std::string>& planned) {
  Result<RunnerCommand> parsed = ParseRunnerCommand(planned);
  if (!parsed) return "the planned argv does not parse: " + parsed.error_message();
  if (parsed->outputs.size() != runner.outputs.size()) return "the outputs differ in number";
  if (parsed->inputs.size() != runner.inputs.size()) return "the inputs differ in number";
  for (std::size_t i = 0; i < runner.inputs.size(); ++i) {
    if (parsed->inputs[i].path != runner.inputs[i].path)
      return "input " + runner.inputs[i].path + " moved";
  }
  for (std::size_t i = 0; i < runner.outputs.size(); ++i) {
    const auto kept = [](const CommandOutput& output) {
      std::vector<std::string> words;
      for (const CommandOption& option : output.options) {
        if (IsTranslationOption(option.name)) continue;
        words.push_back(option.name + "=" + option.value.value_or(""));
      }
      return words;
    };
    if (parsed->outputs[i].path != runner.outputs[i].path)
      return "output " + runner.outputs[i].path + " moved";
    const std::vector<std::string> want = kept(runner.outputs[i]);
    const std::vector<std::string> got = kept(parsed->outputs[i]);
    if (want != got) {
      std::string text = "output " + runner.outputs[i].path + " keeps [";
      for (const std::string& word : got) text += word + " ";
      text += "], the runner wrote [";
      for (const std::string& word : want) text += word + " ";
      return text + "]";
    }
  }
  const auto globals = [](const RunnerCommand& command) {
    std::vector<std::string> words;
    for (const CommandOption& option : command.global_options) {
      if (option.name != "-vaapi_device") words.push_back(option.name);
    }
    return words;
  };
  if (globals(*parsed) != globals(runner)) return "the global options differ";
  return "";
}

std::string SoftwareEncoderIn(const std::vector<std::string>& argv) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (IsVideoCodecOption(argv[i]) && IsSoftwareVideoEncoder(argv[i + 1])) return argv[i + 1];
  }
  for (const std::string& word : argv) {
    if (word.find("libx264") != std::string::npos || word.find("libx265") != std::string::npos) {
      return word;
    }
  }
  return "";
}

bool Holds(const std::vector<std::string>& argv, const std::string& word) {
  return std::find(argv.begin(), argv.end(), word) != argv.end();
}

bool HoldsPair(const std::vector<std::string>& argv, const std::string& name,
               const std::string& value) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == name && argv[i + 1] == value) return true;
  }
  return false;
}

}  // namespace mc::worker::testing
