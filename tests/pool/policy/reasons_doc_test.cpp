// Every reason an operator can see is listed in docs/pool/design.md, word for word, so the page
// and the table cannot drift apart.
#include <gtest/gtest.h>

#include <set>

#include "pool/policy/reasons.h"
#include "source_file.h"

namespace mc::pool {
namespace {

TEST(Reasons, EveryRowIsListedInTheOperatorsPage) {
  const std::string page = testing::SourceFile("docs/pool/design.md");
  ASSERT_FALSE(page.empty());
  for (const ReasonTemplate& row : ReasonTable()) {
    EXPECT_NE(page.find("| `" + std::string(row.id) + "` | " + row.text + " |"), std::string::npos)
        << "docs/pool/design.md lacks the row of " << row.id << ": | `" << row.id << "` | "
        << row.text << " |";
  }
}

TEST(Reasons, IdsAreUniqueAndEveryCodeHasARow) {
  std::set<std::string> ids;
  for (const ReasonTemplate& row : ReasonTable()) {
    EXPECT_TRUE(ids.insert(row.id).second) << row.id;
    EXPECT_EQ(&ReasonRow(row.code), &row) << row.id;
  }
}

TEST(Reasons, BlanksAreFilledByName) {
  const Reason reason =
      MakeReason(ReasonCode::kProbeStale, "w1", {{"age", "6m12s"}, {"max", "5m00s"}});
  EXPECT_EQ(reason.text, "w1 not promoted: its last probe is 6m12s old (needs less than 5m00s)");
  EXPECT_EQ(reason.worker, "w1");
}

}  // namespace
}  // namespace mc::pool
