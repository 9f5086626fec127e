// The pool manager's policy against the autoscalers a user would pick instead, on the
// shipped traces and pool, printed as ratios measured in this one run; then its speed: one
// decision cycle for 10,000 workers, and a simulated day of 1,000 workers against real time.
// docs/pool/simulator.md explains every figure and where ours loses.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pool/policy/policy.h"
#include "pool/policy/simulator.h"
#include "pool/policy/trace_shapes.h"

namespace {

using mc::pool::PolicyKind;
using mc::pool::SimResult;

std::string ReadSource(const std::string& path) {
  std::ifstream in(std::string(MEDIA_CAP_SOURCE_DIR) + "/" + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

double Ratio(double ours, double theirs) {
  return theirs > 0 ? ours / theirs : (ours > 0 ? 1e9 : 1);
}

const char* Verdict(bool met) { return met ? "met" : "MISSED"; }

// Compares ours with the three baselines on every shipped trace; returns whether every
// target was met.
bool CompareOnShippedTraces() {
  std::printf("%-15s %7s %7s %7s %7s | %9s %9s %9s | %6s %6s | %s\n", "trace", "p95", "p95", "p95",
              "p95", "w-hours", "w-hours", "w-hours", "intr", "intr", "targets");
  std::printf("%-15s %7s %7s %7s %7s | %9s %9s %9s | %6s %6s |\n", "", "ours s", "hpa s", "arc s",
              "static", "ours/hpa", "ours/arc", "ours/on", "ours", "hpa");
  bool all_met = true;
  for (const mc::pool::TraceShapeInfo& shape : mc::pool::TraceShapes()) {
    const std::string trace_file = std::string("bench/pool/pool_traces/") + shape.name + ".jsonl";
    const char* workers_file = shape.shape == mc::pool::TraceShape::kFailingWorker
                                   ? "bench/pool/pool_traces/workers-failing.yaml"
                                   : "bench/pool/pool_traces/workers.yaml";
    auto trace = mc::pool::ParseTrace(ReadSource(trace_file), trace_file);
    auto workers = mc::pool::ParseWorkers(ReadSource(workers_file), workers_file);
    if (!trace || !workers) {
      std::fprintf(stderr, "%s\n", !trace ? trace.error().c_str() : workers.error().c_str());
      return false;
    }
    std::vector<SimResult> results;
    for (PolicyKind policy :
         {PolicyKind::kPoolManager, PolicyKind::kHpa, PolicyKind::kArc, PolicyKind::kStatic}) {
      mc::pool::SimOptions options;
      options.policy = policy;
      results.push_back(mc::pool::Simulate(*trace, *workers, options));
    }
    const SimResult& ours = results[0];
    const SimResult& hpa = results[1];
    const SimResult& arc = results[2];
    const SimResult& always_on = results[3];
    const bool wait_met = ours.wait_p95_s <= hpa.wait_p95_s;
    const bool hours_vs_hpa = ours.worker_hours <= 1.1 * hpa.worker_hours;
    const bool hours_vs_on = ours.worker_hours <= 0.8 * always_on.worker_hours;
    const bool no_interrupt = ours.interrupted == 0;
    all_met = all_met && wait_met && hours_vs_hpa && hours_vs_on && no_interrupt;
    std::printf(
        "%-15s %7.0f %7.0f %7.0f %7.0f | %9.2f %9.2f %9.2f | %6d %6d | p95<=hpa %s, "
        "hours<=1.1x hpa %s, <=0.8x on %s, 0 interrupted %s\n",
        shape.name, ours.wait_p95_s, hpa.wait_p95_s, arc.wait_p95_s, always_on.wait_p95_s,
        Ratio(ours.worker_hours, hpa.worker_hours), Ratio(ours.worker_hours, arc.worker_hours),
        Ratio(ours.worker_hours, always_on.worker_hours), ours.interrupted, hpa.interrupted,
        Verdict(wait_met), Verdict(hours_vs_hpa), Verdict(hours_vs_on), Verdict(no_interrupt));
  }
  return all_met;
}

// A pool of `count` workers, half ACTIVE and half SPARE, with learned weights and a queue
// deep enough that every rule of the cycle runs.
double DecisionCycleMs(int count) {
  mc::pool::PoolState state;
  mc::pool::Signals signals;
  const mc::pool::TimePoint now = mc::pool::At(86400);
  for (int i = 0; i < count; ++i) {
    mc::pool::WorkerRecord record;
    record.name = "gpu-" + std::to_string(i);
    record.state = i % 2 ? mc::pool::ManagerState::kSpare : mc::pool::ManagerState::kActive;
    record.since = mc::pool::At(0);
    record.jobs_completed_seen = 10;
    record.jobs_failed_seen = 0;
    for (auto& weight : record.weights) weight = {0.5 + (i % 17) / 10.0, 10};
    state.workers.push_back(record);
    mc::pool::WorkerStatus status;
    status.name = record.name;
    status.vendor = i % 5 ? "nvidia" : "intel";
    status.state =
        i % 2 ? mc::pool::AdmissionState::kDrained : mc::pool::AdmissionState::kAvailable;
    status.active_jobs = i % 2 ? 0 : 1;
    status.concurrency = 2;
    status.sessions_cap = 8;
    status.sessions_active = i % 9;
    status.vram_free_mb = 16000;
    status.realtime_factor_ewma = 2 + i % 7;
    status.download_mbps = 40 + i % 100;
    status.jobs_completed = 10;
    status.probe_age = mc::pool::Seconds(i % 400);
    signals.workers.push_back(status);
  }
  state.high_since = mc::pool::At(0);
  for (int j = 0; j < 2 * count; ++j) {
    mc::pool::PendingJob job;
    job.type = "vod-web-video-transcoding";
    job.shape.resolution = std::vector<int>{2160, 1440, 1080, 720, 480}[j % 5];
    job.shape.duration = mc::pool::Seconds(60 + j % 1200);
    job.age = mc::pool::Seconds(j % 600);
    signals.queue.pending.push_back(job);
  }
  const mc::pool::PoolConfig config;
  std::vector<double> runs;
  for (int run = 0; run < 15; ++run) {
    const auto start = std::chrono::steady_clock::now();
    const mc::pool::Decision decision = mc::pool::Decide(state, signals, now, config);
    runs.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    if (decision.state.workers.size() != state.workers.size()) return -1;
  }
  std::sort(runs.begin(), runs.end());
  return runs[runs.size() / 2];
}

// A simulated day of the diurnal shape for `count` workers, its uploads scaled to them.
void SimulatedDay(int count, double& wall_s, double& cpu_s, SimResult& result) {
  mc::pool::SimWorkerSpec spec;
  spec.name = "gpu";
  spec.concurrency = 2;
  spec.speed = 6;
  spec.capabilities.av1_dec = true;
  const auto workers = mc::pool::FleetOf(spec, count);
  const mc::pool::Trace trace =
      mc::pool::GenerateTrace(mc::pool::TraceShape::kDiurnal, 1, count / 8.0);
  mc::pool::SimOptions options;
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  result = mc::pool::Simulate(trace, workers, options);
  cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main() {
  std::printf("ours against the baselines on the shipped traces (bench/pool/pool_traces)\n\n");
  const bool compared = CompareOnShippedTraces();

  const double cycle_ms = DecisionCycleMs(10000);
  std::printf(
      "\none decision cycle, 10,000 workers, 20,000 pending jobs: %.2f ms (median of 15; "
      "target <= 10 ms: %s)\n",
      cycle_ms, Verdict(cycle_ms >= 0 && cycle_ms <= 10));

  double wall_s = 0, cpu_s = 0;
  SimResult day;
  SimulatedDay(1000, wall_s, cpu_s, day);
  const double speed_up = day.simulated_s / wall_s;
  std::printf(
      "a simulated day, 1,000 workers, %d jobs: %.2f s of wall time (%.2f s of CPU) for "
      "%.0f s simulated = %.0fx real time (target >= 10,000x: %s); p95 wait %.0f s, "
      "%d interrupted\n",
      day.jobs, wall_s, cpu_s, day.simulated_s, speed_up, Verdict(speed_up >= 10000),
      day.wait_p95_s, day.interrupted);
  std::printf("\nall targets met: %s\n",
              compared && cycle_ms <= 10 && speed_up >= 10000 ? "yes" : "no");
  return 0;
}
