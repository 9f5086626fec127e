// What the subcommands that run until stopped (worker run, pool run) share: the stop signals
// they wait for, and their log lines.
#pragma once

#include <signal.h>

#include <string>

namespace mc {

// BlockStopSignals blocks SIGTERM and SIGINT in this thread and the threads it starts. So the
// main thread takes them with sigwait. It returns the set.
sigset_t BlockStopSignals();

// ResolveProgram finds a program on PATH as execvp would. A name with a slash is taken as it
// is. A name not found is given back as it was.
std::string ResolveProgram(const std::string& program);

// Log writes one line to stderr in one write, so that lines of several threads do not mix.
void Log(const std::string& line);

}  // namespace mc
