// The record of a `pool run`: one line of JSON a cycle.
// A line holds everything the policy was given and everything it decided.
// So the run can be replayed (docs/pool/operating.md, "The record").
// A first line states the policy's configuration and the queue's poll.
// Each cycle line states:
//  - the time;
//  - the queue signal as the policy saw it;
//  - each worker's status document as read, or why it could not be;
//  - the actions and reasons;
//  - the jobs first seen and gone that cycle.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/config.h"
#include "pool/policy/decision.h"
#include "pool/policy/signals.h"

namespace mc::pool {

// One worker as the service read it in one cycle.
struct RecordedWorker {
  std::string name;
  bool wakeable = false;  // from the inventory, not the document
  std::string document;   // the status document as read (compact JSON); empty when lost
  std::string lost;       // why no document could be had; empty when one was
};

struct CycleRecord {
  double t_s = 0;  // seconds since the epoch
  pool::QueueSignal queue;
  std::vector<RecordedWorker> workers;
  std::vector<pool::Action> actions;
  std::vector<pool::Reason> reasons;
  double pressure = 0;
  int capacity_slots = 0;
  int demand = 0;
  std::vector<std::string> seen;  // the jobs pending for the first time this cycle
  std::vector<std::string> gone;  // the jobs pending last cycle and no longer
};

// A job of the record, put together from the cycles that list it.
struct RecordedJob {
  std::string id;
  std::string type;
  pool::JobShape shape;
  // PeerTube's priority, as first listed; empty in a record that lacks it.
  std::optional<int> priority;
  double created_s = 0;        // when PeerTube made it pending first: first seen less its age
  std::vector<double> seen_s;  // each time it became pending (a retried job: more than once)
  std::vector<double> gone_s;  // each time it left the list (taken by a runner)
};

struct RunRecord {
  pool::PoolConfig policy;
  std::string policy_yaml;  // as the first line states it
  pool::Duration queue_poll = pool::Seconds(15);
  std::vector<CycleRecord> cycles;
  std::vector<RecordedJob> jobs;  // in the order they were first seen
};

// The line that opens a record.
std::string RecordHeaderLine(const pool::PoolConfig& policy, pool::Duration queue_poll);
// One cycle's line, without its newline.
std::string CycleLine(const CycleRecord& cycle);

// ParseRunRecord reads a record; `file` names it in errors, such as
// "run.jsonl: line 4: workers[1].document: e2e:gpu1: status: state: expected a string".
Result<RunRecord> ParseRunRecord(std::string_view text, const std::string& file = "record");

// The signals of a recorded cycle, as the service gave them to the policy.
// The service's own reader reads each document again; a lost one is unreadable.
Result<pool::Signals> SignalsOf(const CycleRecord& cycle);

}  // namespace mc::pool
