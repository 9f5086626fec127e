// The design's eligibility, situation by situation: P is computed over the workers eligible for
// each class; the age term counts every job that waits, one no ACTIVE worker can serve included;
// a class no ACTIVE worker serves brings in one that can (SPARE, WARM or COLD) and nothing
// else; a starting worker is capacity to come for its classes, and no scale-down window runs
// while a job waits for it. Each row runs under both profiles unless it says otherwise.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "policy_fixture.h"

namespace mc::pool {
namespace {

using testing::Job;
using testing::PolicyRun;
using testing::SpareWorker;

// A worker that fails the L and XL gates (realtime factor below 3) but serves S and M.
WorkerStatus SmallWorker(const std::string& name) {
  WorkerStatus status = SpareWorker(name);
  status.realtime_factor_ewma = 1.5;
  return status;
}

// A 4K60 job of 30 minutes: class XL.
PendingJob LongUhdJob(Duration age) {
  PendingJob job = Job(2160, age, Minutes(30));
  job.shape.fps = 60;
  return job;
}

PendingJob Av1SourceJob(Duration age) {
  PendingJob job = Job(1080, age);
  job.shape.av1_source = true;
  return job;
}

struct Situation {
  const char* sentence;
  std::function<void(PolicyRun&)> set_up;  // the pool and its queue
  Duration run_for;                        // cycles of 15 s; zero: one cycle
  std::optional<double> pressure;          // P of the last cycle
  std::vector<ReasonCode> said;            // reasons of the last cycle
  std::vector<ReasonCode> not_said;
  std::vector<std::string> enabled;   // exactly the workers enabled over the run, in order
  bool woken = false;                 // a COLD box was woken
  bool low_window = false;            // the scale-down window runs at the end
  std::optional<PolicyProfile> only;  // the row is about one profile's timing
};

const Situation kSituations[] = {
    {"A job no ACTIVE worker passes the gates of is full pressure and is reported",
     [](PolicyRun& run) {
       run.Add(SmallWorker("small"), ManagerState::kActive);
       run.Pending(1, LongUhdJob(Seconds(0)));
     },
     Seconds(0),
     1.0,
     {ReasonCode::kClassGated},
     {ReasonCode::kClassUnservable},
     {},
     false,
     false,
     std::nullopt},
    {"A 4K60 long job no ACTIVE worker serves brings in the SPARE that passes its gates, and "
     "only that one",
     [](PolicyRun& run) {
       run.Add(SmallWorker("small"), ManagerState::kActive);
       WorkerStatus& heavy_but_small = run.Add(SmallWorker("also-small"));
       heavy_but_small.concurrency = 8;
       run.Add(SpareWorker("strong"));
       run.Pending(1, LongUhdJob(Seconds(0)));
     },
     Minutes(3),
     std::nullopt,
     {},
     {ReasonCode::kClassUnservable},
     {"strong"},
     false,
     false,
     std::nullopt},
    {"A WARM worker that passes the gates is brought in for a class no ACTIVE worker serves",
     [](PolicyRun& run) {
       run.Add(SmallWorker("small"), ManagerState::kActive);
       run.Add(SpareWorker("warm"), ManagerState::kWarm);
       run.Pending(1, LongUhdJob(Seconds(0)));
     },
     Minutes(3),
     std::nullopt,
     {},
     {},
     {"warm"},
     false,
     false,
     std::nullopt},
    {"A job only a COLD box can serve wakes that box and promotes nobody else",
     [](PolicyRun& run) {
       run.config.wake.sustain = Minutes(1);
       run.Add(SpareWorker("no-av1"), ManagerState::kActive);
       run.Add(SpareWorker("spare-no-av1"));
       WorkerStatus box = SpareWorker("box");
       box.readable = false;
       box.wakeable = true;
       box.capabilities.av1_dec = true;
       run.Add(box, ManagerState::kCold);
       run.Pending(1, Av1SourceJob(Seconds(0)));
     },
     Minutes(4),
     std::nullopt,
     {},
     {ReasonCode::kClassUnservable},
     {},
     true,
     false,
     std::nullopt},
    {"Where no worker passes a class's soft gates and no ACTIVE one can run it at all, one "
     "that passes its hard gates is brought in",
     [](PolicyRun& run) {
       run.Add(SpareWorker("hd-only"), ManagerState::kActive).capabilities.max_height = 1080;
       run.Add(SmallWorker("slow-uhd"));
       WorkerStatus& none = run.Add(SmallWorker("hd-spare"));
       none.capabilities.max_height = 1080;
       run.Pending(1, LongUhdJob(Seconds(0)));
     },
     Minutes(3),
     std::nullopt,
     {},
     {ReasonCode::kClassUnservable},
     {"slow-uhd"},
     false,
     false,
     std::nullopt},
    {"An ACTIVE worker without AV1 decode is no capacity for an AV1-source job",
     [](PolicyRun& run) {
       run.Add(SpareWorker("no-av1"), ManagerState::kActive);
       run.Add(SpareWorker("av1")).capabilities.av1_dec = true;
       run.Pending(1, Av1SourceJob(Seconds(0)));
     },
     Seconds(0),
     1.0,
     {ReasonCode::kClassGated},
     {},
     {},
     false,
     false,
     PolicyProfile::kDesign},
    {"An AV1-source job brings in the worker that decodes AV1 at once under the work-aware "
     "profile, and no other",
     [](PolicyRun& run) {
       run.Add(SpareWorker("no-av1"), ManagerState::kActive);
       run.Add(SpareWorker("spare-no-av1"));
       run.Add(SpareWorker("av1")).capabilities.av1_dec = true;
       run.Pending(1, Av1SourceJob(Seconds(0)));
     },
     Seconds(0),
     std::nullopt,
     {ReasonCode::kClassGated, ReasonCode::kWorkEnabled},
     {},
     {"av1"},
     false,
     false,
     PolicyProfile::kWorkAware},
    {"A starting worker is capacity to come: P reads its slots, not zero, and no job is "
     "reported unservable",
     [](PolicyRun& run) {
       run.Add(SpareWorker("no-av1"), ManagerState::kActive);
       WorkerStatus& starting = run.Add(SpareWorker("av1"), ManagerState::kActive);
       starting.capabilities.av1_dec = true;
       starting.state = AdmissionState::kDrained;  // enabled, not yet taking jobs
       run.Pending(1, Av1SourceJob(Seconds(0)));
     },
     Seconds(0),
     0.25,
     {ReasonCode::kClassStarting},
     {ReasonCode::kClassUnservable, ReasonCode::kClassGated},
     {},
     false,
     false,
     std::nullopt},
    {"No scale-down window runs while a job waits for a starting worker, however low P reads",
     [](PolicyRun& run) {
       run.Add(SpareWorker("no-av1"), ManagerState::kActive);
       WorkerStatus& starting = run.Add(SpareWorker("av1"), ManagerState::kActive);
       starting.capabilities.av1_dec = true;
       starting.concurrency = 8;  // one job against 8 slots to come: P 0.06
       starting.state = AdmissionState::kDrained;
       run.Pending(1, Av1SourceJob(Seconds(0)));
     },
     Minutes(2),
     std::nullopt,
     {ReasonCode::kClassStarting},
     {},
     {},
     false,
     false,
     std::nullopt},
    {"The age term counts a job no ACTIVE worker serves: P is full once it has waited 900 s, "
     "whatever the depth",
     [](PolicyRun& run) {
       run.config.pressure.depth_waves = 100;
       WorkerStatus& busy = run.Add(SpareWorker("busy"), ManagerState::kActive);
       busy.enc_util_pct = 90;  // no headroom: no capacity for M
       busy.concurrency = 50;
       PendingJob medium = Job(1440, Seconds(900));
       run.Pending(1, medium);
       run.signals.queue.pending.push_back(Job(720, Seconds(900)));
     },
     Seconds(0),
     1.0,
     {ReasonCode::kClassGated},
     {},
     {},
     false,
     false,
     std::nullopt},
    {"A class no worker of the pool could ever run is reported, counts for nothing, and keeps "
     "nobody awake",
     [](PolicyRun& run) {
       run.config.hysteresis.down_sustain = Minutes(1);
       run.Add(SpareWorker("a"), ManagerState::kActive);
       run.Add(SpareWorker("b"), ManagerState::kActive);
       PendingJob av1_output = Job(1080, Hours(2));
       av1_output.shape.av1_output = true;
       run.Pending(1, av1_output);
     },
     Minutes(2),
     0.0,
     {ReasonCode::kClassUnservable},
     {ReasonCode::kClassGated},
     {},
     false,
     true,
     std::nullopt},
};

void Check(const Situation& situation, PolicyProfile profile) {
  SCOPED_TRACE(std::string(situation.sentence) + " (" + std::string(PolicyProfileName(profile)) +
               ")");
  PolicyRun run;
  run.config.profile = profile;
  situation.set_up(run);
  if (situation.run_for <= Seconds(0)) {
    run.Step();
  } else {
    run.RunFor(situation.run_for);
  }
  if (situation.pressure) {
    EXPECT_DOUBLE_EQ(run.last.pressure, *situation.pressure);
  }
  for (ReasonCode code : situation.said) {
    EXPECT_TRUE(run.Said(code)) << ReasonRow(code).id << " not said:\n" << run.Reasons();
  }
  for (ReasonCode code : situation.not_said) {
    EXPECT_FALSE(run.Said(code)) << ReasonRow(code).id << " said:\n" << run.Reasons();
  }
  std::vector<std::string> enabled;
  for (const Action& action : run.all_actions) {
    if (action.kind == ActionKind::kEnable) enabled.push_back(action.worker);
  }
  EXPECT_EQ(enabled, situation.enabled) << run.Reasons();
  EXPECT_EQ(run.Count(ActionKind::kWake) > 0, situation.woken) << run.Reasons();
  EXPECT_EQ(run.pool.low_since.has_value(), situation.low_window) << run.Reasons();
}

TEST(Eligibility, EachSituationBehavesAsTheDesignSaysUnderTheDesignsRules) {
  for (const Situation& situation : kSituations) {
    if (situation.only.value_or(PolicyProfile::kDesign) == PolicyProfile::kDesign) {
      Check(situation, PolicyProfile::kDesign);
    }
  }
}

TEST(Eligibility, EachSituationBehavesAsTheDesignSaysUnderTheWorkAwareProfile) {
  for (const Situation& situation : kSituations) {
    if (situation.only.value_or(PolicyProfile::kWorkAware) == PolicyProfile::kWorkAware) {
      Check(situation, PolicyProfile::kWorkAware);
    }
  }
}

}  // namespace
}  // namespace mc::pool
