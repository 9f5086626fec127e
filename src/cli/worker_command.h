// `media-capabilities worker ...`: the transcoding worker's view of its own GPU. The
// subcommands' options and their wiring live here, so that main only registers them.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

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

}  // namespace mc
