// The pool manager's policy against the autoscalers a user would pick instead, on the
// shipped traces and pool, printed as ratios measured in this one run; then its speed: one
// decision cycle for 10,000 workers, and a simulated day of 1,000 workers against real time.
// docs/pool/sizing.md explains every figure and where ours loses.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "pool/policy/config.h"
#include "pool/policy/policy.h"
#include "pool/simulator/frontier.h"
#include "pool/simulator/simulator.h"
#include "pool/trace/trace_shapes.h"

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

struct ShippedTrace {
  mc::pool::Trace trace;
  std::vector<mc::pool::SimWorkerSpec> workers;
};

// LoadShipped reads a shape's shipped trace and the workers file it runs on; an error is said
// on stderr.
std::optional<ShippedTrace> LoadShipped(const mc::pool::TraceShapeInfo& shape) {
  const std::string trace_file = std::string("bench/pool/pool_traces/") + shape.name + ".jsonl";
  const char* workers_file = shape.shape == mc::pool::TraceShape::kFailingWorker
                                 ? "bench/pool/pool_traces/workers-failing.yaml"
                                 : "bench/pool/pool_traces/workers.yaml";
  auto trace = mc::pool::ParseTrace(ReadSource(trace_file), trace_file);
  auto workers = mc::pool::ParseWorkers(ReadSource(workers_file), workers_file);
  if (!trace || !workers) {
    std::fprintf(stderr, "%s\n",
                 !trace ? trace.error_message().c_str() : workers.error_message().c_str());
    return std::nullopt;
  }
  return ShippedTrace{*std::move(trace), *std::move(workers)};
}

// One policy's run of one trace, under its name in the table.
struct Run {
  const char* name;
  SimResult result;
};

// Says whether ours' frontier beats a baseline's point on both axes: at its p95 wait, fewer
// worker-hours; at its worker-hours, a p95 wait at most its own. Half a second of slack on the
// waits, since the simulator steps by a second.
bool BeatsOnBoth(const std::vector<mc::pool::FrontierPoint>& frontier, const SimResult& theirs,
                 std::string& said) {
  const std::optional<double> hours = mc::pool::HoursAtWait(frontier, theirs.wait_p95_s + 0.5);
  const std::optional<double> wait = mc::pool::WaitAtHours(frontier, theirs.worker_hours);
  const bool hours_met = hours && *hours < theirs.worker_hours;
  const bool wait_met = wait && *wait <= theirs.wait_p95_s + 0.5;
  // A point of ours, or "none" where no point of the frontier qualifies.
  const auto figure = [](std::optional<double> value, const char* format) {
    char out[32] = "none";
    if (value) std::snprintf(out, sizeof out, format, *value);
    return std::string(out);
  };
  char text[160];
  std::snprintf(text, sizeof text, "at its %.0f s, %s h (its %.2f) %s; at its %.2f h, %s s %s",
                theirs.wait_p95_s, figure(hours, "%.2f").c_str(), theirs.worker_hours,
                Verdict(hours_met), theirs.worker_hours, figure(wait, "%.0f").c_str(),
                Verdict(wait_met));
  said = text;
  return hours_met && wait_met;
}

// Compares ours with the baselines, the design's own rules and the clairvoyant limit on every
// shipped trace: ours as a frontier over the target waits, the others as points. Returns
// whether every target was met.
bool CompareOnShippedTraces() {
  bool all_met = true;
  std::printf("%-15s %-12s %8s %8s %8s %6s\n", "trace", "policy", "p95 s", "w-hours", "busy h",
              "intr");
  const std::vector<mc::pool::Duration> waits = mc::pool::DefaultTargetWaits();
  for (const mc::pool::TraceShapeInfo& shape : mc::pool::TraceShapes()) {
    const std::optional<ShippedTrace> shipped = LoadShipped(shape);
    if (!shipped) return false;
    const mc::pool::Trace* trace = &shipped->trace;
    const std::vector<mc::pool::SimWorkerSpec>* workers = &shipped->workers;
    const auto simulate = [&](PolicyKind policy, mc::pool::PolicyProfile profile,
                              double bound_wait_s) {
      mc::pool::SimOptions options;
      options.policy = policy;
      options.config.profile = profile;
      options.bound_wait_s = bound_wait_s;
      return mc::pool::Simulate(*trace, *workers, options);
    };
    const auto work_aware = mc::pool::PolicyProfile::kWorkAware;
    const std::vector<mc::pool::FrontierPoint> frontier =
        mc::pool::SimulateFrontier(*trace, *workers, mc::pool::SimOptions{}, waits);
    const SimResult ours = simulate(PolicyKind::kPoolManager, work_aware, 0);
    std::vector<Run> runs;
    runs.push_back(
        {"design", simulate(PolicyKind::kPoolManager, mc::pool::PolicyProfile::kDesign, 0)});
    runs.push_back({"hpa", simulate(PolicyKind::kHpa, work_aware, 0)});
    runs.push_back({"keda", simulate(PolicyKind::kKeda, work_aware, 0)});
    runs.push_back({"arc", simulate(PolicyKind::kArc, work_aware, 0)});
    runs.push_back({"static", simulate(PolicyKind::kStatic, work_aware, 0)});
    // The limit at ours' p95 under the default target: every job's wait kept under it, with
    // the fewest worker-hours.
    runs.push_back(
        {"bound", simulate(PolicyKind::kBound, work_aware, std::max(1.0, ours.wait_p95_s))});
    int interrupted = 0;
    for (const mc::pool::FrontierPoint& point : frontier) {
      const std::string name = "ours " + mc::pool::FormatDuration(point.target_wait);
      std::printf("%-15s %-12s %8.0f %8.2f %8.2f %6d\n", shape.name, name.c_str(),
                  point.result.wait_p95_s, point.result.worker_hours, point.result.busy_hours,
                  point.result.interrupted);
      interrupted += point.result.interrupted;
    }
    for (const Run& run : runs) {
      std::printf("%-15s %-12s %8.0f %8.2f %8.2f %6d\n", shape.name, run.name,
                  run.result.wait_p95_s, run.result.worker_hours, run.result.busy_hours,
                  run.result.interrupted);
    }
    const SimResult& bound = runs[5].result;
    std::string against_hpa, against_keda;
    const bool hpa_met = BeatsOnBoth(frontier, runs[1].result, against_hpa);
    const bool keda_met = BeatsOnBoth(frontier, runs[2].result, against_keda);
    const bool bound_met = ours.worker_hours <= 1.3 * bound.worker_hours;
    const bool no_interrupt = interrupted == 0;
    all_met = all_met && hpa_met && keda_met && bound_met && no_interrupt;
    std::printf(
        "%-15s targets: hpa %s: %s; keda %s: %s; default hours <= 1.3x bound %s (%.2fx); "
        "0 interrupted %s\n\n",
        shape.name, Verdict(hpa_met), against_hpa.c_str(), Verdict(keda_met), against_keda.c_str(),
        Verdict(bound_met), Ratio(ours.worker_hours, bound.worker_hours), Verdict(no_interrupt));
  }
  return all_met;
}

// The same comparison over five race orders (the random order in which free runners ask): a
// target met in one order only is noise. Prints, per trace, each policy's range (ours at the
// default target wait) and in how many orders ours' frontier beat the HPA-like and the
// KEDA-like policies on both axes.
void CompareOverRaceOrders() {
  constexpr std::uint32_t kOrders = 5;
  std::printf("\nover %u race orders: p95 wait and worker-hours, lowest to highest\n", kOrders);
  std::printf("%-15s %-17s %-17s %-17s %-17s %-17s %-17s | %s\n", "trace", "ours p95 s",
              "hpa p95 s", "keda p95 s", "ours hours", "hpa hours", "keda hours",
              "orders the frontier beats: hpa, keda");
  const std::vector<mc::pool::Duration> waits = mc::pool::DefaultTargetWaits();
  for (const mc::pool::TraceShapeInfo& shape : mc::pool::TraceShapes()) {
    const std::optional<ShippedTrace> shipped = LoadShipped(shape);
    if (!shipped) return;
    const PolicyKind policies[] = {PolicyKind::kPoolManager, PolicyKind::kHpa, PolicyKind::kKeda};
    std::vector<std::vector<SimResult>> runs(3);
    int hpa_wins = 0;
    int keda_wins = 0;
    for (std::uint32_t order = 1; order <= kOrders; ++order) {
      mc::pool::SimOptions options;
      options.race_order = order;
      for (std::size_t k = 0; k < 3; ++k) {
        options.policy = policies[k];
        runs[k].push_back(mc::pool::Simulate(shipped->trace, shipped->workers, options));
      }
      const std::vector<mc::pool::FrontierPoint> frontier =
          mc::pool::SimulateFrontier(shipped->trace, shipped->workers, options, waits);
      std::string said;
      hpa_wins += BeatsOnBoth(frontier, runs[1].back(), said);
      keda_wins += BeatsOnBoth(frontier, runs[2].back(), said);
    }
    const auto range = [](const std::vector<SimResult>& results, bool hours) {
      double low = 1e18, high = 0;
      for (const SimResult& r : results) {
        const double value = hours ? r.worker_hours : r.wait_p95_s;
        low = std::min(low, value);
        high = std::max(high, value);
      }
      char text[32];
      std::snprintf(text, sizeof text, hours ? "%.2f-%.2f" : "%.0f-%.0f", low, high);
      return std::string(text);
    };
    std::printf("%-15s %-17s %-17s %-17s %-17s %-17s %-17s | %u of %u, %u of %u\n", shape.name,
                range(runs[0], false).c_str(), range(runs[1], false).c_str(),
                range(runs[2], false).c_str(), range(runs[0], true).c_str(),
                range(runs[1], true).c_str(), range(runs[2], true).c_str(), hpa_wins, kOrders,
                keda_wins, kOrders);
  }
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
  CompareOverRaceOrders();

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
  const bool all_met = compared && cycle_ms <= 10 && speed_up >= 10000;
  std::printf("\nall targets met: %s\n", all_met ? "yes" : "no");
  if (!all_met) {
    std::printf(
        "why a target is missed, by how much: docs/measurements/pool-vs-autoscalers.md, "
        "\"Where a target is missed\"\n");
  }
  return 0;
}
