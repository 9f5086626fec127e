// The charts as inline SVG: well formed, bounded, and drawn from nothing without a division by
// zero.
#include "pool/page/svg_chart.h"

#include <gtest/gtest.h>

#include <limits>

#include "support/markup_balance.h"

namespace mc::pool {
namespace {

Chart DayChart() {
  Chart chart;
  chart.title = "Pending jobs";
  chart.from_s = 1000;
  chart.to_s = 1000 + 86400;
  return chart;
}

TEST(SvgChart, AnEmptyHistoryDrawsAxesAndSaysSo) {
  Chart chart = DayChart();
  chart.series.push_back({"pending", {}});
  const std::string svg = SvgChart(chart);
  EXPECT_NE(svg.find("no samples yet"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_EQ(svg.find("<polyline"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(svg), std::nullopt);
}

TEST(SvgChart, ASpanOfNoLengthAndAFlatZeroLineStillDraw) {
  Chart chart;
  chart.title = "ACTIVE workers";
  chart.from_s = 50;
  chart.to_s = 50;
  chart.series.push_back({"ACTIVE", {{50, 0}, {50, 0}}});
  const std::string svg = SvgChart(chart);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(svg), std::nullopt);
}

TEST(SvgChart, SkipsValuesThatAreNotFinite) {
  Chart chart = DayChart();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  chart.series.push_back({"waits", {{2000, nan}, {3000, inf}, {4000, 5}}});
  const std::string svg = SvgChart(chart);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
}

TEST(SvgChart, KeepsEveryPointInsideThePlot) {
  Chart chart = DayChart();
  chart.top = 1;
  chart.series.push_back({"S", {{1000, 7}, {2000, -3}, {90000, 0.5}}});
  const std::string svg = SvgChart(chart);
  // The plot is 320 wide and 150 high; a value beyond the top is drawn at it.
  const std::size_t points = svg.find("points=\"");
  ASSERT_NE(points, std::string::npos);
  const std::string list = svg.substr(points + 8, svg.find('"', points + 8) - points - 8);
  std::size_t at = 0;
  while (at < list.size()) {
    const std::size_t comma = list.find(',', at);
    const std::size_t space = list.find(' ', comma);
    const double x = std::stod(list.substr(at, comma - at));
    const double y = std::stod(list.substr(comma + 1, space - comma - 1));
    EXPECT_GE(x, 0);
    EXPECT_LE(x, 320);
    EXPECT_GE(y, 0);
    EXPECT_LE(y, 150);
    at = space == std::string::npos ? list.size() : space + 1;
  }
}

TEST(SvgChart, DrawsTheTargetAsADashedLineAndNamesItInSeconds) {
  Chart chart = DayChart();
  chart.seconds = true;
  chart.target = 120;
  chart.series.push_back({"oldest pending", {{2000, 30}, {3000, 400}}});
  const std::string svg = SvgChart(chart);
  EXPECT_NE(svg.find("class=\"target\""), std::string::npos);
  EXPECT_NE(svg.find("target 2m00s"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(svg), std::nullopt);
}

TEST(SvgChart, EscapesItsTitleAndSeriesNames) {
  Chart chart = DayChart();
  chart.title = "<script>alert(1)</script>";
  chart.series.push_back({"<img src=x onerror=alert(1)>", {{2000, 1}}});
  const std::string svg = SvgChart(chart);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("<img"), std::string::npos);
  EXPECT_EQ(test::UnbalancedTag(svg), std::nullopt);
}

TEST(NiceTop, RoundsUpToOneTwoOrFive) {
  EXPECT_EQ(NiceTop(0), 1);
  EXPECT_EQ(NiceTop(0.3), 1);
  EXPECT_EQ(NiceTop(3), 5);
  EXPECT_EQ(NiceTop(11), 20);
  EXPECT_EQ(NiceTop(400), 500);
  EXPECT_EQ(NiceTop(std::numeric_limits<double>::infinity()), 1);
}

}  // namespace
}  // namespace mc::pool
