#include "cli/transcoding_subcommands.h"

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/ffmpeg_plan_command.h"
#include "cli/pool_command.h"
#include "cli/worker_command.h"
#include "worker/daemon/ffmpeg_wrapper.h"

namespace mc {

std::optional<int> RunAsWrapper(int argc, char** argv) {
  const std::string_view called = argv[0];
  const std::string_view name = called.substr(called.find_last_of('/') + 1);
  int first = 1;
  std::string_view as = name;
  if (name != "ffmpeg" && name != "ffprobe") {
    if (argc < 2 || std::string_view(argv[1]) != "ffmpeg") return std::nullopt;
    as = "ffmpeg";
    first = 2;
  }
  const std::vector<std::string> args(argv + first, argv + argc);
  const worker::WrapperEnvironment environment =
      worker::WrapperEnvironmentFrom([](std::string_view variable) -> std::optional<std::string> {
        const char* value = std::getenv(std::string(variable).c_str());
        return value ? std::optional<std::string>(value) : std::nullopt;
      });
  return as == "ffprobe" ? worker::RunFfprobeWrapper(args, environment)
                         : worker::RunFfmpegWrapper(args, environment);
}

std::function<std::optional<int>()> AddTranscodingSubcommands(CLI::App& app) {
  const std::function<int()> run_pool = AddPoolCommand(app);
  const std::function<int()> run_ffmpeg_plan = AddFfmpegPlanCommand(app);
  std::shared_ptr<WorkerCommand> worker = AddWorkerCommand(app);
  return [&app, run_pool, run_ffmpeg_plan, worker]() -> std::optional<int> {
    if (app.got_subcommand("pool")) return run_pool();
    if (app.got_subcommand("ffmpeg-plan")) return run_ffmpeg_plan();
    if (worker->Selected()) return worker->Run();
    return std::nullopt;
  };
}

dra::CheckResults TranscodingDoctorChecks(const std::string& proc_root) {
  return WorkerDoctorChecks(proc_root);
}

}  // namespace mc
