// The pool manager's page: every worker and every queue class of the report, names from outside
// shown as text, the charts drawn from any history, and markup that balances.
#include "pool/page/pool_page.h"

#include <gtest/gtest.h>

#include "support/markup_balance.h"

namespace mc::pool {
namespace {

constexpr const char* kHostile = "<script>alert(1)</script><img src=x onerror=alert(2)>";

WorkerRow Worker(std::string name, std::string manager, std::string admission) {
  WorkerRow row;
  row.name = std::move(name);
  row.manager_state = std::move(manager);
  row.admission_state = std::move(admission);
  row.vendor = "nvidia";
  row.gpu_model = "AD102 [GeForce RTX 4090]";
  row.sessions_active = 2;
  row.sessions_cap = 8;
  row.active_jobs = 1;
  row.concurrency = 2;
  row.evidence_ok = true;
  row.evidence = "nvml at 2026-12-03T06:15:02Z";
  row.self_test_ok = true;
  row.self_test_at = "2026-12-03T05:00:00Z";
  return row;
}

PoolPageInput Sample() {
  PoolPageInput input;
  input.now_s = 1796278502;
  input.refresh_s = 15;
  PoolReport& report = input.report;
  report.generated_at = "2026-12-03T06:15:02Z";
  report.pressure = 0.73;
  report.queue_read_ok = true;
  report.pending_by_type = {{"vod-web-video-transcoding", 3}};
  report.queue_by_class = {{"S", "vod-web-video-transcoding", 2, 30},
                           {"XL", "vod-hls-transcoding", 1, 250}};
  report.pressure_by_class = {{"S", 0.2}, {"XL", 0.9}};
  report.not_served = {{"generate-video-storyboard", {.count = 4, .oldest_age_s = 300}}};
  report.wait_target_s = 120;
  report.workers.push_back(Worker("box-1:gpu0", "ACTIVE", "BUSY"));
  report.workers.push_back(Worker("box-2:gpu0", "SPARE", "DRAINED"));
  report.workers.back().vendor = "intel";
  report.workers.back().self_test_ok = false;
  report.workers.back().self_test_detail = "the decode matrix failed";
  report.decisions.push_back({"2026-12-03T06:15:02Z", "box-1:gpu0", "enable box-1:gpu0",
                              "box-1:gpu0 enabled: 3 jobs wait"});
  return input;
}

TEST(PoolPage, ShowsEveryWorkerWithItsStates) {
  const std::string page = PoolPageHtml(Sample());
  EXPECT_NE(page.find("data-worker=\"box-1:gpu0\" data-manager-state=\"ACTIVE\" "
                      "data-admission-state=\"BUSY\""),
            std::string::npos);
  EXPECT_NE(page.find("data-worker=\"box-2:gpu0\" data-manager-state=\"SPARE\" "
                      "data-admission-state=\"DRAINED\""),
            std::string::npos);
  EXPECT_NE(page.find("AD102 [GeForce RTX 4090]"), std::string::npos);
  EXPECT_NE(page.find("2 of 8"), std::string::npos);  // NVENC sessions against the cap
  EXPECT_NE(page.find("the decode matrix failed"), std::string::npos);
}

TEST(PoolPage, ShowsEveryQueueClassAndTheJobsItDoesNotServe) {
  const std::string page = PoolPageHtml(Sample());
  EXPECT_NE(page.find("data-class=\"S\" data-type=\"vod-web-video-transcoding\" data-count=\"2\""),
            std::string::npos);
  EXPECT_NE(page.find("data-class=\"XL\" data-type=\"vod-hls-transcoding\" data-count=\"1\""),
            std::string::npos);
  EXPECT_NE(page.find("data-type=\"generate-video-storyboard\" data-count=\"4\""),
            std::string::npos);
  EXPECT_NE(page.find("4m10s"), std::string::npos);  // the XL job's wait
}

TEST(PoolPage, ShowsTheDecisionsWithTheirReasons) {
  const std::string page = PoolPageHtml(Sample());
  EXPECT_NE(page.find("box-1:gpu0 enabled: 3 jobs wait"), std::string::npos);
}

TEST(PoolPage, ShowsHostileNamesAndReasonsAsText) {
  PoolPageInput input = Sample();
  input.report.workers[0].name = kHostile;
  input.report.workers[0].last_reason = kHostile;
  input.report.workers[0].gpu_model = kHostile;
  input.report.queue_by_class[0].type = kHostile;
  input.report.not_served = {{kHostile, {.count = 1, .oldest_age_s = 1}}};
  input.report.decisions[0].reason = kHostile;
  input.report.unservable = {kHostile};
  input.note = kHostile;
  const std::string page = PoolPageHtml(input);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("<img"), std::string::npos);
  EXPECT_NE(page.find("&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"),
            std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

TEST(PoolPage, AQuoteInANameCannotLeaveItsAttribute) {
  PoolPageInput input = Sample();
  input.report.workers[0].name = "w\" onmouseover=\"alert(1)";
  const std::string page = PoolPageHtml(input);
  EXPECT_EQ(page.find("onmouseover=\"alert"), std::string::npos);
  EXPECT_NE(page.find("data-worker=\"w&quot; onmouseover=&quot;alert(1)\""), std::string::npos);
}

TEST(PoolPage, DrawsFourChartsFromAnEmptyHistory) {
  const std::string page = PoolPageHtml(Sample());
  std::size_t charts = 0;
  for (std::size_t at = 0; (at = page.find("<svg", at)) != std::string::npos; ++at) ++charts;
  EXPECT_EQ(charts, 4u);
  EXPECT_EQ(page.find("nan"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

TEST(PoolPage, DrawsTheHistoryItIsGiven) {
  PoolPageInput input = Sample();
  for (int i = 0; i < 10; ++i) {
    HistorySample sample;
    sample.t_s = input.now_s - 3600 + i * 60;
    sample.pressure = {0.1 * i, 0, 0, 1};
    sample.active_workers = i % 3;
    sample.pending = i;
    sample.oldest_wait_s = 10.0 * i;
    if (i % 2) sample.started_wait_s = 5.0 * i;
    input.history.push_back(sample);
  }
  const std::string page = PoolPageHtml(input);
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = page.find("<polyline", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, 4u + 1 + 1 + 2);  // a class each, ACTIVE, pending, the two waits
  EXPECT_NE(page.find("class=\"target\""), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(page), std::nullopt);
}

TEST(PoolPage, SaysWhenTheQueueCouldNotBeRead) {
  PoolPageInput input = Sample();
  input.report.queue_read_ok = false;
  input.report.queue_data_age_s = 95;
  EXPECT_NE(PoolPageHtml(input).find("could not be read; the list shown is 1m35s old"),
            std::string::npos);
}

TEST(PoolPage, AFileNeitherRefreshesNorLinks) {
  PoolPageInput input = Sample();
  input.refresh_s = 0;
  input.links = false;
  const std::string page = PoolPageHtml(input);
  EXPECT_EQ(page.find("http-equiv=\"refresh\""), std::string::npos);
  EXPECT_EQ(page.find("href=\"status\""), std::string::npos);
}

}  // namespace
}  // namespace mc::pool
