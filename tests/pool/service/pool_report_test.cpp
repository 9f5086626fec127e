// The manager's report as JSON, read back by `pool status`, as a table and as metrics.
#include "pool/service/pool_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/http/http_server.h"
#include "pool/service/service_config.h"
#include "support/run_command.h"
#include "worker/daemon/worker_daemon.h"

namespace mc::pool {
namespace {

PoolReport Sample() {
  PoolReport report;
  report.generated_at = FormatUtc(pool::At(1796278502));
  report.pressure = 0.734;
  report.capacity_slots = 3;
  report.demand = 7;
  report.queue_read_ok = true;
  report.pending_by_type = {{"vod-hls-transcoding", 5}, {"vod-web-video-transcoding", 2}};
  report.oldest_pending_age_s = 61.4;
  report.not_served = {{"generate-video-storyboard", {.count = 4, .oldest_age_s = 300.2}}};
  report.workers.push_back({"box-1:gpu0",
                            "ACTIVE",
                            "BUSY",
                            3,
                            3,
                            {{"S", 1.2}, {"L", 0.9}},
                            "S+M+L+XL",
                            "promoted: pressure 0.73 at or above 0.60 for 2 windows"});
  report.workers.push_back({"box-2:gpu0", "SPARE", "UNREADABLE", 0, 0, {{"S", 1}}, "S", ""});
  report.unservable = {"peertube-worker-3 cannot be placed: 0/2 nodes are available"};
  report.counters.cycles = 40;
  report.counters.promotions = 2;
  report.counters.actions_failed = 1;
  return report;
}

TEST(PoolReport, TheJsonReadsBackToTheSameReport) {
  const PoolReport report = Sample();
  Result<PoolReport> again = ReportFromJson(ReportToJson(report));
  ASSERT_TRUE(again) << again.error_message();
  EXPECT_EQ(ReportToJson(*again), ReportToJson(report));
  EXPECT_EQ(again->generated_at, "2026-12-03T06:15:02Z");
  EXPECT_EQ(again->workers[0].last_reason, report.workers[0].last_reason);
  EXPECT_EQ(again->counters.promotions, 2);
  EXPECT_EQ(again->not_served.at("generate-video-storyboard").count, 4);
}

TEST(PoolReport, TheReportOfAManagerThatShowsNoJobsItDoesNotServeReadsAsNone) {
  nlohmann::json older = nlohmann::json::parse(ReportToJson(Sample()));
  older["queue"].erase("not_served_by_type");
  Result<PoolReport> report = ReportFromJson(older.dump());
  ASSERT_TRUE(report) << report.error_message();
  EXPECT_TRUE(report->not_served.empty());
}

TEST(PoolReport, AnotherProgramsAnswerIsNotTakenForAReport) {
  Result<PoolReport> report = ReportFromJson(R"({"schema_version": 2, "state": "AVAILABLE"})");
  ASSERT_FALSE(report);
  EXPECT_NE(report.error_message().find("not the pool manager's report"), std::string::npos);
}

TEST(PoolReport, TheTableHasALinePerWorkerWithItsStatesAndLastReason) {
  const std::string table = ReportTable(Sample());
  EXPECT_NE(table.find("pressure 0.73, pending vod-hls-transcoding=5 vod-web-video-transcoding=2"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("box-1:gpu0"), std::string::npos);
  EXPECT_NE(table.find("ACTIVE"), std::string::npos);
  EXPECT_NE(table.find("promoted: pressure 0.73"), std::string::npos);
  EXPECT_NE(table.find("unservable: peertube-worker-3"), std::string::npos);
  EXPECT_NE(table.find("not served by this pool: generate-video-storyboard=4 (oldest 300 s)\n"),
            std::string::npos)
      << table;
}

// An OFFLINE worker the manager meant to enable, whose every enable failed: the table says the
// enable was not applied and why, not the reason of an action that never happened, and that the
// worker refuses work.
TEST(PoolReport, AnEnableTheWorkerNeverHeardIsShownWithItsErrorNotAsDone) {
  PoolReport report = Sample();
  WorkerRow& row = report.workers[0];
  row.admission_state = "OFFLINE";
  row.last_reason = "enabled at concurrency 1, its service up";
  row.failed = FailedAction{.action = "enable box-1:gpu0 at concurrency 1",
                            .error = "connecting to 127.0.0.1:9466: Connection refused",
                            .attempts = 13};
  const std::string table = ReportTable(report);
  EXPECT_NE(table.find("NOT APPLIED: enable box-1:gpu0 at concurrency 1 failed 13 time(s)"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("last action failed: enable box-1:gpu0 at concurrency 1 (attempt 13): "
                       "connecting to 127.0.0.1:9466: Connection refused"),
            std::string::npos)
      << table;
  EXPECT_EQ(table.find("enabled at concurrency 1"), std::string::npos) << table;
  EXPECT_NE(table.find("box-1:gpu0 refuses work (OFFLINE)"), std::string::npos) << table;
  // The JSON carries it, and reads it back.
  Result<PoolReport> again = ReportFromJson(ReportToJson(report));
  ASSERT_TRUE(again) << again.error_message();
  ASSERT_TRUE(again->workers[0].failed);
  EXPECT_EQ(again->workers[0].failed->attempts, 13);
  EXPECT_FALSE(again->workers[1].failed);
}

TEST(PoolReport, TheMetricsCountWorkersPerStateAndCarryTheCounters) {
  const std::string metrics = ReportToPrometheus(Sample());
  EXPECT_NE(metrics.find("pt_pool_pressure 0.734\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("pt_pool_pending_jobs{type=\"vod-hls-transcoding\"} 5\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("pt_pool_workers{state=\"ACTIVE\"} 1\n"), std::string::npos);
  EXPECT_NE(metrics.find("pt_pool_workers{state=\"COLD\"} 0\n"), std::string::npos);
  EXPECT_NE(metrics.find("pt_pool_promotions_total 2\n"), std::string::npos);
  EXPECT_NE(metrics.find("pt_pool_not_served_jobs{type=\"generate-video-storyboard\"} 4\n"),
            std::string::npos);
  EXPECT_NE(metrics.find("pt_pool_worker_weight{worker=\"box-1:gpu0\",class=\"S\"} 1.2\n"),
            std::string::npos);
}

TEST(PoolReport, TheMetricsSayHowOldTheJobListIsSoALostPeerTubeCanBeAlertedOn) {
  PoolReport report = Sample();
  report.queue_read_ok = false;
  report.queue_data_age_s = 312.5;
  const std::string metrics = ReportToPrometheus(report);
  EXPECT_NE(metrics.find("pt_pool_queue_read_ok 0\n"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("# TYPE pt_pool_queue_data_age_seconds gauge\n"
                         "pt_pool_queue_data_age_seconds 312.5\n"),
            std::string::npos)
      << metrics;
}

TEST(PoolReport, AWorkerNameWithQuotesAndALineBreakStaysInsideItsLabel) {
  PoolReport report = Sample();
  report.workers[0].name = "box\"1\"\nfake_metric 1";
  const std::string metrics = ReportToPrometheus(report);
  EXPECT_NE(
      metrics.find("pt_pool_worker_weight{worker=\"box\\\"1\\\"\\nfake_metric 1\",class=\"S\"}"),
      std::string::npos)
      << metrics;
  EXPECT_EQ(metrics.find("\nfake_metric"), std::string::npos) << metrics;
}

// `pool run` listens where `pool status` looks by default. No GPU's worker takes that port.
TEST(PoolStatus, ItsDefaultUrlIsPoolRunsDefaultListenOffTheWorkersPorts) {
  EXPECT_EQ(ServiceConfig{}.listen, "127.0.0.1:9460");
  const probe::ChildOutcome help =
      mc::testing::RunCommand({MEDIA_CAP_BINARY, "pool", "status", "--help"});
  EXPECT_EQ(help.code, 0) << help.err;
  EXPECT_NE(help.out.find("http://" + ServiceConfig{}.listen), std::string::npos) << help.out;
  for (std::size_t gpu = 0; gpu < 16; ++gpu) {
    for (int base : {worker::kStatusPortBase, worker::kGatePortBase, worker::kControlPortBase})
      EXPECT_NE(worker::DefaultListenAddress(base, gpu), ServiceConfig{}.listen);
  }
}

// StatusOf runs `pool status` against a server that serves `routes`.
probe::ChildOutcome StatusOf(http::Routes routes, std::string& url) {
  Result<std::unique_ptr<http::Server>> server = http::Server::Start("127.0.0.1:0", routes);
  EXPECT_TRUE(server) << server.error_message();
  if (!server) return {};
  url = "http://" + (*server)->address();
  return mc::testing::RunCommand({MEDIA_CAP_BINARY, "pool", "status", "--url", url});
}

TEST(PoolStatus, A404AsksWhetherPoolRunIsListeningAtTheUrlItTried) {
  std::string url;
  const probe::ChildOutcome status =
      StatusOf({{"/livez", [] { return http::Response{.status = 200, .body = "ok"}; }}}, url);
  EXPECT_EQ(status.code, 1) << status.err;
  EXPECT_NE(status.err.find("GET " + url + "/status answered 404"), std::string::npos)
      << status.err;
  EXPECT_NE(status.err.find("is `pool run` listening at " + url + "?"), std::string::npos)
      << status.err;
}

// A worker's status document is no pool manager's report.
TEST(PoolStatus, AnAnswerThatIsNotThePoolsReportAsksWhetherPoolRunIsListeningThere) {
  std::string url;
  const probe::ChildOutcome status =
      StatusOf({{"/status",
                 [] {
                   return http::Response{.status = 200,
                                         .body = R"({"schema_version": 2, "state": "AVAILABLE"})"};
                 }}},
               url);
  EXPECT_EQ(status.code, 1) << status.err;
  EXPECT_NE(status.err.find("not the pool manager's report"), std::string::npos) << status.err;
  EXPECT_NE(status.err.find("is `pool run` listening at " + url + "?"), std::string::npos)
      << status.err;
}

}  // namespace
}  // namespace mc::pool
