// A line chart as inline SVG, drawn on the server: the pool page's charts over the last day.
// A pure function of its values; it divides by nothing that can be zero (an empty series, one
// sample, a flat line, a span of no length all draw), and skips values that are not finite.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mc::pool {

struct ChartSeries {
  std::string name;                               // in the legend; escaped
  std::vector<std::pair<double, double>> points;  // (seconds since the epoch, value), in order
};

struct Chart {
  std::string title;     // escaped
  std::string unit;      // after the top value and the target's; escaped
  bool seconds = false;  // the values are seconds: the axis says "2m00s", not "120"
  double from_s = 0;     // the x axis, seconds since the epoch
  double to_s = 0;
  std::string end_label = "now";    // under the right end of the x axis
  std::vector<ChartSeries> series;  // the first four get a colour each; more share them
  std::optional<double> target;     // a dashed line at this value
  std::optional<double> top;        // the y axis's top; else from the values and the target
};

// SvgChart writes a <figure> holding the title, the <svg> and its legend.
std::string SvgChart(const Chart& chart);

// FormatFixed writes a value with `decimals` decimals; one not finite as 0.
std::string FormatFixed(double value, int decimals);

// NiceTop rounds a value up to 1, 2 or 5 times a power of ten (at least 1).
double NiceTop(double value);

}  // namespace mc::pool
