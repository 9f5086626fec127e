// The pool service's loop, a cycle at a time with the clock in the test's hand: the status
// documents are the real worker's (data/), the queue is given as the PeerTube reader gives
// it, and the channel records what it is asked. The end-to-end test (tests/peertube) runs the
// same loop against the real server and real workers.
#include "pool/service/pool_service.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "recorded_data.h"

namespace mc::pool {
namespace {

using testing::Recorded;

using pool::ActionKind;

// The worker's document with its admission state set as the channel last left it.
std::string Document(const std::string& state, int active_jobs) {
  nlohmann::json document = nlohmann::json::parse(Recorded("status-ada-after-self-test.json"));
  document["state"] = state;
  document["active_jobs"] = active_jobs;
  document["concurrency"] = 2;
  return document.dump();
}

class RecordingChannel : public ControlChannel {
 public:
  Result<void> Apply(const pool::Action& action, const WorkerEndpoint& worker) override {
    applied.push_back({action.kind, worker.name});
    if (action.kind == ActionKind::kSetClasses) set_classes.push_back(action);
    if (fail_next > 0) {
      --fail_next;
      return Unavailable(worker.name + ": the control API did not answer");
    }
    if (unsupported) return Unsupported("cannot");
    if (action.kind == ActionKind::kEnable) states[worker.name] = "AVAILABLE";
    if (action.kind == ActionKind::kDrain) states[worker.name] = "DRAINED";
    return Ok();
  }
  std::string Describe(const pool::Action& action, const WorkerEndpoint& worker) const override {
    return std::string(pool::ActionKindName(action.kind)) + " " + worker.url;
  }
  std::vector<std::pair<ActionKind, std::string>> applied;
  std::vector<pool::Action> set_classes;
  std::map<std::string, std::string> states;
  int fail_next = 0;
  bool unsupported = false;
};

pool::QueueSignal Pending(int jobs, double age_s) {
  pool::QueueSignal queue;
  for (int i = 0; i < jobs; ++i) {
    queue.pending.push_back({"vod-hls-transcoding", pool::JobShape{}, pool::Seconds(age_s)});
  }
  return queue;
}

struct Fixture {
  RecordingChannel channel;
  std::vector<std::string> log;
  pool::QueueSignal queue = Pending(0, 0);
  bool queue_fails = false;
  std::set<std::string> unreachable;
  // JSON merge patches of a worker's document (RFC 7396), by worker.
  std::map<std::string, nlohmann::json> patches;
  std::vector<WorkerEndpoint> workers = {{.name = "a:gpu0", .url = "http://a"},
                                         {.name = "b:gpu0", .url = "http://b"},
                                         {.name = "c:gpu0", .url = "http://c"}};

  std::unique_ptr<PoolService> Make(pool::PoolConfig policy = {}) {
    for (const WorkerEndpoint& worker : workers) channel.states[worker.name] = "DRAINED";
    ServiceInputs inputs;
    inputs.read_queue = [this](double) -> Result<pool::QueueSignal> {
      if (queue_fails) return Unavailable("PeerTube answered 500");
      return queue;
    };
    inputs.read_status = [this](const WorkerEndpoint& worker) -> Result<std::string> {
      if (unreachable.count(worker.name)) return Unavailable("connection refused");
      const std::string document = Document(channel.states.at(worker.name), 0);
      const auto patch = patches.find(worker.name);
      if (patch == patches.end()) return document;
      nlohmann::json edited = nlohmann::json::parse(document);
      edited.merge_patch(patch->second);
      return edited.dump();
    };
    inputs.list_workers = [this]() -> Result<std::vector<WorkerEndpoint>> { return workers; };
    return std::make_unique<PoolService>(policy, pool::Seconds(15), std::move(inputs), channel,
                                         [this](const std::string& line) { log.push_back(line); });
  }

  int Count(ActionKind kind) const {
    return static_cast<int>(std::count_if(channel.applied.begin(), channel.applied.end(),
                                          [&](const auto& a) { return a.first == kind; }));
  }
};

TEST(PoolService, AnEmptyQueueKeepsOneWorkerActiveAndTheOthersSpare) {
  Fixture fixture;
  auto service = fixture.Make();
  for (int cycle = 0; cycle < 4; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  EXPECT_EQ(fixture.Count(ActionKind::kEnable), 1);
  const PoolReport report = service->Report();
  ASSERT_EQ(report.workers.size(), 3u);
  int active = 0, spare = 0;
  for (const WorkerRow& row : report.workers) {
    active += row.manager_state == "ACTIVE";
    spare += row.manager_state == "SPARE";
  }
  EXPECT_EQ(active, 1);
  EXPECT_EQ(spare, 2);
  EXPECT_EQ(report.counters.cycles, 4);
  EXPECT_TRUE(report.queue_read_ok);
}

// The design's rules, with their windows and stagger (the work-aware profile enables what the
// work needs at once; its tests are the policy's).
TEST(PoolService, ASustainedBurstPromotesSpareWorkersOneAtATime) {
  Fixture fixture;
  pool::PoolConfig design;
  design.profile = pool::PolicyProfile::kDesign;
  auto service = fixture.Make(design);
  service->Cycle(pool::At(1000));
  ASSERT_EQ(fixture.Count(ActionKind::kEnable), 1);
  fixture.queue = Pending(40, 600);
  std::vector<double> promoted_at;
  for (int cycle = 1; cycle <= 20; ++cycle) {
    const int before = fixture.Count(ActionKind::kEnable);
    service->Cycle(pool::At(1000 + 15 * cycle));
    if (fixture.Count(ActionKind::kEnable) > before) promoted_at.push_back(15 * cycle);
  }
  // Two windows of 45 s at or above the threshold before the first; 30 s between promotions.
  ASSERT_EQ(promoted_at.size(), 2u);
  EXPECT_GE(promoted_at[0], 90);
  EXPECT_GE(promoted_at[1] - promoted_at[0], 30);
  EXPECT_EQ(service->Report().counters.promotions, 2);
  EXPECT_NE(std::find_if(fixture.log.begin(), fixture.log.end(),
                         [](const std::string& l) {
                           return l.find("promoted to ACTIVE") != std::string::npos;
                         }),
            fixture.log.end());
}

// The default, work-aware profile enables the spares a burst needs in one cycle, and the
// counters count each, though the cycle says only a few of its sentences.
TEST(PoolService, ABurstUnderTheWorkAwareProfileEnablesItsSparesAtOnceAndCountsEach) {
  Fixture fixture;
  auto service = fixture.Make();
  service->Cycle(pool::At(1000));
  const int after_min_active = fixture.Count(ActionKind::kEnable);
  fixture.queue = Pending(40, 600);
  service->Cycle(pool::At(1015));
  const int enabled = fixture.Count(ActionKind::kEnable) - after_min_active;
  EXPECT_GE(enabled, 1);
  EXPECT_EQ(service->Report().counters.promotions, enabled);
}

TEST(PoolService, AFailedActionIsTriedAgainEachCycleUntilItTakesEffect) {
  Fixture fixture;
  fixture.channel.fail_next = 2;
  auto service = fixture.Make();
  for (int cycle = 0; cycle < 3; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  // The first enable failed twice and was sent again each cycle; the third took effect.
  EXPECT_EQ(fixture.Count(ActionKind::kEnable), 3);
  EXPECT_EQ(service->Report().counters.actions_failed, 2);
  EXPECT_EQ(fixture.channel.states["a:gpu0"] == "AVAILABLE" ||
                fixture.channel.states["b:gpu0"] == "AVAILABLE" ||
                fixture.channel.states["c:gpu0"] == "AVAILABLE",
            true);
  EXPECT_NE(std::find_if(fixture.log.begin(), fixture.log.end(),
                         [](const std::string& l) {
                           return l.find("failed (attempt 2, tried again next cycle)") !=
                                  std::string::npos;
                         }),
            fixture.log.end());
}

// The report says what the worker did not hear: the action, its error and its attempts, for as
// long as it is tried again; once it goes through, nothing.
TEST(PoolService, TheReportShowsAFailedActionWithItsErrorAndAttemptsUntilItGoesThrough) {
  Fixture fixture;
  fixture.channel.fail_next = 2;
  auto service = fixture.Make();
  service->Cycle(pool::At(1000));
  service->Cycle(pool::At(1015));
  const PoolReport failing = service->Report();
  const auto row = std::find_if(failing.workers.begin(), failing.workers.end(),
                                [](const WorkerRow& w) { return w.failed.has_value(); });
  ASSERT_NE(row, failing.workers.end()) << ReportToJson(failing);
  EXPECT_EQ(row->failed->attempts, 2);
  EXPECT_NE(row->failed->action.find("enable " + row->name), std::string::npos)
      << row->failed->action;
  EXPECT_NE(row->failed->error.find("the control API did not answer"), std::string::npos)
      << row->failed->error;
  EXPECT_NE(ReportTable(failing).find("NOT APPLIED: enable " + row->name), std::string::npos)
      << ReportTable(failing);
  service->Cycle(pool::At(1030));
  for (const WorkerRow& worker : service->Report().workers)
    EXPECT_FALSE(worker.failed) << worker.name << ": " << worker.failed->action;
}

TEST(PoolService, AnActionTheChannelCannotCarryIsSaidOnceAndNotRetried) {
  Fixture fixture;
  fixture.channel.unsupported = true;
  auto service = fixture.Make();
  for (int cycle = 0; cycle < 3; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  const int said = static_cast<int>(std::count_if(
      fixture.log.begin(), fixture.log.end(),
      [](const std::string& l) { return l.find("cannot be carried") != std::string::npos; }));
  EXPECT_EQ(said, static_cast<int>(fixture.channel.applied.size()));
  EXPECT_EQ(service->Report().counters.actions_failed, 0);
}

TEST(PoolService, ALostQueueHoldsTheScaleDownAndIsReported) {
  Fixture fixture;
  pool::PoolConfig policy;
  policy.hysteresis.down_sustain = pool::Seconds(60);
  policy.hysteresis.idle_before_demote = pool::Seconds(30);
  auto service = fixture.Make(policy);
  fixture.queue = Pending(40, 600);
  for (int cycle = 0; cycle <= 12; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  ASSERT_GE(fixture.Count(ActionKind::kEnable), 2);
  // PeerTube stops answering: an empty list would read as "the queue emptied"; a lost one
  // must not, however long it lasts.
  fixture.queue_fails = true;
  for (int cycle = 13; cycle <= 60; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  EXPECT_EQ(fixture.Count(ActionKind::kDrain), 0);
  const PoolReport report = service->Report();
  EXPECT_FALSE(report.queue_read_ok);
  EXPECT_GT(report.counters.queue_read_failures, 0);
  EXPECT_GT(report.counters.held_for_lost_signals, 0);
  // Once it answers again with an empty queue, the scale-down happens after its own wait.
  fixture.queue_fails = false;
  fixture.queue = Pending(0, 0);
  for (int cycle = 61; cycle <= 80; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  EXPECT_GE(fixture.Count(ActionKind::kDrain), 1);
}

TEST(PoolService, AnUnreachableWorkerIsReportedUnreadableAndItsReasonLoggedOnce) {
  Fixture fixture;
  fixture.unreachable = {"c:gpu0"};
  auto service = fixture.Make();
  for (int cycle = 0; cycle < 3; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  const PoolReport report = service->Report();
  const auto row = std::find_if(report.workers.begin(), report.workers.end(),
                                [](const WorkerRow& r) { return r.name == "c:gpu0"; });
  ASSERT_NE(row, report.workers.end());
  EXPECT_EQ(row->admission_state, "UNREADABLE");
  EXPECT_NE(row->last_reason.find("connection refused"), std::string::npos);
  const int said = static_cast<int>(
      std::count_if(fixture.log.begin(), fixture.log.end(), [](const std::string& l) {
        return l.find("c:gpu0: status unreadable") != std::string::npos;
      }));
  EXPECT_EQ(said, 1);
}

}  // namespace
}  // namespace mc::pool

namespace mc::pool {
namespace {

TEST(PoolService, AWorkerThatAdmitsJobsWhileHeldSpareIsDrainedBack) {
  Fixture fixture;
  auto service = fixture.Make();
  service->Cycle(pool::At(1000));
  ASSERT_EQ(fixture.Count(ActionKind::kEnable), 1);
  // One of the SPARE workers restarts, and a worker starts AVAILABLE.
  std::string spare;
  for (const WorkerRow& row : service->Report().workers) {
    if (row.manager_state == "SPARE") spare = row.name;
  }
  ASSERT_FALSE(spare.empty());
  fixture.channel.states[spare] = "AVAILABLE";
  service->Cycle(pool::At(1015));
  EXPECT_EQ(fixture.channel.states[spare], "DRAINED");
  EXPECT_EQ(fixture.Count(ActionKind::kDrain), 1);
  EXPECT_NE(std::find_if(fixture.log.begin(), fixture.log.end(),
                         [&](const std::string& l) {
                           return l == "pool: " + spare +
                                           " drained: it admits jobs while the pool holds it SPARE";
                         }),
            fixture.log.end());
}

// Each read here returns only once every worker's read has begun, or fails after 5 s: read one
// after the other, the first would wait for the others in vain. Side by side, one worker that
// does not answer holds the cycle for one read's deadline, not one per silent worker.
TEST(PoolService, TheWorkersAreReadSideBySide) {
  Fixture fixture;
  for (const WorkerEndpoint& worker : fixture.workers)
    fixture.channel.states[worker.name] = "DRAINED";
  std::mutex mutex;
  std::condition_variable all_begun;
  std::size_t begun = 0;
  ServiceInputs inputs;
  inputs.read_queue = [](double) -> Result<pool::QueueSignal> { return Pending(0, 0); };
  inputs.read_status = [&](const WorkerEndpoint&) -> Result<std::string> {
    std::unique_lock lock(mutex);
    ++begun;
    all_begun.notify_all();
    if (!all_begun.wait_for(lock, std::chrono::seconds(5),
                            [&] { return begun >= fixture.workers.size(); })) {
      return Unavailable("read alone");
    }
    return Document("DRAINED", 0);
  };
  inputs.list_workers = [&]() -> Result<std::vector<WorkerEndpoint>> { return fixture.workers; };
  PoolService service({}, pool::Seconds(15), std::move(inputs), fixture.channel,
                      [&](const std::string& line) { fixture.log.push_back(line); });
  service.Cycle(pool::At(1000));
  for (const std::string& line : fixture.log) {
    EXPECT_EQ(line.find("status unreadable"), std::string::npos) << line;
  }
  EXPECT_EQ(begun, fixture.workers.size());
}

TEST(PoolService, AnUnservableClassIsReportedAndLoggedWhenItAppearsAndWhenItClears) {
  Fixture fixture;
  std::vector<std::string> unservable = {"statefulset av1: pod av1-0 cannot be placed"};
  ServiceInputs inputs;
  inputs.read_queue = [](double) -> Result<pool::QueueSignal> { return Pending(0, 0); };
  inputs.read_status = [](const WorkerEndpoint&) -> Result<std::string> {
    return Unavailable("no worker");
  };
  inputs.list_workers = []() -> Result<std::vector<WorkerEndpoint>> {
    return std::vector<WorkerEndpoint>{};
  };
  inputs.unservable = [&] { return unservable; };
  PoolService service({}, pool::Seconds(15), std::move(inputs), fixture.channel,
                      [&](const std::string& line) { fixture.log.push_back(line); });
  for (int cycle = 0; cycle < 3; ++cycle) service.Cycle(pool::At(1000 + 15 * cycle));
  EXPECT_EQ(service.Report().unservable, unservable);
  EXPECT_EQ(std::count(fixture.log.begin(), fixture.log.end(),
                       "pool: unservable: statefulset av1: pod av1-0 cannot be placed"),
            1);
  unservable.clear();
  service.Cycle(pool::At(1045));
  service.Cycle(pool::At(1060));
  EXPECT_TRUE(service.Report().unservable.empty());
  EXPECT_EQ(std::count(fixture.log.begin(), fixture.log.end(),
                       "pool: no longer unservable: statefulset av1: pod av1-0 cannot be placed"),
            1);
}

TEST(PoolService, AWakeableWorkerThatAnswersNothingIsWokenUnderSustainedPressure) {
  Fixture fixture;
  // One worker, asleep: no document, but the inventory says it can be woken.
  fixture.workers = {{.name = "a:gpu0", .url = "http://a", .wakeable = true}};
  fixture.unreachable = {"a:gpu0"};
  fixture.queue = Pending(10, 600);
  pool::PoolConfig policy;
  policy.hysteresis.min_active = 0;
  policy.wake.sustain = pool::Seconds(30);
  auto service = fixture.Make(policy);
  for (int cycle = 0; cycle < 12; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  EXPECT_EQ(fixture.Count(ActionKind::kWake), 1);
}

// A pending job of PeerTube's with its runner job's UUID.
pool::PendingJob JobWithId(std::string id, bool av1_source, int resolution = 720) {
  pool::PendingJob job{"vod-web-video-transcoding", pool::JobShape{}, pool::Seconds(30)};
  job.id = std::move(id);
  job.shape.av1_source = av1_source;
  job.shape.resolution = resolution;
  return job;
}

const nlohmann::json kNoAv1Decode = {{"gpu", {{"capabilities", {{"av1_dec", 0}}}}}};

constexpr const char* kH264Job = "11111111-1111-4111-8111-111111111111";
constexpr const char* kAv1Job = "22222222-2222-4222-8222-222222222222";

TEST(PoolService, AWorkerWithoutAv1DecodeIsGivenTheJobsItMayTakeAndTheOthersNoList) {
  Fixture fixture;
  fixture.patches["b:gpu0"] = kNoAv1Decode;
  fixture.queue.pending = {JobWithId(kH264Job, false), JobWithId(kAv1Job, true)};
  auto service = fixture.Make();
  service->Cycle(pool::At(1000));
  ASSERT_EQ(fixture.channel.set_classes.size(), 1u);
  const pool::Action sent = fixture.channel.set_classes[0];
  EXPECT_EQ(sent.worker, "b:gpu0");
  EXPECT_EQ(sent.classes, pool::kEveryClass);
  EXPECT_EQ(sent.jobs, (std::vector<std::string>{kH264Job}));
  EXPECT_EQ(sent.reason, pool::ReasonCode::kJobsListed);

  // The same list is not sent again while it holds, and is renewed before the worker lets
  // it lapse.
  service->Cycle(pool::At(1015));
  EXPECT_EQ(fixture.channel.set_classes.size(), 1u);
  service->Cycle(pool::At(1000 + 125));
  ASSERT_EQ(fixture.channel.set_classes.size(), 2u);
  EXPECT_EQ(fixture.channel.set_classes[1].jobs, sent.jobs);
  EXPECT_NE(service->Report().workers[1].classes.find("1 job(s) listed"), std::string::npos)
      << service->Report().workers[1].classes;
}

TEST(PoolService, AListFollowsTheQueueAndIsTakenBackWhenNoPendingJobNeedsIt) {
  Fixture fixture;
  // Every worker decodes AV1, and a job of 9000 lines is beyond every worker's largest encode
  // (8192 lines), so each is listed the jobs it can run until that one is gone.
  fixture.queue.pending = {JobWithId(kH264Job, false), JobWithId(kAv1Job, false, 9000)};
  auto service = fixture.Make();
  service->Cycle(pool::At(1000));
  ASSERT_EQ(fixture.channel.set_classes.size(), 3u);
  for (const pool::Action& sent : fixture.channel.set_classes)
    EXPECT_EQ(sent.jobs, (std::vector<std::string>{kH264Job})) << sent.worker;
  fixture.queue.pending = {JobWithId(kH264Job, false)};
  service->Cycle(pool::At(1015));
  ASSERT_EQ(fixture.channel.set_classes.size(), 6u);
  for (std::size_t i = 3; i < 6; ++i) {
    EXPECT_EQ(fixture.channel.set_classes[i].jobs, std::nullopt);
    EXPECT_EQ(fixture.channel.set_classes[i].classes, pool::kEveryClass);
  }
  service->Cycle(pool::At(1030));
  EXPECT_EQ(fixture.channel.set_classes.size(), 6u);
}

// NVENC at its session cap hands S and M to the VA-API worker: the NVIDIA worker's classes,
// L and XL, reach its gate as the list of the large jobs.
TEST(PoolService, TheSessionShiftReachesTheNvidiaWorkerAsTheListOfTheLargeJobs) {
  Fixture fixture;
  fixture.workers = {{.name = "a:gpu0", .url = "http://a"}, {.name = "b:gpu0", .url = "http://b"}};
  fixture.patches["a:gpu0"] = {{"gpu", {{"sessions", {{"active", 8}, {"cap", 8}}}}}};
  fixture.patches["b:gpu0"] = {{"gpu", {{"vendor", "intel"}, {"sessions", nullptr}}}};
  for (int i = 0; i < 20; ++i) {
    char id[37];
    std::snprintf(id, sizeof id, "cccccccc-0000-4000-8000-%012d", i);
    fixture.queue.pending.push_back(JobWithId(id, false, i == 0 ? 2160 : 720));
    fixture.queue.pending.back().age = pool::Seconds(600);
  }
  auto service = fixture.Make();
  for (int cycle = 0; cycle < 6; ++cycle) service->Cycle(pool::At(1000 + 15 * cycle));
  const auto shifted =
      std::find_if(fixture.channel.set_classes.begin(), fixture.channel.set_classes.end(),
                   [](const pool::Action& a) {
                     return a.worker == "a:gpu0" && a.reason == pool::ReasonCode::kSessionShift;
                   });
  ASSERT_NE(shifted, fixture.channel.set_classes.end());
  EXPECT_EQ(shifted->classes, pool::Bit(pool::JobClass::kL) | pool::Bit(pool::JobClass::kXL));
  EXPECT_EQ(shifted->jobs, (std::vector<std::string>{"cccccccc-0000-4000-8000-000000000000"}));
}

TEST(PoolService, AListThatFailedToArriveIsTriedAgainNextCycle) {
  Fixture fixture;
  for (const char* name : {"a:gpu0", "b:gpu0", "c:gpu0"}) fixture.patches[name] = kNoAv1Decode;
  fixture.queue.pending = {JobWithId(kH264Job, false)};
  auto service = fixture.Make();
  fixture.channel.fail_next = 10;
  service->Cycle(pool::At(1000));
  fixture.channel.fail_next = 0;
  fixture.channel.set_classes.clear();
  service->Cycle(pool::At(1015));
  EXPECT_EQ(fixture.channel.set_classes.size(), 3u);
}

TEST(PoolService, TheReportCarriesWhatThePageShows) {
  Fixture fixture;
  fixture.queue = Pending(3, 40);
  fixture.queue.pending[0].id = "job-1";
  pool::PoolConfig policy;
  policy.target_wait = pool::Seconds(90);
  auto service = fixture.Make(policy);
  service->Cycle(pool::At(1000));
  // The first job starts: it leaves the list, and its last age is its wait.
  fixture.queue.pending.erase(fixture.queue.pending.begin());
  service->Cycle(pool::At(1015));
  const PoolReport report = service->Report();
  ASSERT_EQ(report.queue_by_class.size(), 1u);
  EXPECT_EQ(report.queue_by_class[0].job_class, "S");
  EXPECT_EQ(report.queue_by_class[0].type, "vod-hls-transcoding");
  EXPECT_EQ(report.queue_by_class[0].count, 2);
  EXPECT_GT(report.pressure_by_class.at("S"), 0);
  EXPECT_DOUBLE_EQ(report.wait_target_s, 90);  // the policy's target_wait
  ASSERT_EQ(report.workers.size(), 3u);
  EXPECT_EQ(report.workers[0].gpu_model, "AD102 [GeForce RTX 4090]");
  EXPECT_EQ(report.workers[0].vendor, "nvidia");
  // Every action is listed with its reason, newest first.
  ASSERT_FALSE(report.decisions.empty());
  for (const DecisionRow& row : report.decisions) EXPECT_FALSE(row.reason.empty()) << row.action;
  EXPECT_GE(report.decisions.front().at, report.decisions.back().at);
  const PoolHistory history = service->History();
  ASSERT_EQ(history.samples().size(), 1u);  // two cycles within a minute merge into one
  EXPECT_EQ(history.samples()[0].pending, 3);
  EXPECT_GT(history.samples()[0].pressure[0], 0);
  EXPECT_EQ(history.samples()[0].started_wait_s, 40);
}

TEST(PoolService, TheDecisionsListedAreBounded) {
  Fixture fixture;
  auto service = fixture.Make();
  for (int cycle = 0; cycle < 200; ++cycle) {
    // A worker that comes and goes: a reason said anew each time.
    if (cycle % 2) {
      fixture.unreachable.insert("b:gpu0");
    } else {
      fixture.unreachable.clear();
    }
    service->Cycle(pool::At(1000 + 15 * cycle));
  }
  EXPECT_LE(service->Report().decisions.size(), 40u);
  EXPECT_LE(service->History().samples().size(), service->History().capacity());
}

}  // namespace
}  // namespace mc::pool
