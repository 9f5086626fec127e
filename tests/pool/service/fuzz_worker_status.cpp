// A worker's status document is outside input: a status or an error that names the worker,
// never a crash. What the page shows of it is read from the same text, leniently: never a crash
// and never a negative count.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "pool/service/worker_facts.h"
#include "pool/service/worker_status_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const mc::pool::WorkerFacts facts = mc::pool::ReadWorkerFacts(text);
  if (facts.sessions_active < 0 || facts.sessions_cap < 0) std::abort();
  auto status = mc::pool::ParseWorkerStatus(text, "w");
  if (!status) {
    if (status.error_message().rfind("w: ", 0) != 0) std::abort();
    return 0;
  }
  if (status->name != "w" || !status->readable || status->active_jobs < 0) std::abort();
  return 0;
}
