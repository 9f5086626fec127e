// A trace is a queue's history as JSON Lines: one line per runner job, with when PeerTube
// created it, its type, priority and shape, and its parent. A child becomes pending when
// its parent completes, as in PeerTube's job graph. The format is in docs/pool.md.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "pool/job_class.h"

namespace mc::pool {

struct TraceJob {
  std::string id;
  double at_s = 0;  // created, in seconds from the trace's start
  std::string type = "vod-web-video-transcoding";
  int priority = 100;  // PeerTube's: lower is handed out first
  JobShape shape;
  std::string parent;  // the id of an earlier line; empty for a root job
  // How long the job really ran, where a record of a real run says so (a replay): the
  // simulator then takes this rather than its speed model. 0: modelled.
  double run_s = 0;
  // The one worker that takes the job, where a record says which worker really ran it (a
  // replay): PeerTube's accept race is then the real one. Empty: whichever free worker asks.
  std::string worker;
};

struct Trace {
  std::vector<TraceJob> jobs;
  double horizon_s = 0;  // the simulated span ends no earlier than this; 0: at the last job
};

// ParseTrace reads JSON Lines; `file` names the input in errors, such as
// "burst.jsonl: line 3: resolution: expected an integer between 1 and 8640".
Result<Trace> ParseTrace(std::string_view text, const std::string& file = "trace");

std::string TraceToJsonl(const Trace& trace);

}  // namespace mc::pool
