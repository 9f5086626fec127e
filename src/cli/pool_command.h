// `media-capabilities pool ...`: the pool manager itself (run, status; cli/pool_run.h). Its
// subcommands that need no PeerTube:
//  - simulate a trace under a policy;
//  - generate the shipped traces;
//  - record a PeerTube job list as a trace;
//  - print the configuration in effect.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace mc {

// AddPoolCommand registers `pool` and its subcommands on `app`; the returned function runs
// whichever was chosen and gives the exit status.
std::function<int()> AddPoolCommand(CLI::App& app);

}  // namespace mc
