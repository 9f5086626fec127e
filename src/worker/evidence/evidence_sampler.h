// The evidence sampler. While a job's process tree runs, it reads each source at a fixed rate (1 Hz
// by default). It reads what each shows of the tree's own PIDs:
// - NVML's per-process utilisation and encoder sessions, on NVIDIA;
// - the DRM fdinfo of the tree's open DRM files, on Intel and AMD;
// - the tree's CPU time.
// JudgeEvidence and JudgePlausibility judge the record it keeps.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "worker/evidence/evidence.h"
#include "worker/evidence/nvml_library.h"
#include "worker/probe_contract/sandbox.h"

namespace mc::worker {

struct SamplerOptions {
  std::string proc_root = "/proc";
  std::chrono::milliseconds interval{1000};
  // The NVIDIA GPU whose NVML samples to read, canonical. Empty for a GPU without NVML.
  std::string nvidia_pci_address;
  // The NVML library to load; tests name a fake.
  std::string nvml_library = "libnvidia-ml.so.1";
  // Whether to read the tree's DRM fdinfo. For Intel and AMD; harmless elsewhere.
  bool read_drm = true;
  // The sandbox RunSampled starts the command in. None starts it unboxed.
  const Sandbox* sandbox = nullptr;
  // When set and true, RunSampled kills the command's process group at once: the worker is
  // stopping. None runs it to its end or its deadline.
  const std::atomic<bool>* stop = nullptr;
};

class EvidenceSampler {
 public:
  explicit EvidenceSampler(SamplerOptions options);
  ~EvidenceSampler();
  EvidenceSampler(const EvidenceSampler&) = delete;
  EvidenceSampler& operator=(const EvidenceSampler&) = delete;

  // Sample reads every source once for the tree under root_pid.
  void Sample(int root_pid);
  // SampleCpu reads only the tree's CPU time. It is for the moment after the root exited, before it
  // is reaped. Its final times are then still in its stat.
  void SampleCpu(int root_pid);
  EvidenceRecord Record() const;

 private:
  SamplerOptions options_;
  std::unique_ptr<NvmlLibrary> nvml_;
  void* nvml_device_ = nullptr;
  std::uint64_t nvml_last_seen_us_ = 0;
  EvidenceRecord record_;
  std::map<std::string, MediaEngineTime> drm_clients_;
  std::chrono::steady_clock::time_point started_;
  std::vector<int> last_tree_;
};

// SampledRun is a command run under the sampler.
struct SampledRun {
  // The exit status. -1 when the command was killed or could not start.
  int exit_code = -1;
  bool timed_out = false;
  // Stopped with SIGINT once the evidence settled the question. Its exit status is then ffmpeg's
  // for an interrupted run, not a failure.
  bool stopped = false;
  // Killed since the worker is stopping (SamplerOptions::stop).
  bool cancelled = false;
  // Why it could not start, or what killed it.
  std::string failure;
  EvidenceRecord record;
};

// Whether the record so far settles what the run is for. If so, the run may stop.
using EnoughEvidence = std::function<bool(const EvidenceRecord&)>;

// RunSampled starts argv; argv[0] is looked up on PATH. Its stdout and stderr go to `log_path`, or
// /dev/null when empty. It samples the command until it exits or the deadline passes. At the
// deadline it kills the process group. With `enough`, a sample after which it holds interrupts the
// command. That is SIGINT, on which ffmpeg ends its output and exits.
SampledRun RunSampled(const std::vector<std::string>& argv, const SamplerOptions& options,
                      std::chrono::milliseconds deadline, const std::string& log_path = "",
                      const EnoughEvidence& enough = {});

}  // namespace mc::worker
