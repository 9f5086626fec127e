// Spawn, for the benchmarks: starts a program with extra environment variables ahead of the
// benchmark's own, its stdout and stderr both in one file, and gives its pid. A program that
// cannot be started ends the benchmark: no figure can be made without it.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/types.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern char** environ;

namespace bench {

// `argv[0]` is looked up on PATH when it has no slash; `output` is made anew.
inline pid_t Spawn(const std::vector<std::string>& argv, const std::vector<std::string>& extra_env,
                   const std::string& output) {
  std::vector<std::string> env_strings(extra_env);
  for (char** e = environ; *e; ++e) env_strings.emplace_back(*e);
  std::vector<char*> envp, args;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy(argv);
  for (auto& s : argv_copy) args.push_back(s.data());
  args.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = -1;
  const int error = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    std::fprintf(stderr, "bench: cannot start %s\n", args[0]);
    std::exit(1);
  }
  return pid;
}

}  // namespace bench
