// The paths of ffmpeg's sandbox for each run the wrapper makes. The sandbox itself is
// worker/probe_contract/sandbox.h. A job's ffmpeg reads its own input files. It writes its own
// output files, which the wrapper makes beforehand. It cannot list the runner's one `transcoding/`
// folder. It cannot read or write another job's files there. A probe or a listing reads the files
// it names and nothing else. Neither reaches the worker's state directory, the tokens or the
// runner's configuration. Whether the kernel has Landlock at all is LandlockAbi. It is in
// worker/probe_contract/landlock.h, which the status document reads too.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "worker/probe_contract/sandbox.h"
#include "worker/transcode/runner_command.h"

namespace mc::worker {

// JobSandboxPaths gives the job's paths:
// - each local input file, to read;
// - each output file (and an HLS segment file), to write;
// - the environment's paths (AddEnvironmentPaths).
SandboxPaths JobSandboxPaths(const RunnerCommand& command, const SandboxEnvironment& environment);

// ProbeSandboxPaths gives a probe's or a listing's paths. Each argument that names a local regular
// file is read. The environment's paths are added.
SandboxPaths ProbeSandboxPaths(const std::vector<std::string>& args,
                               const SandboxEnvironment& environment);

// MakeOutputFiles makes each missing output file, empty and 0600. Then the sandbox can grant it
// alone. A command that does not overwrite (no -y) gets none made.
Result<void> MakeOutputFiles(const RunnerCommand& command, const SandboxPaths& paths);

// What a boxed run may demux. Only local files, in the containers PeerTube takes for an upload.
// Those are its video, audio and image extensions. FileInputOptions are the input options that say
// so to ffmpeg and ffprobe. They are -protocol_whitelist and -format_whitelist.
std::vector<std::string> FileInputOptions();

// WithFileInputs puts FileInputOptions before each input (-i) of an ffmpeg command line.
std::vector<std::string> WithFileInputs(const std::vector<std::string>& argv);

// CheckDemuxer refuses a container ffprobe names that PeerTube does not take. It refuses in words.
// ffprobe's name is its format_name, such as "mov,mp4,m4a,3gp,3g2,mj2".
Result<void> CheckDemuxer(const std::string& format_name);

}  // namespace mc::worker
