// The record of a `pool run`: the service's cycles written as JSON Lines by the recorder and
// read back by the parser, which names the line and the member of whatever is wrong.
#include "pool/service/run_record.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "common/base/read_file.h"
#include "pool/service/pool_service.h"
#include "pool/service/run_recorder.h"
#include "recorded_data.h"

namespace mc::pool {
namespace {

using testing::Recorded;

std::string StatusIn(const std::string& state) {
  nlohmann::json document = nlohmann::json::parse(Recorded("status-ada-after-self-test.json"));
  document["state"] = state;
  document["concurrency"] = 2;
  return document.dump();
}

pool::PendingJob PendingAt(const std::string& id, double age_s,
                           std::optional<int> priority = std::nullopt) {
  pool::PendingJob job;
  job.id = id;
  job.priority = priority;
  job.type = "vod-hls-transcoding";
  job.shape.resolution = 720;
  job.age = pool::Seconds(age_s);
  return job;
}

// A channel that takes every action and leaves the worker's document as the action says.
class StateChannel : public ControlChannel {
 public:
  Result<void> Apply(const pool::Action& action, const WorkerEndpoint& worker) override {
    if (action.kind == pool::ActionKind::kEnable) states[worker.name] = "AVAILABLE";
    if (action.kind == pool::ActionKind::kDrain) states[worker.name] = "DRAINED";
    return Ok();
  }
  std::string Describe(const pool::Action&, const WorkerEndpoint& worker) const override {
    return worker.url;
  }
  std::map<std::string, std::string> states;
};

// Six cycles of a service with two workers: a burst of jobs that come and go, and the second
// worker unreadable in the fourth cycle.
std::string RecordOfABurst() {
  StateChannel channel;
  std::vector<WorkerEndpoint> workers = {{.name = "a:gpu0", .url = "http://a"},
                                         {.name = "b:gpu0", .url = "http://b"}};
  for (const WorkerEndpoint& worker : workers) channel.states[worker.name] = "DRAINED";
  int cycle = 0;
  pool::QueueSignal queue;
  ServiceInputs inputs;
  inputs.read_queue = [&](double) -> Result<pool::QueueSignal> { return queue; };
  inputs.read_status = [&](const WorkerEndpoint& worker) -> Result<std::string> {
    if (cycle == 3 && worker.name == "b:gpu0") return Unavailable("connection refused");
    return StatusIn(channel.states.at(worker.name));
  };
  inputs.list_workers = [&]() -> Result<std::vector<WorkerEndpoint>> { return workers; };
  pool::PoolConfig policy;
  policy.cycle = pool::Seconds(3);
  PoolService service(policy, pool::Seconds(3), std::move(inputs), channel,
                      [](const std::string&) {});
  std::string text = RecordHeaderLine(policy, pool::Seconds(3)) + "\n";
  std::set<std::string> pending;
  service.SetRecord([&](CycleRecord record) {
    RunRecorder::SeenAndGone(record, pending);
    text += CycleLine(record) + "\n";
  });
  const std::vector<std::vector<pool::PendingJob>> lists = {
      {},
      {PendingAt("j1", 1), PendingAt("j2", 1)},
      {PendingAt("j2", 4), PendingAt("j3", 0, 102)},
      {PendingAt("j3", 3, 102)},
      {},
      {}};
  for (cycle = 0; cycle < static_cast<int>(lists.size()); ++cycle) {
    queue.pending = lists[cycle];
    service.Cycle(pool::At(1000 + 3 * cycle));
  }
  return text;
}

TEST(RunRecord, TheRecorderSaysWhichJobsAreSeenAndWhichAreGoneEachCycle) {
  std::set<std::string> pending;
  CycleRecord first;
  first.queue.pending = {PendingAt("j1", 0), PendingAt("j2", 0)};
  RunRecorder::SeenAndGone(first, pending);
  EXPECT_EQ(first.seen, (std::vector<std::string>{"j1", "j2"}));
  EXPECT_TRUE(first.gone.empty());
  CycleRecord second;
  second.queue.pending = {PendingAt("j2", 3), PendingAt("j3", 0)};
  RunRecorder::SeenAndGone(second, pending);
  EXPECT_EQ(second.seen, (std::vector<std::string>{"j3"}));
  EXPECT_EQ(second.gone, (std::vector<std::string>{"j1"}));
  // A job that failed on its runner comes back to the list: it is seen again.
  CycleRecord third;
  third.queue.pending = {PendingAt("j1", 0)};
  RunRecorder::SeenAndGone(third, pending);
  EXPECT_EQ(third.seen, (std::vector<std::string>{"j1"}));
  EXPECT_EQ(third.gone, (std::vector<std::string>{"j2", "j3"}));
}

TEST(RunRecord, AServiceRunReadsBackCycleForCycle) {
  const std::string text = RecordOfABurst();
  Result<RunRecord> record = ParseRunRecord(text, "run.jsonl");
  ASSERT_TRUE(record) << record.error_message();
  EXPECT_EQ(record->policy.cycle, pool::Seconds(3));
  EXPECT_EQ(record->queue_poll, pool::Seconds(3));
  ASSERT_EQ(record->cycles.size(), 6u);
  EXPECT_EQ(record->cycles[2].t_s, 1006);
  // The service joins both workers and enables one in its first cycle, as for min_active.
  ASSERT_FALSE(record->cycles[0].actions.empty());
  EXPECT_EQ(record->cycles[0].actions[0].kind, pool::ActionKind::kEnable);
  EXPECT_EQ(record->cycles[0].actions[0].reason, pool::ReasonCode::kBelowMinActive);
  EXPECT_FALSE(record->cycles[0].reasons.empty());
  ASSERT_EQ(record->cycles[3].workers.size(), 2u);
  EXPECT_EQ(record->cycles[3].workers[1].lost, "connection refused");
  EXPECT_TRUE(record->cycles[3].workers[1].document.empty());
  EXPECT_FALSE(record->cycles[3].workers[0].document.empty());
  ASSERT_EQ(record->jobs.size(), 3u);
  EXPECT_EQ(record->jobs[0].id, "j1");
  EXPECT_EQ(record->jobs[0].created_s, 1002);  // seen at 1003, a second old
  EXPECT_EQ(record->jobs[0].gone_s, (std::vector<double>{1006}));
  EXPECT_EQ(record->jobs[2].id, "j3");
  EXPECT_EQ(record->jobs[2].shape.resolution, 720);
  // PeerTube's priority where the list stated it; none where it did not.
  EXPECT_EQ(record->jobs[2].priority, 102);
  EXPECT_FALSE(record->jobs[0].priority);
  EXPECT_EQ(record->jobs[2].gone_s, (std::vector<double>{1012}));
  // The signals come back as the service gave them to the policy.
  Result<pool::Signals> signals = SignalsOf(record->cycles[3]);
  ASSERT_TRUE(signals) << signals.error_message();
  EXPECT_TRUE(signals->workers[0].readable);
  EXPECT_FALSE(signals->workers[1].readable);
  EXPECT_EQ(signals->queue.pending.size(), 1u);
}

TEST(RunRecord, TheRecorderWritesAFileThatReadsBack) {
  const std::string path = ::testing::TempDir() + "/run-record-test.jsonl";
  pool::PoolConfig policy;
  Result<RunRecorder> recorder = RunRecorder::Open(path, policy, pool::Seconds(15));
  ASSERT_TRUE(recorder) << recorder.error_message();
  CycleRecord cycle;
  cycle.t_s = 5000;
  cycle.queue.pending = {PendingAt("j1", 2)};
  ASSERT_TRUE(recorder->Write(cycle));
  cycle.t_s = 5015;
  cycle.queue.pending.clear();
  ASSERT_TRUE(recorder->Write(cycle));
  Result<std::string> text = ReadFileText(path);
  ASSERT_TRUE(text) << text.error_message();
  Result<RunRecord> record = ParseRunRecord(*text, path);
  ASSERT_TRUE(record) << record.error_message();
  ASSERT_EQ(record->jobs.size(), 1u);
  EXPECT_EQ(record->jobs[0].seen_s, (std::vector<double>{5000}));
  EXPECT_EQ(record->jobs[0].gone_s, (std::vector<double>{5015}));
  EXPECT_FALSE(RunRecorder::Open("/nonexistent-dir/record.jsonl", policy, pool::Seconds(15)));
}

// The record with line `line` (1: the header) changed by `edit`.
std::string Edited(int line, const std::function<void(nlohmann::json&)>& edit) {
  std::istringstream in(RecordOfABurst());
  std::string out, text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (n == line) {
      nlohmann::json object = nlohmann::json::parse(text);
      edit(object);
      text = object.dump();
    }
    out += text + "\n";
  }
  return out;
}

std::string ErrorOf(const std::string& text) {
  Result<RunRecord> record = ParseRunRecord(text, "run.jsonl");
  return record ? "" : record.error_message();
}

TEST(RunRecord, EachWrongMemberIsNamedWithItsLine) {
  EXPECT_EQ(ErrorOf(""), "run.jsonl: no header line (the record is empty)");
  EXPECT_EQ(ErrorOf(Edited(1, [](auto& j) { j["record"] = "trace"; })),
            "run.jsonl: line 1: record: expected \"pool-run\"");
  EXPECT_EQ(
      ErrorOf(Edited(1, [](auto& j) { j["version"] = 2; })).rfind("run.jsonl: line 1: version", 0),
      0u);
  EXPECT_EQ(ErrorOf(Edited(1, [](auto& j) { j["policy"] = "cycle: -3s\n"; }))
                .rfind("run.jsonl: line 1: policy", 0),
            0u);
  EXPECT_EQ(ErrorOf(Edited(3, [](auto& j) { j.erase("t"); })).rfind("run.jsonl: line 3: t", 0), 0u);
  EXPECT_EQ(ErrorOf(Edited(3, [](auto& j) { j["t"] = 1; })),
            "run.jsonl: line 3: t: earlier than the line before");
  EXPECT_EQ(ErrorOf(Edited(3, [](auto& j) { j["queue"]["pending"][0]["resolution"] = "720p"; }))
                .rfind("run.jsonl: line 3: queue.pending[0].resolution", 0),
            0u);
  EXPECT_EQ(ErrorOf(Edited(3, [](auto& j) { j["queue"]["pending"][1]["priority"] = -1; }))
                .rfind("run.jsonl: line 3: queue.pending[1].priority", 0),
            0u);
  EXPECT_EQ(ErrorOf(Edited(2, [](auto& j) { j["actions"][0]["kind"] = "explode"; })),
            "run.jsonl: line 2: actions[0].kind: unknown action explode");
  EXPECT_EQ(ErrorOf(Edited(2, [](auto& j) { j["reasons"][0]["reason"] = "because"; })),
            "run.jsonl: line 2: reasons[0].reason: unknown reason because");
  EXPECT_EQ(
      ErrorOf(Edited(5, [](auto& j) { j["workers"][1]["document"] = nlohmann::json::object(); })),
      "run.jsonl: line 5: workers[1]: expected either a document or why it was lost");
  EXPECT_EQ(ErrorOf(Edited(2, [](auto& j) { j["workers"][0]["document"]["state"] = 7; }))
                .rfind("run.jsonl: line 2: workers[0].document: a:gpu0: status", 0),
            0u);
  EXPECT_EQ(ErrorOf(Edited(3, [](auto& j) { j["seen"].push_back("ghost"); })),
            "run.jsonl: line 3: seen: ghost is not in queue.pending");
  EXPECT_EQ(ErrorOf(Edited(3, [](auto& j) { j["gone"].push_back("ghost"); })),
            "run.jsonl: line 3: gone: ghost was never seen");
  std::string cut = RecordOfABurst();
  cut.resize(cut.size() - 40);
  EXPECT_EQ(ErrorOf(cut), "run.jsonl: line 7: not JSON (a line cut short?)");
}

}  // namespace
}  // namespace mc::pool
