// The worker's status document (schema_version 2, docs/reference/worker-status.schema.json)
// read into the policy's WorkerStatus. The document is outside input.
// A worker of another version, a proxy's error page or a truncated answer gives an error.
// The error names the place. It never gives a worker the policy believes in.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/base/result.h"
#include "pool/policy/signals.h"

namespace mc::pool {

// The largest count (sessions, slots, jobs) a worker's document or a run record may state.
inline constexpr std::int64_t kMaxCount = 1'000'000;

// ParseWorkerStatus reads the document `json` of the worker the configuration calls `name`
// (the name the policy keys its record by, whatever the document's runner_name says).
// Errors read "gpu-box-1:gpu0: status: gpu.sessions.cap: expected an integer".
Result<pool::WorkerStatus> ParseWorkerStatus(std::string_view json, const std::string& name);

// UnreadableWorker is the status of a worker whose document could not be had this cycle.
// The policy counts it as no capacity, and holds every decision that would need it.
pool::WorkerStatus UnreadableWorker(const std::string& name);

}  // namespace mc::pool
