// A trace is a queue's history as JSON Lines, one line per runner job.
// A line holds when PeerTube created the job, its type, priority, shape and parent.
// A child becomes pending when its parent completes, as in PeerTube's job graph.
// The format is in docs/pool/simulator.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/job_class.h"

namespace mc::pool {

// One real run of a job, as a record states it.
// Every run but the last ended without completing the job.
// It ended in an error, or in an abort when the runner could not report to PeerTube.
// `again_s` says when PeerTube had the job pending again; 0 means as the run ended.
struct TraceRun {
  std::string worker;  // the worker that ran it
  double run_s = 0;    // how long it ran
  double again_s = 0;  // seconds from the trace's start
};

// The largest priority a trace or a record may state; PeerTube's are 100 and a little more.
inline constexpr int kMaxPriority = 1000000;

struct TraceJob {
  std::string id;
  double at_s = 0;  // created, in seconds from the trace's start
  std::string type = "vod-web-video-transcoding";
  int priority = 100;  // PeerTube's: lower is handed out first
  JobShape shape;
  std::string parent;  // the id of an earlier line; empty for a root job
  // The job's real runs, in order, where a record of a real run states them (a replay).
  // The simulator then plays each on its worker for its recorded time.
  // It skips its own speed model and accept race. Empty: modelled.
  std::vector<TraceRun> runs;
};

// Something that happens to the pool at a time of the trace, beside its jobs.
enum class TraceEventKind {
  kConfig,         // the policy's configuration changes: `config` holds the keys that change
  kSessions,       // another process holds `sessions` NVENC sessions of `worker`, for `for_s`
  kEvidenceFails,  // the next job `worker` completes fails its hardware-evidence check
  kProbeFails,     // `worker` probes and fails, and its probes fail for `for_s`
};

struct TraceEvent {
  TraceEventKind kind = TraceEventKind::kConfig;
  double at_s = 0;
  std::string worker;
  std::string config;  // JSON text of the configuration keys that change
  int sessions = 0;
  double for_s = 0;      // 0: for good
  std::size_t line = 0;  // the trace's line, for errors found later (a worker not in the pool)
};

struct Trace {
  std::vector<TraceJob> jobs;
  std::vector<TraceEvent> events;  // in the order of the trace's lines
  double horizon_s = 0;  // the simulated span ends no earlier than this; 0: at the last job
};

// ParseTrace reads JSON Lines; `file` names the input in errors, such as
// "burst.jsonl: line 3: resolution: expected an integer between 1 and 8640".
Result<Trace> ParseTrace(std::string_view text, const std::string& file = "trace");

std::string TraceToJsonl(const Trace& trace);

}  // namespace mc::pool
