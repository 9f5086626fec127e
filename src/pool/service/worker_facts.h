// What the pool manager's page shows of a worker beyond what the policy reads: its GPU's model,
// its last job's evidence and its self-test. Read from the same status document, leniently:
// the policy's reader (worker_status_reader.h) judges the document; this one only shows it,
// so a member absent or of another type is shown as unknown, never an error.
#pragma once

#include <optional>
#include <string>

namespace mc::pool {

struct WorkerFacts {
  std::string vendor;  // "nvidia", "intel", ...; empty when unknown
  std::string model;   // the GPU's model as the worker's probe names it
  int sessions_active = 0;
  int sessions_cap = 0;              // 0: no cap stated
  std::optional<bool> evidence_ok;   // of the last job; empty before the first
  std::string evidence;              // its method and time, in words
  std::optional<bool> self_test_ok;  // empty before the first self-test
  std::string self_test_at;          // when it ran, RFC 3339
  std::string self_test_detail;      // why it failed, or what it measured
};

WorkerFacts ReadWorkerFacts(const std::string& document);

}  // namespace mc::pool
