#include "common/kube/line_splitter.h"

#include <gtest/gtest.h>

#include <vector>

namespace mc::kube {
namespace {

struct Collected {
  std::vector<std::string> lines;
  std::function<void(std::string_view)> sink() {
    return [this](std::string_view line) { lines.emplace_back(line); };
  }
};

TEST(LineSplitter, LinesCutAnywhereByTheNetworkComeOutWhole) {
  const std::string body = "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n";
  for (std::size_t cut = 1; cut < body.size(); ++cut) {
    LineSplitter splitter;
    Collected out;
    ASSERT_TRUE(splitter.Feed(std::string_view(body).substr(0, cut), out.sink()));
    ASSERT_TRUE(splitter.Feed(std::string_view(body).substr(cut), out.sink()));
    EXPECT_EQ(out.lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}))
        << "cut at " << cut;
    EXPECT_TRUE(splitter.rest().empty());
  }
}

TEST(LineSplitter, OneByteAtATimeWorksToo) {
  const std::string body = "one\r\ntwo\nthree";
  LineSplitter splitter;
  Collected out;
  for (char c : body) ASSERT_TRUE(splitter.Feed(std::string_view(&c, 1), out.sink()));
  EXPECT_EQ(out.lines, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(splitter.rest(), "three");
}

TEST(LineSplitter, EmptyLinesAreSkipped) {
  LineSplitter splitter;
  Collected out;
  ASSERT_TRUE(splitter.Feed("\n\r\nx\n\n", out.sink()));
  EXPECT_EQ(out.lines, (std::vector<std::string>{"x"}));
}

TEST(LineSplitter, ALineWithoutEndPastTheLimitIsRefused) {
  LineSplitter splitter;
  Collected out;
  const std::string chunk(1 << 20, 'x');
  bool accepted = true;
  for (int i = 0; i < 17 && accepted; ++i) accepted = splitter.Feed(chunk, out.sink());
  EXPECT_FALSE(accepted);
  EXPECT_FALSE(splitter.Feed("\n", out.sink()));
  EXPECT_TRUE(out.lines.empty());
}

}  // namespace
}  // namespace mc::kube
