// Reading what ffmpeg printed:
//  - the line that says why a command failed, in ffmpeg's (and the driver's) own words;
//  - the codecs its -encoders and -decoders lists name.
#pragma once

#include <set>
#include <string>

namespace mc::worker {

// FfmpegErrorLine gives the first log line that says something failed. An example is NVENC's
// "OpenEncodeSessionEx failed: unsupported device (2): (no details)". It drops the
// "[h264_nvenc @ 0x…]" prefix, whose address differs between runs. Without such a line, it
// gives the last line that is not a progress line, else an empty string.
std::string FfmpegErrorLine(const std::string& log);

// ListedCodecs gives the names in the output of `ffmpeg -encoders` or `ffmpeg -decoders`.
// Each is the second field of a line below the "------" separator.
std::set<std::string> ListedCodecs(const std::string& list_output);

}  // namespace mc::worker
