// Where the last self-test's report is kept between commands. `worker self-test` writes it
// to a state file. `worker status` reads it back, with its age, into the status document:
//  - the gpu.self_test block;
//  - the session cap;
//  - the per-job VRAM.
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

// SelfTestStatePath is the state file of one GPU in a state directory. There is one file per
// device, since one machine runs one worker per GPU.
std::string SelfTestStatePath(const std::string& state_dir, const std::string& device_name);

// SelfTestReportJson is the report as the state file keeps it. `worker self-test -o json`
// prints the same. It holds the status document's gpu.self_test keys and the CPU baseline.
nlohmann::json SelfTestReportJson(const SelfTestReport& report);

// SaveSelfTest writes the report (made atomically: a reader never sees half of it).
Result<void> SaveSelfTest(const std::string& path, const SelfTestReport& report);

// TestedGpuOf is the identity a report of `device` carries.
TestedGpu TestedGpuOf(const ContractDevice& device);

// LoadSelfTestOf reads the saved report of `device`, as LoadSelfTest does. It refuses a report
// of another GPU, board (PCI address or subsystem ids) or driver, and names both. An old
// report that names no GPU or board is refused too: the self-test must run again.
Result<SelfTestReport> LoadSelfTestOf(const std::string& path, const ContractDevice& device,
                                      std::chrono::system_clock::time_point now);

// LoadSelfTest reads a saved report and sets its age against `now`; a missing file is
// kNotFound, which means the self-test has not run.
Result<SelfTestReport> LoadSelfTest(const std::string& path,
                                    std::chrono::system_clock::time_point now);

}  // namespace mc::worker
