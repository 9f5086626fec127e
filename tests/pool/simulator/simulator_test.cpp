// The simulator's invariants on every generated trace and every policy: each job completes
// or is reported unservable, none is lost, ours interrupts none; and the behaviours each
// shape is there to show.
#include "pool/simulator/simulator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "pool/simulator/sim_report.h"
#include "pool/trace/trace_shapes.h"
#include "source_file.h"

namespace mc::pool {
namespace {

using testing::SourceFile;

std::vector<SimWorkerSpec> ShippedWorkers(const char* file = "workers.yaml") {
  Result<std::vector<SimWorkerSpec>> workers =
      ParseWorkers(SourceFile(std::string("bench/pool/pool_traces/") + file), file);
  EXPECT_TRUE(workers) << workers.error_message();
  return workers ? *workers : std::vector<SimWorkerSpec>{};
}

SimResult RunShape(TraceShape shape, PolicyKind policy) {
  SimOptions options;
  options.policy = policy;
  const char* workers =
      shape == TraceShape::kFailingWorker ? "workers-failing.yaml" : "workers.yaml";
  return Simulate(GenerateTrace(shape), ShippedWorkers(workers), options);
}

constexpr PolicyKind kPolicies[] = {PolicyKind::kPoolManager, PolicyKind::kHpa,
                                    PolicyKind::kKeda,        PolicyKind::kArc,
                                    PolicyKind::kStatic,      PolicyKind::kBound};

TEST(Simulator, EveryJobOfEveryShapeCompletesOrIsReportedUnservableUnderEveryPolicy) {
  for (const TraceShapeInfo& shape : TraceShapes()) {
    for (PolicyKind policy : kPolicies) {
      // A day under ARC (a runner a job), always-on or the limit adds a tenth of a second and
      // no case the shorter shapes lack.
      const bool day_long = GenerateTrace(shape.shape).horizon_s >= 86400;
      if (day_long && (policy == PolicyKind::kArc || policy == PolicyKind::kStatic ||
                       policy == PolicyKind::kBound)) {
        continue;
      }
      const SimResult result = RunShape(shape.shape, policy);
      const std::string where =
          std::string(shape.name) + " under " + std::string(PolicyKindName(policy));
      EXPECT_GT(result.jobs, 0) << where;
      EXPECT_EQ(result.completed + result.unservable, result.jobs) << where;
      EXPECT_EQ(result.unfinished, 0) << where;
      EXPECT_EQ(result.errored, 0) << where;
      EXPECT_GE(result.wait_p95_s, result.wait_p50_s) << where;
      EXPECT_GE(result.wait_max_s, result.wait_p95_s) << where;
      EXPECT_GE(result.worker_hours + 1e-9, result.busy_hours) << where;
      EXPECT_FALSE(result.pressure.empty()) << where;
    }
  }
}

TEST(Simulator, OursInterruptsNoJobOnAnyShape) {
  for (const TraceShapeInfo& shape : TraceShapes()) {
    const SimResult result = RunShape(shape.shape, PolicyKind::kPoolManager);
    EXPECT_EQ(result.interrupted, 0) << shape.name;
    EXPECT_EQ(result.promotions >= result.demotions, true) << shape.name;
  }
}

TEST(Simulator, TheHpaKillsRunningJobsWhenItScalesDownOnADay) {
  EXPECT_GT(RunShape(TraceShape::kDiurnal, PolicyKind::kHpa).interrupted, 0);
}

TEST(Simulator, TheUnservable4kJobIsReportedAndKeepsNoWorkerAwake) {
  const SimResult result = RunShape(TraceShape::kUnservable4k, PolicyKind::kPoolManager);
  EXPECT_EQ(result.unservable, 1);
  ASSERT_EQ(result.unservable_ids.size(), 1u);
  EXPECT_EQ(result.unservable_ids[0], "av1-4k");
  // The other uploads are served and their workers let go: the trace ends at min_active.
  ASSERT_FALSE(result.pressure.empty());
  EXPECT_EQ(result.pressure.back().workers_on, 1);
  EXPECT_LE(result.worker_hours,
            RunShape(TraceShape::kUnservable4k, PolicyKind::kHpa).worker_hours);
}

TEST(Simulator, TheUnservable4kJobPromotesNobodyUnderTheDesignsRules) {
  SimOptions options;
  options.config.profile = PolicyProfile::kDesign;
  const SimResult result =
      Simulate(GenerateTrace(TraceShape::kUnservable4k), ShippedWorkers(), options);
  EXPECT_EQ(result.unservable, 1);
  EXPECT_EQ(result.promotions, 0);
  EXPECT_NEAR(result.worker_hours, 2.0, 0.05);  // min_active for the trace's two hours
}

TEST(Simulator, AFailingWorkersJobsAreRetriedElsewhere) {
  const SimResult result = RunShape(TraceShape::kFailingWorker, PolicyKind::kPoolManager);
  EXPECT_GT(result.retries, 0);
  EXPECT_EQ(result.completed, result.jobs);
  EXPECT_EQ(result.interrupted, 0);
}

TEST(Simulator, ANightUnderOursCostsOnlyMinActive) {
  const SimResult ours = RunShape(TraceShape::kNight, PolicyKind::kPoolManager);
  const SimResult always_on = RunShape(TraceShape::kNight, PolicyKind::kStatic);
  EXPECT_NEAR(ours.worker_hours, 8.0, 0.05);
  EXPECT_LE(ours.worker_hours, 0.8 * always_on.worker_hours);
}

TEST(Simulator, TheQueueSignalLostForTenMinutesScalesNothingDown) {
  SimOptions options;
  options.keep_log = true;
  const SimResult kept = Simulate(GenerateTrace(TraceShape::kBurst), ShippedWorkers(), options);
  options.queue_outages = {{1500.0, 600.0}};
  const SimResult lost = Simulate(GenerateTrace(TraceShape::kBurst), ShippedWorkers(), options);
  // Without the outage the pool lets workers go inside that window; with it, it holds.
  const auto releases = [](const SimResult& result) {
    return std::count_if(result.actions.begin(), result.actions.end(), [](const TimedAction& a) {
      return a.t_s >= 1500 && a.t_s < 2100 && a.action.kind == ActionKind::kDrain;
    });
  };
  EXPECT_GT(releases(kept), 0);
  EXPECT_EQ(releases(lost), 0) << "a worker was let go while the queue was lost";
  EXPECT_EQ(lost.interrupted, 0);
  EXPECT_EQ(lost.completed, lost.jobs);
  EXPECT_GT(lost.worker_hours, kept.worker_hours);
}

TEST(Simulator, TheJsonOfARunWithItsLogHoldsEveryActionWithItsStatesAndWhoRanEachJob) {
  SimOptions options;
  options.keep_log = true;
  const SimResult result = Simulate(GenerateTrace(TraceShape::kNight), ShippedWorkers(), options);
  const nlohmann::json json = nlohmann::json::parse(ResultJson(result));
  ASSERT_TRUE(json.contains("actions")) << ResultJson(result);
  ASSERT_EQ(json["actions"].size(), result.actions.size());
  ASSERT_FALSE(json["actions"].empty());
  const nlohmann::json& first = json["actions"][0];
  EXPECT_EQ(first["id"], 1);
  EXPECT_EQ(first["kind"], "enable");
  EXPECT_EQ(first["before"], "SPARE");
  EXPECT_EQ(first["after"], "ACTIVE");
  EXPECT_FALSE(first["text"].get<std::string>().empty());
  int completed_runs = 0;
  for (const nlohmann::json& run : json["runs"]) completed_runs += run["outcome"] == "completed";
  EXPECT_EQ(completed_runs, result.completed);
  EXPECT_FALSE(json["reasons"].empty());
}

TEST(Simulator, TheComparisonHasARowForEachPolicyRun) {
  std::vector<NamedResult> runs;
  runs.push_back({"ours", RunShape(TraceShape::kNight, PolicyKind::kPoolManager)});
  runs.push_back({"keda", RunShape(TraceShape::kNight, PolicyKind::kKeda)});
  const std::string table = CompareTable(runs);
  EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3) << table;
  EXPECT_NE(table.find("\nkeda "), std::string::npos) << table;
  EXPECT_EQ(nlohmann::json::parse(CompareJson(runs)).size(), 2u);
}

// A trace of ten 5-minute uploads with `events` appended, on the shipped pool, under ours.
SimResult RunWithEvents(const std::string& events) {
  Trace trace = GenerateTrace(TraceShape::kBurst, 1, 0.2);
  Result<Trace> parsed = ParseTrace(TraceToJsonl(trace) + events, "events");
  EXPECT_TRUE(parsed) << parsed.error_message();
  SimOptions options;
  options.keep_log = true;
  return Simulate(parsed ? *parsed : trace, ShippedWorkers(), options);
}

bool LogSays(const SimResult& result, const std::string& words) {
  return std::any_of(result.log.begin(), result.log.end(), [&](const std::string& line) {
    return line.find(words) != std::string::npos;
  });
}

TEST(Simulator, AConfigEventDisablingAVendorDrainsItsWorkersAndTheJobsFinishElsewhere) {
  const SimResult result =
      RunWithEvents(R"({"event":"config","at":200,"set":{"vendor_disabled":["nvidia"]}})"
                    "\n");
  EXPECT_TRUE(LogSays(result, "vendor nvidia is disabled")) << result.log.size();
  EXPECT_EQ(result.interrupted, 0);
  EXPECT_EQ(result.completed, result.jobs);
  for (const JobRunRecord& run : result.runs) {
    if (run.start_s > 300) {
      EXPECT_EQ(run.worker.rfind("qsv", 0), 0u) << run.job << " " << run.worker;
    }
  }
}

TEST(Simulator, OneJobsFailedEvidenceCheckDrainsItsWorkerAndTheJobIsRetried) {
  const SimResult quiet = RunWithEvents("");
  const SimResult result = RunWithEvents(R"({"event":"evidence-fails","at":0,"worker":"rtx-1"})"
                                         "\n");
  EXPECT_EQ(quiet.retries, 0);
  EXPECT_EQ(result.retries, 1);
  EXPECT_TRUE(LogSays(result, "rtx-1 drained at once: a job finished without hardware evidence"));
  EXPECT_EQ(result.completed, result.jobs);
}

TEST(Simulator, AProbeThatFailsKeepsItsWorkerFromBeingPromoted) {
  const SimResult result =
      RunWithEvents(R"({"event":"probe-fails","at":0,"worker":"rtx-2","for":3000})"
                    "\n");
  EXPECT_TRUE(LogSays(result, "rtx-2 not promoted: its last probe failed"));
  for (const TimedAction& action : result.actions) {
    if (action.action.kind == ActionKind::kEnable) {
      EXPECT_NE(action.action.worker, "rtx-2");
    }
  }
}

TEST(Simulator, SessionsHeldByAnotherProcessShiftSmallJobsToVaapi) {
  const SimResult result =
      RunWithEvents(R"({"event":"sessions","at":0,"worker":"rtx-1","held":7,"for":3000})"
                    "\n");
  EXPECT_TRUE(LogSays(result, "rtx-1 takes no S or M jobs for now: NVENC sessions"));
}

TEST(Simulator, ARunIsTheSameEveryTime) {
  const SimResult a = RunShape(TraceShape::kBurst, PolicyKind::kPoolManager);
  const SimResult b = RunShape(TraceShape::kBurst, PolicyKind::kPoolManager);
  EXPECT_EQ(a.wait_p95_s, b.wait_p95_s);
  EXPECT_EQ(a.worker_hours, b.worker_hours);
  EXPECT_EQ(a.promotions, b.promotions);
}

TEST(Simulator, AChildBecomesPendingOnlyWhenItsParentCompletes) {
  Trace trace;
  AddUpload(trace, "v", 0, 480, 60);
  SimWorkerSpec worker;
  worker.name = "w";
  worker.concurrency = 8;
  SimOptions options;
  options.policy = PolicyKind::kStatic;
  const SimResult result = Simulate(trace, {worker}, options);
  EXPECT_EQ(result.completed, 6);
  // Eight slots stand free, so no job waits in the queue; yet the upload takes longer than
  // its root alone, since the children start only once the root has completed.
  EXPECT_EQ(result.wait_max_s, 0);
  Trace root_only = trace;
  root_only.jobs.resize(1);
  EXPECT_GT(result.makespan_s, Simulate(root_only, {worker}, options).makespan_s);
}

TEST(Simulator, AJobNoWorkerCanRunAtAllIsUnservableWithItsChildren) {
  Trace trace;
  AddUpload(trace, "v", 0, 2160, 60);  // 2160p root and its ladder
  SimWorkerSpec worker;
  worker.name = "w";
  worker.capabilities.max_height = 1080;
  const SimResult result = Simulate(trace, {worker}, SimOptions{});
  EXPECT_EQ(result.completed, 0);
  EXPECT_EQ(result.unservable, result.jobs);
}

TEST(Report, TheJsonHoldsEveryMeasureAndThePlotIsAnSvgOfTheSeries) {
  const SimResult result = RunShape(TraceShape::kBurst, PolicyKind::kPoolManager);
  const nlohmann::json json = nlohmann::json::parse(ResultJson(result));
  EXPECT_EQ(json["policy"], "ours");
  EXPECT_EQ(json["interrupted"], 0);
  EXPECT_DOUBLE_EQ(json["wait_p95_s"].get<double>(), result.wait_p95_s);
  EXPECT_EQ(json["pressure_series"]["rows"].size(), result.pressure.size());
  const std::string svg = PressurePlot(result, "burst <ours>");
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_NE(svg.find("burst &lt;ours&gt;"), std::string::npos);
  EXPECT_NE(ResultTable(result).find("interrupted       0"), std::string::npos)
      << ResultTable(result);
}

TEST(Baselines, TheHpaHoldsWithinItsToleranceAndScalesDownOnlyAfterItsWindow) {
  HpaOptions options;
  HpaState state;
  EXPECT_EQ(HpaDesired(state, 0, 20, 1, 10, options), 5);  // +max(4 pods, 100 %) a sync
  EXPECT_EQ(HpaDesired(state, 15, 20, 5, 10, options), 10);
  EXPECT_EQ(HpaDesired(state, 30, 21, 10, 10, options), 10);  // ratio 1.05: within tolerance
  EXPECT_EQ(HpaDesired(state, 45, 0, 10, 10, options), 10);   // the window remembers 10
  EXPECT_EQ(HpaDesired(state, 346, 0, 10, 10, options), 1);   // 300 s later it does not
}

TEST(Baselines, KedaScalesUpAtOnceAndDownOnlyAfterItsCooldown) {
  KedaOptions options;
  KedaState state;
  EXPECT_EQ(KedaDesired(state, 0, 20, 1, 10, options), 10);   // ceil(20 / 2), no step limit
  EXPECT_EQ(KedaDesired(state, 30, 3, 10, 10, options), 10);  // asks for 2: cooling down
  EXPECT_EQ(KedaDesired(state, 300, 3, 10, 10, options), 10);
  EXPECT_EQ(KedaDesired(state, 330, 3, 10, 10, options), 2);  // 10 was asked for 330 s ago
  EXPECT_EQ(KedaDesired(state, 360, 0, 2, 10, options), 2);   // 2 was asked for until 330 s
  EXPECT_EQ(KedaDesired(state, 660, 0, 2, 10, options), 1);   // down to its floor
}

TEST(Baselines, TheClairvoyantLimitKeepsWaitsUnderItsTargetWhereThePoolCanAndInterruptsNothing) {
  SimOptions options;
  options.policy = PolicyKind::kBound;
  options.bound_wait_s = 30;
  const SimResult result = Simulate(GenerateTrace(TraceShape::kNight), ShippedWorkers(), options);
  EXPECT_EQ(result.completed, result.jobs);
  EXPECT_LE(result.wait_max_s, 30 + 2);  // a job's wait, up to the step and the enable
  EXPECT_EQ(result.interrupted, 0);
  // Only min_active and the workers its jobs needed: a night is some 8 worker-hours.
  EXPECT_LT(result.worker_hours, 8.1);
}

TEST(Baselines, ArcAsksForPendingPlusRunningPlusMinRunners) {
  EXPECT_EQ(ArcDesired(3, 2, 10, ArcOptions{}), 6);
  EXPECT_EQ(ArcDesired(30, 2, 10, ArcOptions{}), 10);
  EXPECT_EQ(ArcDesired(0, 0, 10, ArcOptions{0}), 0);
}

}  // namespace
}  // namespace mc::pool

namespace mc::pool {
namespace {

// A replay's trace: each job pinned to the worker that really ran it, for as long as it ran;
// the simulator starting as the service does, and asking the policy once a cycle.
TEST(Simulator, AReplayedJobRunsOnItsWorkerForItsRealRunTime) {
  Result<Trace> trace = ParseTrace(
      R"({"id":"a","at":0,"resolution":720,"duration":8,"runs":[{"worker":"w-2","run":12.5}]})"
      "\n"
      R"({"id":"b","at":0,"resolution":720,"duration":8,"runs":[{"worker":"w-2","run":30}]})"
      "\n",
      "replay.jsonl");
  ASSERT_TRUE(trace) << trace.error_message();
  EXPECT_NE(TraceToJsonl(*trace).find(R"("runs":[{"worker":"w-2","run":12.5}])"),
            std::string::npos);
  SimWorkerSpec spec;
  spec.name = "w";
  spec.concurrency = 1;
  spec.startup_s = 0;
  std::vector<SimWorkerSpec> workers = FleetOf(spec, 2);
  workers[0].starts_available = true;
  SimOptions options;
  options.config.cycle = Seconds(3);
  options.start_as_service = true;
  options.keep_log = true;
  options.step_s = 0.25;
  const SimResult result = Simulate(*trace, workers, options);
  EXPECT_EQ(result.completed, 2);
  // One after the other on w-2, the only worker either may run on, once the policy enables it
  // (w-1, admitting from the start, takes neither): busy for 12.5 s and then 30 s, to the step.
  EXPECT_GE(result.makespan_s, 42.5) << ResultJson(result);
  EXPECT_NEAR(result.busy_hours * 3600, 42.5, 0.5);
  // The first cycle joins the workers, as the service's does, and asks for nothing more.
  ASSERT_FALSE(result.actions.empty());
  EXPECT_TRUE(std::all_of(result.actions.begin(), result.actions.end(),
                          [](const TimedAction& a) { return std::fmod(a.t_s, 3.0) == 0; }));
}

// One worker admitting from the start, at one job at a time, for the replay tests below.
std::vector<SimWorkerSpec> OneReplayWorker() {
  SimWorkerSpec spec;
  spec.name = "w";
  spec.concurrency = 1;
  spec.startup_s = 0;
  spec.starts_available = true;
  return {spec};
}

SimOptions ReplayOptions() {
  SimOptions options;
  options.config.cycle = Seconds(3);
  options.start_as_service = true;
  options.step_s = 0.25;
  return options;
}

// A run aborted when PeerTube was away: PeerTube held the job as running until its stall
// timeout and only then handed it out again. The replay keeps it off the queue meanwhile, so
// that the simulated policy sees no waiting job the real one did not.
TEST(Simulator, AReplayedJobThatRanTwiceWaitsUntilPeerTubeHandedItOutAgain) {
  Result<Trace> trace = ParseTrace(
      R"({"id":"a","at":0,"runs":[{"worker":"w","run":5,"again":40},{"worker":"w","run":6}]})"
      "\n");
  ASSERT_TRUE(trace) << trace.error_message();
  const SimResult result = Simulate(*trace, OneReplayWorker(), ReplayOptions());
  EXPECT_EQ(result.completed, 1);
  EXPECT_EQ(result.retries, 1);
  EXPECT_NEAR(result.makespan_s, 46, 0.5) << ResultJson(result);
  EXPECT_NEAR(result.busy_hours * 3600, 11, 0.5);
  // Nothing was pending between the end of the first run and the job's return.
  for (const PressurePoint& point : result.pressure) {
    if (point.t_s > 6 && point.t_s < 40) {
      EXPECT_EQ(point.pending, 0) << point.t_s;
    }
  }
}

// The worker's GPU went away while a replayed job ran, and the record says the job still
// completed on it: the simulated fault stops the worker taking more, not that run.
TEST(Simulator, AReplayedRunOutlastsASimulatedGpuFaultAsItReallyDid) {
  Result<Trace> trace = ParseTrace(R"({"id":"a","at":0,"runs":[{"worker":"w","run":10}]})"
                                   "\n"
                                   R"({"id":"b","at":1,"runs":[{"worker":"w","run":2}]})"
                                   "\n");
  ASSERT_TRUE(trace) << trace.error_message();
  std::vector<SimWorkerSpec> workers = OneReplayWorker();
  workers[0].concurrency = 2;
  workers[0].failure = WorkerFailure{FailureKind::kGpuUnavailable, 0.5, 20};
  const SimResult result = Simulate(*trace, workers, ReplayOptions());
  EXPECT_EQ(result.retries, 0);
  EXPECT_EQ(result.completed, 2);
  // Each ran once, for its recorded time: a, then b once the GPU was back.
  EXPECT_NEAR(result.busy_hours * 3600, 12, 0.5) << ResultJson(result);
}

// The simulated policy held SPARE the worker that really ran a job, after it had admitted
// jobs: the job runs on a worker that admits, for its recorded time, rather than wait for ever.
TEST(Simulator, AReplayedJobWhoseWorkerTheSimulationDrainedRunsOnAnother) {
  Result<Trace> trace = ParseTrace(R"({"id":"a","at":1,"runs":[{"worker":"w-2","run":7}]})"
                                   "\n");
  ASSERT_TRUE(trace) << trace.error_message();
  SimWorkerSpec spec = OneReplayWorker().front();
  std::vector<SimWorkerSpec> workers = FleetOf(spec, 2);
  SimOptions options = ReplayOptions();
  options.keep_log = true;
  const SimResult result = Simulate(*trace, workers, options);
  ASSERT_EQ(result.completed, 1) << ResultJson(result);
  ASSERT_EQ(result.runs.size(), 1u);
  EXPECT_EQ(result.runs[0].worker, "w-1");
  EXPECT_NEAR(result.busy_hours * 3600, 7, 0.5);
}

// The real service's cycles stretch when a read is slow (a silent worker's read waits out its
// deadline); a replay asks the policy when the real one was asked, then a cycle apart.
TEST(Simulator, AReplayAsksThePolicyAtTheRealCyclesInstantsThenACycleApart) {
  Result<Trace> trace = ParseTrace(R"({"id":"a","at":0,"runs":[{"worker":"w","run":20}]})"
                                   "\n");
  ASSERT_TRUE(trace) << trace.error_message();
  SimOptions options = ReplayOptions();
  options.cycles_at_s = {0, 5, 11};
  const SimResult result = Simulate(*trace, OneReplayWorker(), options);
  std::vector<double> asked;
  for (const PressurePoint& point : result.pressure) asked.push_back(point.t_s);
  ASSERT_GE(asked.size(), 5u) << ResultJson(result);
  EXPECT_EQ(std::vector<double>(asked.begin(), asked.begin() + 5),
            (std::vector<double>{0, 5, 11, 14, 17}));
}

}  // namespace
}  // namespace mc::pool
