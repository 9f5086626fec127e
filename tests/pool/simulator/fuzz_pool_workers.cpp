// A workers file is outside input: a workers list or an error, never a crash, and every
// worker it accepts can run in the simulator.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "pool/simulator/sim_workers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto workers = mc::pool::ParseWorkers(text, "fuzz");
  if (!workers) {
    if (workers.error_message().empty()) std::abort();
    return 0;
  }
  for (const mc::pool::SimWorkerSpec& worker : *workers) {
    if (worker.name.empty() || worker.concurrency < 1 || !(worker.speed > 0)) std::abort();
  }
  return 0;
}
