// The runner's command lines the tests plan: the recorded ones (recorded/*.log, every line
// whose program is ffmpeg) and the ones written out from the runner's source
// (source-forms.txt).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace mc::worker::testing {

struct RunnerForm {
  std::string name;    // "ffmpeg-argv-2runners.log:6", or the source form's name
  std::string source;  // where it comes from
  std::vector<std::string> args;
};

// SplitShellWords splits a line as bash reads words that `printf %q` wrote: spaces separate,
// a backslash quotes the next character, '...' and "..." quote what they enclose.
std::vector<std::string> SplitShellWords(const std::string& line);

// RecordedForms reads every `*.log` of `dir`: the argv of each line whose program is ffmpeg.
std::vector<RunnerForm> RecordedForms(const std::filesystem::path& dir);

// SourceForms reads source-forms.txt, putting the given files in place of its {NAME}s.
std::vector<RunnerForm> SourceForms(const std::filesystem::path& file,
                                    const std::map<std::string, std::string>& files);

}  // namespace mc::worker::testing
