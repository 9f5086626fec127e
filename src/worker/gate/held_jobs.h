// The jobs a worker holds, kept in its state directory. A worker may be killed mid-job (SIGKILL,
// the OOM killer, a power cut). When it starts again, it gives the jobs back to PeerTube in
// seconds. Otherwise they would wait for PeerTube's stalled-job watchdog. The file holds each job's
// UUID and its job token. The token is the secret that aborts the job. So the file is mode 0600. It
// is written whole to a new file, which then replaces the old. A reader never sees half of it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::worker {

struct HeldJob {
  std::string uuid;
  // PeerTube's token of the job. A secret: it goes into no log line.
  std::string job_token;

  bool operator==(const HeldJob&) const = default;
};

// HeldJobsPath is the file in a state directory.
std::string HeldJobsPath(const std::string& state_dir);

// HeldJobsJson is the file's text: {"jobs": [{"uuid": ..., "jobToken": ...}]}.
std::string HeldJobsJson(const std::vector<HeldJob>& jobs);

// ParseHeldJobs reads the file's text. A wrong shape is invalid input naming its place.
Result<std::vector<HeldJob>> ParseHeldJobs(std::string_view text);

// ReadHeldJobs reads the file at `path`; no file is no jobs.
Result<std::vector<HeldJob>> ReadHeldJobs(const std::string& path);

// WriteHeldJobs replaces the file at `path` with `jobs`. It writes mode 0600, atomically and on
// disk.
Result<void> WriteHeldJobs(const std::string& path, const std::vector<HeldJob>& jobs);

}  // namespace mc::worker
