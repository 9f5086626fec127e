// `media-capabilities ffmpeg-plan --device DEVICE.json [--input-facts FFPROBE.json] ... -- ARGV`:
// prints the plan for one runner command line on one GPU (docs/worker/ffmpeg-translation.md).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace mc {

// AddFfmpegPlanCommand registers `ffmpeg-plan` on `app`. The returned function runs it and
// gives the exit status:
//  - 0 for a plan that runs or passes the command through;
//  - 1 for a refusal;
//  - 2 for bad usage.
std::function<int()> AddFfmpegPlanCommand(CLI::App& app);

}  // namespace mc
