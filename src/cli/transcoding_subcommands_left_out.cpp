// The transcoding subcommands of a build of the binary alone for the probe (`make run`). Each
// name is still a subcommand. So a person who tries one learns how to get it, not that it
// does not exist.
#include <iostream>
#include <string>
#include <string_view>

#include "cli/transcoding_subcommands.h"

namespace mc {
namespace {

// The subcommands left out, as the full build names them; `ffmpeg` is answered before parsing.
constexpr std::string_view kLeftOut[] = {"worker", "pool", "ffmpeg-plan"};

int SayLeftOut(std::string_view subcommand) {
  std::cerr << "media-capabilities: " << subcommand
            << " is not in this build, which `make run` made for the probe alone; `make build` "
               "builds the whole binary\n";
  return 2;
}

}  // namespace

std::optional<int> RunAsWrapper(int argc, char** argv) {
  const std::string_view called = argv[0];
  const std::string_view name = called.substr(called.find_last_of('/') + 1);
  if (name == "ffmpeg" || name == "ffprobe") return SayLeftOut(name);
  if (argc >= 2 && std::string_view(argv[1]) == "ffmpeg") return SayLeftOut("ffmpeg");
  return std::nullopt;
}

std::function<std::optional<int>()> AddTranscodingSubcommands(CLI::App& app) {
  for (std::string_view subcommand : kLeftOut) {
    app.add_subcommand(std::string(subcommand), "not in this build (make build adds it)")
        ->allow_extras()
        ->prefix_command();
  }
  return [&app]() -> std::optional<int> {
    for (std::string_view subcommand : kLeftOut)
      if (app.got_subcommand(std::string(subcommand))) return SayLeftOut(subcommand);
    return std::nullopt;
  };
}

dra::CheckResults TranscodingDoctorChecks(const std::string&) { return {}; }

}  // namespace mc
