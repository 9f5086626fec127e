// The replay's comparison: the real and the simulated promotions and demotions, pair by pair.
#include "pool/replay/comparison.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace mc::pool {
namespace {

const std::vector<DecisionEvent> kReal = {
    {"promotion", "e2e:gpu0", 0}, {"promotion", "e2e:gpu1", 24}, {"demotion", "e2e:gpu1", 120}};

TEST(Comparison, TheSameDecisionsEachWithinACycleAgree) {
  const Comparison comparison = Compare(
      kReal,
      {{"promotion", "e2e:gpu0", 0}, {"promotion", "e2e:gpu1", 27}, {"demotion", "e2e:gpu1", 117}},
      3);
  EXPECT_TRUE(comparison.agrees);
  EXPECT_TRUE(comparison.first_disagreement.empty());
  ASSERT_EQ(comparison.rows.size(), 3u);
  for (const ComparedRow& row : comparison.rows) EXPECT_TRUE(row.agrees);
  const std::string table = ComparisonTable(comparison);
  EXPECT_NE(table.find("agree: 3 promotions and demotions"), std::string::npos) << table;
  const nlohmann::json json = nlohmann::json::parse(ComparisonJson(comparison));
  EXPECT_EQ(json["agree"], true);
  EXPECT_EQ(json["rows"][1]["simulated"]["t"], 27);
}

TEST(Comparison, ADecisionMoreThanACycleAwayDisagrees) {
  const Comparison comparison = Compare(kReal,
                                        {{"promotion", "e2e:gpu0", 0},
                                         {"promotion", "e2e:gpu1", 27.5},
                                         {"demotion", "e2e:gpu1", 120}},
                                        3);
  EXPECT_FALSE(comparison.agrees);
  EXPECT_FALSE(comparison.rows[1].agrees);
  EXPECT_TRUE(comparison.rows[2].agrees);
  EXPECT_EQ(comparison.first_disagreement,
            "decision 2: the promotion of e2e:gpu1 came at 24.0 s in the real run and 27.5 s in "
            "the simulation, 3.5 s apart, more than a cycle (3.0 s)");
  EXPECT_NE(ComparisonTable(comparison).find("DIFFERS"), std::string::npos);
}

TEST(Comparison, AnotherWorkerOrAnotherOrderDisagrees) {
  const Comparison other_worker = Compare(
      kReal,
      {{"promotion", "e2e:gpu0", 0}, {"promotion", "e2e:gpu2", 24}, {"demotion", "e2e:gpu1", 120}},
      3);
  EXPECT_EQ(other_worker.first_disagreement,
            "decision 2: the real run made a promotion of e2e:gpu1 at 24.0 s, the simulation a "
            "promotion of e2e:gpu2 at 24.0 s");
  const Comparison other_order = Compare(
      kReal,
      {{"promotion", "e2e:gpu0", 0}, {"demotion", "e2e:gpu1", 24}, {"promotion", "e2e:gpu1", 120}},
      3);
  EXPECT_FALSE(other_order.agrees);
  EXPECT_EQ(other_order.first_disagreement.rfind("decision 2: the real run made a promotion", 0),
            0u);
}

TEST(Comparison, ADecisionOnlyOneSideMadeDisagrees) {
  const Comparison fewer =
      Compare(kReal, {{"promotion", "e2e:gpu0", 0}, {"promotion", "e2e:gpu1", 24}}, 3);
  EXPECT_FALSE(fewer.agrees);
  EXPECT_EQ(fewer.first_disagreement,
            "decision 3: the real run's demotion of e2e:gpu1 at 120.0 s has no simulated one");
  std::vector<DecisionEvent> more = kReal;
  more.push_back({"promotion", "e2e:gpu2", 130});
  const Comparison extra = Compare(kReal, more, 3);
  EXPECT_EQ(extra.first_disagreement,
            "decision 4: the simulation's promotion of e2e:gpu2 at 130.0 s has no real one");
  const nlohmann::json json = nlohmann::json::parse(ComparisonJson(extra));
  EXPECT_EQ(json["agree"], false);
  EXPECT_TRUE(json["rows"][3]["real"].is_null());
}

TEST(Comparison, NoDecisionOnEitherSideAgrees) { EXPECT_TRUE(Compare({}, {}, 3).agrees); }

}  // namespace
}  // namespace mc::pool
