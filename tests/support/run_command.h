// RunCommand runs a program the way a person at a shell would, with extra environment
// variables, and returns what it printed and how it ended. Tests of the whole binary use
// it; it is the product's own child runner, started through env(1).
#pragma once

#include <chrono>
#include <initializer_list>
#include <string>
#include <vector>

#include "probe/query/child_process.h"

namespace mc::testing {

probe::ChildOutcome RunCommand(const std::vector<std::string>& argv,
                               const std::vector<std::string>& env = {},
                               std::chrono::milliseconds timeout = std::chrono::seconds(60));

// CommandLine joins the pieces of an argv in order: {program, verb}, some flags, more flags.
std::vector<std::string> CommandLine(std::initializer_list<std::vector<std::string>> pieces);

}  // namespace mc::testing
