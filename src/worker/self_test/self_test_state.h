// Where the last self-test's report is kept between commands: `worker self-test` writes it to
// a state file, and `worker status` reads it back (with its age) into the status document's
// gpu.self_test block, the session cap and the per-job VRAM.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "common/base/result.h"
#include "worker/probe_contract/probe_contract.h"
#include "worker/probe_contract/worker_config.h"
#include "worker/self_test/self_test_report.h"

namespace mc::worker {

// DefaultStateDir is $XDG_STATE_HOME/peertube-worker when that is set, else
// /var/lib/peertube-worker/state.
std::string DefaultStateDir(const Environment& environment);

// SelfTestStatePath is the state file of one GPU in a state directory: one file per device,
// since one machine runs one worker per GPU.
std::string SelfTestStatePath(const std::string& state_dir, const std::string& device_name);

// SelfTestReportJson is the report as the state file keeps it and `worker self-test -o json`
// prints it: the status document's gpu.self_test keys and the CPU baseline.
nlohmann::json SelfTestReportJson(const SelfTestReport& report);

// SaveSelfTest writes the report (made atomically: a reader never sees half of it).
Result<void> SaveSelfTest(const std::string& path, const SelfTestReport& report);

// TestedGpuOf is the identity a report of `device` carries.
TestedGpu TestedGpuOf(const ContractDevice& device);

// LoadSelfTestOf reads the saved report of `device`, as LoadSelfTest does, and refuses one of
// another GPU or driver (invalid input naming both), a report from
// before reports named their GPU among them: its self-test must run again.
Result<SelfTestReport> LoadSelfTestOf(const std::string& path, const ContractDevice& device,
                                      std::chrono::system_clock::time_point now);

// LoadSelfTest reads a saved report and sets its age against `now`; a missing file is
// kNotFound, which means the self-test has not run.
Result<SelfTestReport> LoadSelfTest(const std::string& path,
                                    std::chrono::system_clock::time_point now);

}  // namespace mc::worker
