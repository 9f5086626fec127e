#include "pool/service/run_recorder.h"

namespace mc::pool {

Result<RunRecorder> RunRecorder::Open(const std::string& path, const pool::PoolConfig& policy,
                                      pool::Duration queue_poll) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Unavailable(path + ": the record cannot be written");
  out << RecordHeaderLine(policy, queue_poll) << "\n" << std::flush;
  if (!out) return Unavailable(path + ": the record cannot be written");
  return RunRecorder(path, std::move(out));
}

void RunRecorder::SeenAndGone(CycleRecord& cycle, std::set<std::string>& pending) {
  std::set<std::string> now;
  for (const pool::PendingJob& job : cycle.queue.pending) {
    // A job PeerTube lists without a uuid cannot be followed from one cycle to the next.
    if (job.id.empty() || !now.insert(job.id).second) continue;
    if (!pending.count(job.id)) cycle.seen.push_back(job.id);
  }
  for (const std::string& id : pending) {
    if (!now.count(id)) cycle.gone.push_back(id);
  }
  pending = std::move(now);
}

Result<void> RunRecorder::Write(CycleRecord cycle) {
  // Between two reads of the queue the service repeats the last list.
  // A job is only seen or gone at a read. So a repeated list compares as unchanged.
  SeenAndGone(cycle, pending_);
  out_ << CycleLine(cycle) << "\n" << std::flush;
  if (!out_) return Unavailable(path_ + ": the record's cycle line could not be written");
  return {};
}

}  // namespace mc::pool
