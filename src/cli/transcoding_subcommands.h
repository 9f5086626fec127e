// The binary's transcoding subcommands:
//  - the worker (`worker …`);
//  - the ffmpeg wrapper the runner calls (`ffmpeg`, or the binary linked as ffmpeg/ffprobe);
//  - `ffmpeg-plan`;
//  - the pool manager (`pool …`).
// A build of the binary alone for the probe (`make run`, MEDIA_CAP_PROBE_ONLY) leaves them out.
// It also leaves out the modules only they use. It answers their names with a line that says
// how to build them. `make build` has them all. main.cpp sees only this interface.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>

#include "dra/doctor/check_result.h"

namespace mc {

// RunAsWrapper answers the binary called as ffmpeg or ffprobe, or as `media-capabilities
// ffmpeg ARGS`. It runs before any option parsing, since those arguments are ffmpeg's. It
// gives nullopt for every other call.
std::optional<int> RunAsWrapper(int argc, char** argv);

// AddTranscodingSubcommands registers the transcoding subcommands on `app`; what it returns, called
// after parsing, runs the one that was chosen, or gives nullopt when none was.
std::function<std::optional<int>()> AddTranscodingSubcommands(CLI::App& app);

// TranscodingDoctorChecks are `doctor`'s lines for this box's workers on bare metal (the kernel
// log, each unit's state, PeerTube, the runner); `proc_root` is where /proc is. A build for the
// probe alone has no worker to check and gives none.
dra::CheckResults TranscodingDoctorChecks(const std::string& proc_root);

}  // namespace mc
