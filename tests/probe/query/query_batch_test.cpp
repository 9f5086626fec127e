#include "probe/query/query_batch.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include "probe/query/child_outcome_json.h"
#include "probe/query/query_target.h"

namespace mc::probe {
namespace {

using namespace std::chrono_literals;

TEST(QueryTarget, EveryKindRoundTripsThroughItsArgument) {
  for (const QueryTarget& target : {QueryTarget{QueryTarget::Api::kVa, "/dev/dri/renderD128"},
                                    QueryTarget{QueryTarget::Api::kNvidia, "0000:01:00.0"},
                                    QueryTarget{QueryTarget::Api::kNvidia, "0000:01:00.0", true}}) {
    Result<QueryTarget> parsed = ParseTargetArgument(TargetArgument(target));
    ASSERT_TRUE(parsed) << parsed.error_message();
    EXPECT_EQ(*parsed, target);
  }
}

TEST(QueryTarget, AnUnknownKindOrAMissingPlaceIsNamed) {
  EXPECT_EQ(ParseTargetArgument("vulkan=/dev/dri/renderD128").error_message(),
            "query target \"vulkan=/dev/dri/renderD128\" has the unknown kind \"vulkan\" (va, "
            "nvidia or nvidia+sessions)");
  EXPECT_EQ(ParseTargetArgument("va=").error_message(), "query target \"va=\" is not KIND=WHERE");
  EXPECT_FALSE(ParseTargetArgument("renderD128"));
}

TEST(ChildOutcomeJson, OutcomesRoundTripAndDriverTextThatIsNotUtf8IsReplaced) {
  const std::vector<ChildOutcome> outcomes = {
      {ChildOutcome::Kind::kExited, 0, "{}", "libva info: x\n"},
      {ChildOutcome::Kind::kSignalled, SIGSEGV, "", "bad \xff"},
      {ChildOutcome::Kind::kTimedOut, 0, "", ""},
      {ChildOutcome::Kind::kNotStarted, 2, "", ""}};
  Result<std::vector<ChildOutcome>> parsed = ParseOutcomes(OutcomesToJson(outcomes));
  ASSERT_TRUE(parsed) << parsed.error_message();
  ASSERT_EQ(parsed->size(), 4u);
  EXPECT_EQ((*parsed)[0].out, "{}");
  EXPECT_EQ((*parsed)[1].kind, ChildOutcome::Kind::kSignalled);
  EXPECT_EQ((*parsed)[1].code, SIGSEGV);
  EXPECT_EQ((*parsed)[1].err, "bad \xEF\xBF\xBD");
  EXPECT_EQ((*parsed)[2].kind, ChildOutcome::Kind::kTimedOut);
  EXPECT_EQ((*parsed)[3].kind, ChildOutcome::Kind::kNotStarted);
}

TEST(ChildOutcomeJson, AnUnknownKindIsNamedWithItsPlace) {
  EXPECT_EQ(
      ParseOutcomes(
          R"([{"kind":"exited","code":0,"out":"","err":""},{"kind":"lost","code":0,"out":"","err":""}])")
          .error_message(),
      "outcomes[1].kind: unknown kind \"lost\"");
  EXPECT_EQ(ParseOutcomes("{}").error_message(), "outcomes: expected an array");
}

// The batch's own side runs here in the test process: forked children that succeed,
// crash and hang, each with an outcome of its own.
TEST(QueryBatch, ForkedQueriesEndEachInTheirOwnWay) {
  const std::vector<QueryTarget> targets = {{QueryTarget::Api::kVa, "fine"},
                                            {QueryTarget::Api::kVa, "crash"},
                                            {QueryTarget::Api::kVa, "hang"}};
  testing::internal::CaptureStdout();
  const int status = RunQueryBatchChild(targets, 500ms, [](const QueryTarget& target) {
    if (target.where == "crash") raise(SIGSEGV);
    if (target.where == "hang") pause();
    if (write(1, "report", 6) != 6) return 1;
    return 0;
  });
  const std::string printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(status, 0);
  Result<std::vector<ChildOutcome>> outcomes = ParseOutcomes(printed);
  ASSERT_TRUE(outcomes) << outcomes.error_message() << ": " << printed;
  ASSERT_EQ(outcomes->size(), 3u);
  EXPECT_EQ((*outcomes)[0].kind, ChildOutcome::Kind::kExited);
  EXPECT_EQ((*outcomes)[0].out, "report");
  EXPECT_EQ((*outcomes)[1].kind, ChildOutcome::Kind::kSignalled);
  EXPECT_EQ((*outcomes)[1].code, SIGSEGV);
  EXPECT_EQ((*outcomes)[2].kind, ChildOutcome::Kind::kTimedOut);
}

TEST(QueryBatch, ABatchThatWritesNoOutcomesFailsEveryTarget) {
  const std::vector<ChildOutcome> outcomes = RunQueryBatch(
      {"/bin/true", 1s}, {{QueryTarget::Api::kVa, "a"}, {QueryTarget::Api::kVa, "b"}});
  ASSERT_EQ(outcomes.size(), 2u);
  for (const ChildOutcome& outcome : outcomes) {
    EXPECT_EQ(outcome.kind, ChildOutcome::Kind::kExited);
    EXPECT_EQ(outcome.code, 1);
    EXPECT_EQ(
        outcome.err,
        "the query batch wrote outcomes that do not parse: the batch's outcomes are not JSON");
  }
}

TEST(QueryBatch, NoTargetsStartNoBatch) {
  EXPECT_TRUE(RunQueryBatch({"/nonexistent", 1s}, {}).empty());
}

}  // namespace
}  // namespace mc::probe
