// RunRecorder writes a `pool run`'s record (run_record.h) as the cycles come.
// It writes the header at once, then a line a cycle, each flushed.
// So a record read during the run, or after a kill, ends with the last whole cycle.
#pragma once

#include <fstream>
#include <set>
#include <string>

#include "common/base/result.h"
#include "pool/service/run_record.h"

namespace mc::pool {

class RunRecorder {
 public:
  // Open creates (or empties) `path` and writes the header.
  static Result<RunRecorder> Open(const std::string& path, const pool::PoolConfig& policy,
                                  pool::Duration queue_poll);

  // Write fills the cycle's seen and gone lists from the pending lists before it, and writes
  // its line; an error names the file.
  Result<void> Write(CycleRecord cycle);

  // SeenAndGone is the part of Write that compares this cycle's pending list with the last.
  static void SeenAndGone(CycleRecord& cycle, std::set<std::string>& pending);

 private:
  RunRecorder(std::string path, std::ofstream out) : path_(std::move(path)), out_(std::move(out)) {}

  std::string path_;
  std::ofstream out_;
  std::set<std::string> pending_;  // the ids pending at the last cycle
};

}  // namespace mc::pool
