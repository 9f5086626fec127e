// Capture runs a short program that reads an upload (the wrapper's own ffprobe). It gives the
// program's standard output. The program runs in its sandbox where one is given. It is killed when
// it runs past its deadline or writes more than its cap. A hostile file may make ffprobe hang or
// print without end. It must fail its own job, never hold the runner.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "worker/probe_contract/sandbox.h"

namespace mc::worker {

struct CaptureOptions {
  std::chrono::milliseconds deadline{60'000};
  std::size_t max_output = 4 << 20;  // bytes of standard output
  const Sandbox* sandbox = nullptr;  // none runs it unboxed
};

// CaptureOutput runs argv (argv[0] a path) with its stderr on /dev/null. The error says which limit
// it passed, or how it failed.
Result<std::string> CaptureOutput(const std::vector<std::string>& argv,
                                  const CaptureOptions& options);

}  // namespace mc::worker
