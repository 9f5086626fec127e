#include "probe/query/child_reports.h"

#include <gtest/gtest.h>

#include "probe/facts/nvidia_facts_json.h"
#include "probe/query/query_batch.h"

namespace mc::probe {
namespace {

constexpr std::chrono::milliseconds kDeadline{20000};

TEST(ChildReports, AGoodReportBecomesItsFacts) {
  NvidiaFacts facts;
  facts.name = "NVIDIA H200";
  facts.encoder.unavailable_reason =
      "NvEncOpenEncodeSessionEx failed: NV_ENC_ERR_UNSUPPORTED_DEVICE (2)";
  ChildOutcome outcome{ChildOutcome::Kind::kExited, 0, NvidiaFactsToJson(facts), ""};
  Result<NvidiaFacts> read = FactsFromOutcome<NvidiaFacts>(outcome, kDeadline, &ParseNvidiaFacts);
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_EQ(*read, facts);
}

TEST(ChildReports, AFailedChildIsDescribedInItsOwnWords) {
  ChildOutcome outcome{
      ChildOutcome::Kind::kExited, 1, "",
      "cuInit failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected\n"};
  Result<NvidiaFacts> read = FactsFromOutcome<NvidiaFacts>(outcome, kDeadline, &ParseNvidiaFacts);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error_message(),
            "cuInit failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected");
}

TEST(ChildReports, AReportThatDoesNotParseIsAFailure) {
  ChildOutcome outcome{ChildOutcome::Kind::kExited, 0, "{\"name\": 3}", ""};
  Result<NvidiaFacts> read = FactsFromOutcome<NvidiaFacts>(outcome, kDeadline, &ParseNvidiaFacts);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error_message(),
            "the query wrote a report that does not parse: driverVersion: missing");
}

TEST(ChildReports, AProgramThatCannotStartFailsEveryGpu) {
  const std::vector<QueryTarget> targets = {{QueryTarget::Api::kNvidia, "0000:01:00.0"},
                                            {QueryTarget::Api::kNvidia, "0000:02:00.0"}};
  const std::vector<Result<NvidiaFacts>> results = FactsFromOutcomes<NvidiaFacts>(
      RunQueryBatch({"/nonexistent/media-capabilities", kDeadline}, targets), kDeadline,
      &ParseNvidiaFacts);
  ASSERT_EQ(results.size(), 2u);
  for (const Result<NvidiaFacts>& result : results) {
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error_message(),
              "the query batch failed: the query could not start: No such file or directory");
  }
}

}  // namespace
}  // namespace mc::probe
