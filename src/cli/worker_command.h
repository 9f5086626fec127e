// `media-capabilities worker ...`: the transcoding worker's view of its own GPU. The
// subcommands' options and their wiring live here, so that main only registers them.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "dra/doctor/check_result.h"

namespace mc {

class WorkerCommand {
 public:
  virtual ~WorkerCommand() = default;
  // Selected says whether the command line chose `worker`.
  virtual bool Selected() const = 0;
  // Run runs the chosen subcommand and returns the exit status.
  virtual int Run() = 0;
};

// AddWorkerCommand registers `worker` and its subcommands on the application.
std::unique_ptr<WorkerCommand> AddWorkerCommand(CLI::App& app);

// WorkerDoctorChecks are `doctor`'s lines for the workers of a bare-metal box, one per finding:
//  - kernel-log: whether the Xid check can read the kernel log, as the units' user too;
//  - worker-units: each unit media-worker@N's worker and its state, with what to do;
//  - peertube-server: each server the units' settings name, reached or not;
//  - peertube-runner: the official runner, installed or not.
// A box with no unit's state and no unit's settings gives none.
dra::CheckResults WorkerDoctorChecks(const std::string& proc_root);

}  // namespace mc
