// What the page shows of a worker beyond what the policy reads: read leniently from its status
// document, carried through the report's JSON to `pool status` and back.
#include "pool/service/worker_facts.h"

#include <gtest/gtest.h>

#include "pool/service/pool_report.h"

namespace mc::pool {
namespace {

constexpr const char* kDocument = R"({
  "state": "AVAILABLE",
  "gpu": {"vendor": "nvidia", "model": "AD102 [GeForce RTX 4090]",
          "sessions": {"active": 2, "cap": 8, "cap_source": "probe"},
          "self_test": {"ts": "2026-12-03T05:00:00Z", "ok": false, "evidence": "",
                        "detail": "the decode matrix failed"}},
  "hw_evidence_last_job": {"ok": true, "method": "nvml", "ts": "2026-12-03T06:15:02Z"}
})";

TEST(WorkerFacts, ReadsTheModelSessionsEvidenceAndSelfTest) {
  const WorkerFacts facts = ReadWorkerFacts(kDocument);
  EXPECT_EQ(facts.vendor, "nvidia");
  EXPECT_EQ(facts.model, "AD102 [GeForce RTX 4090]");
  EXPECT_EQ(facts.sessions_active, 2);
  EXPECT_EQ(facts.sessions_cap, 8);
  EXPECT_EQ(facts.evidence_ok, true);
  EXPECT_EQ(facts.evidence, "nvml at 2026-12-03T06:15:02Z");
  EXPECT_EQ(facts.self_test_ok, false);
  EXPECT_EQ(facts.self_test_detail, "the decode matrix failed");
}

TEST(WorkerFacts, ShowsWhatIsMissingOrMistypedAsUnknown) {
  const WorkerFacts facts = ReadWorkerFacts(
      R"({"gpu": {"model": 7, "sessions": {"active": -3, "cap": null}, "self_test": null},
          "hw_evidence_last_job": null})");
  EXPECT_EQ(facts.model, "");
  EXPECT_EQ(facts.sessions_active, 0);
  EXPECT_EQ(facts.sessions_cap, 0);
  EXPECT_EQ(facts.evidence_ok, std::nullopt);
  EXPECT_EQ(facts.self_test_ok, std::nullopt);
  EXPECT_EQ(ReadWorkerFacts("not json").model, "");
  EXPECT_EQ(ReadWorkerFacts("[1,2]").vendor, "");
}

TEST(PoolReportJson, CarriesWhatThePageShowsBackToPoolStatus) {
  PoolReport report;
  report.generated_at = "2026-12-03T06:15:02Z";
  WorkerRow row;
  row.name = "box-1:gpu0";
  row.manager_state = "ACTIVE";
  row.admission_state = "BUSY";
  row.gpu_model = "AD102";
  row.vendor = "nvidia";
  row.sessions_active = 2;
  row.sessions_cap = 8;
  row.evidence_ok = true;
  row.evidence = "nvml";
  row.self_test_ok = false;
  row.self_test_at = "2026-12-03T05:00:00Z";
  report.workers.push_back(row);
  report.queue_by_class = {{"XL", "vod-hls-transcoding", 1, 250}};
  report.pressure_by_class = {{"XL", 0.9}};
  report.wait_target_s = 120;
  report.decisions = {{"2026-12-03T06:15:02Z", "box-1:gpu0", "enable box-1:gpu0", "work waits"}};
  const Result<PoolReport> read = ReportFromJson(ReportToJson(report));
  ASSERT_TRUE(read) << read.error_message();
  ASSERT_EQ(read->workers.size(), 1u);
  EXPECT_EQ(read->workers[0].gpu_model, "AD102");
  EXPECT_EQ(read->workers[0].sessions_cap, 8);
  EXPECT_EQ(read->workers[0].evidence_ok, true);
  EXPECT_EQ(read->workers[0].self_test_ok, false);
  ASSERT_EQ(read->queue_by_class.size(), 1u);
  EXPECT_EQ(read->queue_by_class[0].job_class, "XL");
  EXPECT_DOUBLE_EQ(read->pressure_by_class.at("XL"), 0.9);
  EXPECT_DOUBLE_EQ(read->wait_target_s, 120);
  ASSERT_EQ(read->decisions.size(), 1u);
  EXPECT_EQ(read->decisions[0].reason, "work waits");
}

}  // namespace
}  // namespace mc::pool
