// The learned weights and the configuration file.
#include <gtest/gtest.h>

#include "policy_fixture.h"
#include "pool/policy/config_yaml.h"
#include "pool/policy/weights.h"

namespace mc::pool {
namespace {

using testing::PolicyRun;
using testing::SpareWorker;

TEST(Weights, ANewWorkerStartsAtTheClassPrior) {
  const WeightConfig config;
  EXPECT_DOUBLE_EQ(ShrunkWeight(ClassWeight{}, JobClass::kL, config), 1.0);
}

TEST(Weights, AreAnEwmaShrunkTowardThePrior) {
  const WeightConfig config;
  ClassWeight weight;
  ObserveJob(weight, 500, JobClass::kS, config);  // ratio 2
  EXPECT_DOUBLE_EQ(weight.ewma, 2.0);
  ObserveJob(weight, 250, JobClass::kS, config);  // ratio 1: 0.3·1 + 0.7·2
  EXPECT_DOUBLE_EQ(weight.ewma, 1.7);
  // ŵ = (2·1.7 + 3·1) / (2 + 3)
  EXPECT_DOUBLE_EQ(ShrunkWeight(weight, JobClass::kS, config), 6.4 / 5);
}

TEST(Weights, AreLearnedPerClassFromCompletedJobs) {
  PolicyRun run;
  WorkerStatus& a = run.Add(SpareWorker("a"), ManagerState::kActive);
  run.Step();
  a.jobs_completed = 1;
  a.hw_evidence_ok = true;
  a.last_job = LastJob{JobClass::kM, 750, 6};
  run.Step();
  const WorkerRecord& record = run.pool.workers[0];
  EXPECT_EQ(record.weights[Index(JobClass::kM)].jobs, 1);
  EXPECT_DOUBLE_EQ(record.weights[Index(JobClass::kM)].ewma, 3.0);
  EXPECT_EQ(record.weights[Index(JobClass::kS)].jobs, 0);
  run.Step();  // the same counter again teaches nothing
  EXPECT_EQ(run.pool.workers[0].weights[Index(JobClass::kM)].jobs, 1);
}

TEST(Config, TheDefaultsAreTheDesignsNumbers) {
  const PoolConfig config;
  EXPECT_EQ(config.hysteresis.up_threshold, 0.6);
  EXPECT_EQ(config.hysteresis.up_window, Seconds(45));
  EXPECT_EQ(config.hysteresis.up_windows, 2);
  EXPECT_EQ(config.hysteresis.down_threshold, 0.15);
  EXPECT_EQ(config.hysteresis.down_sustain, Minutes(20));
  EXPECT_EQ(config.hysteresis.idle_before_demote, Minutes(15));
  EXPECT_EQ(config.hysteresis.promotion_spacing, Seconds(30));
  EXPECT_EQ(config.hysteresis.probe_max_age, Minutes(5));
  EXPECT_EQ(config.hysteresis.min_active, 1);
  EXPECT_EQ(config.pressure.age_full, Seconds(900));
  EXPECT_EQ(config.weights.lambda, 0.3);
  EXPECT_EQ(config.weights.shrink_k, 3);
  EXPECT_EQ(config.wake.pressure, 0.8);
  EXPECT_EQ(config.wake.max_concurrent, 2);
  EXPECT_EQ(config.wake.spacing, Minutes(3));
  EXPECT_EQ(config.wake.max_per_day, 6);
}

TEST(Config, AnEmptyFileIsTheDefaults) {
  Result<PoolConfig> config = ParsePoolConfig("");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->hysteresis.up_threshold, 0.6);
}

TEST(Config, ReadsEveryKindOfValue) {
  Result<PoolConfig> config = ParsePoolConfig(
      "hysteresis:\n  up_threshold: 0.7\n  down_sustain: 30m\n  min_active: 2\n"
      "vendor_disabled: [nvidia]\nweights:\n  prior: {L: 1.5}\nwake:\n  spacing: 240\n");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->hysteresis.up_threshold, 0.7);
  EXPECT_EQ(config->hysteresis.down_sustain, Minutes(30));
  EXPECT_EQ(config->hysteresis.min_active, 2);
  EXPECT_EQ(config->vendors.disabled, std::vector<std::string>{"nvidia"});
  EXPECT_EQ(config->weights.prior[Index(JobClass::kL)], 1.5);
  EXPECT_EQ(config->wake.spacing, Minutes(4));
}

struct BadConfig {
  const char* text;
  const char* error;
};

TEST(Config, AnErrorNamesTheFileTheKeyAndWhatWasExpected) {
  const BadConfig cases[] = {
      {"hysteresis:\n  up_threshold: 1.5\n",
       "pool.yaml: hysteresis.up_threshold: expected a number between 0 and 1"},
      {"hysteresis:\n  up_threshold: high\n",
       "pool.yaml: hysteresis.up_threshold: expected a number between 0 and 1"},
      {"hysteresis:\n  up_treshold: 0.5\n", "pool.yaml: hysteresis.up_treshold: unknown key"},
      {"hystersis: {}\n", "pool.yaml: hystersis: unknown key"},
      {"hysteresis: 3\n", "pool.yaml: hysteresis: expected a map"},
      {"hysteresis:\n  min_active: 1.5\n",
       "pool.yaml: hysteresis.min_active: expected an integer between 0 and 100000"},
      {"hysteresis:\n  down_sustain: soon\n",
       "pool.yaml: hysteresis.down_sustain: expected a duration (seconds, or a number with s, m "
       "or h) between 0s and 86400s"},
      {"vendor_disabled: [amd]\n", "pool.yaml: vendor_disabled[0]: expected nvidia or intel"},
      {"weights:\n  prior: {Q: 1}\n",
       "pool.yaml: weights.prior.Q: unknown job class (S, M, L or XL)"},
      {"hysteresis:\n  down_threshold: 0.7\n",
       "pool.yaml: hysteresis.down_threshold: must be below hysteresis.up_threshold (0.6)"},
      {"[1, 2\n", "pool.yaml: line 2"},
      {"- a\n", "pool.yaml: expected a map of settings at the top level"},
  };
  for (const BadConfig& c : cases) {
    Result<PoolConfig> config = ParsePoolConfig(c.text);
    ASSERT_FALSE(config) << c.text;
    EXPECT_EQ(config.error_message().rfind(c.error, 0), 0u) << config.error_message();
    EXPECT_TRUE(config.error().IsInvalidInput());
  }
}

TEST(Config, WrittenOutItReadsBackTheSame) {
  PoolConfig changed;
  changed.hysteresis.up_threshold = 0.65;
  changed.vendors.disabled = {"intel"};
  changed.weights.baseline_mpx_s[Index(JobClass::kXL)] = 900;
  Result<PoolConfig> read = ParsePoolConfig(PoolConfigToYaml(changed));
  ASSERT_TRUE(read) << read.error_message() << "\n" << PoolConfigToYaml(changed);
  EXPECT_EQ(PoolConfigToYaml(*read), PoolConfigToYaml(changed));
  EXPECT_EQ(read->hysteresis.up_threshold, 0.65);
}

}  // namespace
}  // namespace mc::pool
