// The workers file: the simulated workers a trace runs on.
#include "pool/simulator/sim_workers.h"

#include <gtest/gtest.h>

namespace mc::pool {
namespace {

struct BadWorkers {
  const char* text;
  const char* error;
};

TEST(WorkersFile, ExpandsCountsAndReadsFailures) {
  Result<std::vector<SimWorkerSpec>> workers = ParseWorkers(
      "workers:\n  - name: gpu\n    count: 3\n    speed: 6\n    startup: 1m\n"
      "  - name: bad\n    fail: {kind: no_evidence, at: 10m, for: 5m}\n");
  ASSERT_TRUE(workers) << workers.error_message();
  ASSERT_EQ(workers->size(), 4u);
  EXPECT_EQ((*workers)[2].name, "gpu-3");
  EXPECT_EQ((*workers)[2].startup_s, 60);
  ASSERT_TRUE((*workers)[3].failure);
  EXPECT_EQ((*workers)[3].failure->kind, FailureKind::kNoEvidence);
  EXPECT_TRUE((*workers)[3].failure->ActiveAt(700));
  EXPECT_FALSE((*workers)[3].failure->ActiveAt(900));
}

TEST(WorkersFile, StatesAWorkersStartingStateWeightProbeAgeAndEnableTime) {
  Result<std::vector<SimWorkerSpec>> workers = ParseWorkers(
      "workers:\n"
      "  - {name: a, state: active, weight: 1.5, probe_age: 4m, enable: 3s}\n"
      "  - {name: b, state: cold, wakeable: true}\n"
      "  - {name: c, startup: 9s}\n",
      "w.yaml");
  ASSERT_TRUE(workers) << workers.error_message();
  ASSERT_EQ(workers->size(), 3u);
  EXPECT_EQ((*workers)[0].start_state, ManagerState::kActive);
  EXPECT_EQ((*workers)[0].weight, 1.5);
  EXPECT_EQ((*workers)[0].probe_age_at_start, 240);
  EXPECT_EQ((*workers)[0].EnableSeconds(), 3);
  EXPECT_TRUE((*workers)[1].cold);
  EXPECT_EQ((*workers)[2].EnableSeconds(), 9);  // without enable, the start-up
}

TEST(WorkersFile, AnErrorNamesTheEntryAndTheKey) {
  const BadWorkers cases[] = {
      {"workers:\n  - name: a\n    speed: fast\n",
       "w.yaml: workers[0].speed: expected a number of at least 0"},
      {"workers:\n  - name: a\n  - name: a\n", "w.yaml: workers: the name a appears twice"},
      {"workers:\n  - name: a\n    colour: red\n", "w.yaml: workers[0].colour: unknown key"},
      {"workers:\n  - {name: a, vendor: amd}\n",
       "w.yaml: workers[0].vendor: expected nvidia or intel"},
      {"workers:\n  - {name: a, fail: {kind: melt, at: 1}}\n",
       "w.yaml: workers[0].fail.kind: expected gpu_unavailable, thermal, no_evidence or "
       "unreadable"},
      {"workers:\n  - {name: a, state: asleep}\n",
       "w.yaml: workers[0].state: expected active, spare, warm or cold"},
      {"workers:\n  - {name: a, weight: 0}\n",
       "w.yaml: workers[0].weight: expected a number between 0.01 and 100"},
      {"workers:\n  - {name: a, enable: soon}\n",
       "w.yaml: workers[0].enable: expected a duration (seconds, or a number with s, m or h)"},
      {"workers: 3\n", "w.yaml: workers: expected a list of workers"},
      {"workers: []\n", "w.yaml: workers: expected at least one worker"},
  };
  for (const BadWorkers& c : cases) {
    Result<std::vector<SimWorkerSpec>> workers = ParseWorkers(c.text, "w.yaml");
    ASSERT_FALSE(workers) << c.text;
    EXPECT_EQ(workers.error_message(), c.error);
  }
}

}  // namespace
}  // namespace mc::pool
