#include "pool/page/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/base/html_text.h"
#include "pool/policy/time.h"

namespace mc::pool {

namespace {

// The drawing's own units; the SVG scales to the page's width.
constexpr double kWidth = 320;
constexpr double kHeight = 150;
constexpr double kLeft = 44;
constexpr double kRight = 8;
constexpr double kTop = 8;
constexpr double kBottom = 20;
constexpr int kColours = 4;

std::string Fixed(double value) { return FormatFixed(value, 1); }

// The y axis's label: integers as they are, fractions with a decimal or two.
std::string AxisValue(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e9) return FormatFixed(value, 0);
  return FormatFixed(value, value < 1 ? 2 : 1);
}

std::string ValueLabel(const Chart& chart, double value) {
  if (chart.seconds) return FormatDuration(Seconds(value));
  return AxisValue(value) + HtmlEscape(chart.unit);
}

std::string Ago(double seconds) {
  return seconds <= 0 ? std::string("0") : "-" + FormatDuration(Seconds(seconds));
}

}  // namespace

std::string FormatFixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, std::isfinite(value) ? value : 0.0);
  return text;
}

double NiceTop(double value) {
  if (!std::isfinite(value) || value <= 1) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (double step : {1.0, 2.0, 5.0, 10.0}) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

std::string SvgChart(const Chart& chart) {
  const double from = std::isfinite(chart.from_s) ? chart.from_s : 0;
  const double to = std::isfinite(chart.to_s) && chart.to_s > from ? chart.to_s : from + 1;
  double highest = chart.target.value_or(0);
  bool any = false;
  for (const ChartSeries& series : chart.series) {
    for (const auto& [t, value] : series.points) {
      if (!std::isfinite(t) || !std::isfinite(value)) continue;
      any = true;
      highest = std::max(highest, value);
    }
  }
  const double top = chart.top && *chart.top > 0 ? *chart.top : NiceTop(highest * 1.05);
  const double plot_w = kWidth - kLeft - kRight;
  const double plot_h = kHeight - kTop - kBottom;
  auto x_of = [&](double t) {
    return kLeft + std::clamp((t - from) / (to - from), 0.0, 1.0) * plot_w;
  };
  auto y_of = [&](double v) { return kTop + plot_h - std::clamp(v / top, 0.0, 1.0) * plot_h; };

  const std::string title = HtmlEscape(chart.title);
  std::string out = "<figure>\n<figcaption>" + title + "</figcaption>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + FormatFixed(kWidth, 0) + " " +
         FormatFixed(kHeight, 0) + "\" role=\"img\" aria-label=\"" + title + "\">\n";
  // The axes, the top value and zero, and the span under the x axis.
  const std::string bottom = Fixed(kTop + plot_h);
  out += "<line class=\"axis\" x1=\"" + Fixed(kLeft) + "\" y1=\"" + Fixed(kTop) + "\" x2=\"" +
         Fixed(kLeft) + "\" y2=\"" + bottom + "\"/>\n";
  out += "<line class=\"axis\" x1=\"" + Fixed(kLeft) + "\" y1=\"" + bottom + "\" x2=\"" +
         Fixed(kWidth - kRight) + "\" y2=\"" + bottom + "\"/>\n";
  out += "<text x=\"" + Fixed(kLeft - 4) + "\" y=\"" + Fixed(kTop + 8) + "\" text-anchor=\"end\">" +
         ValueLabel(chart, top) + "</text>\n";
  out += "<text x=\"" + Fixed(kLeft - 4) + "\" y=\"" + bottom + "\" text-anchor=\"end\">0</text>\n";
  const double label_y = kHeight - 5;
  out += "<text x=\"" + Fixed(kLeft) + "\" y=\"" + Fixed(label_y) + "\">" + Ago(to - from) +
         "</text>\n";
  out += "<text x=\"" + Fixed(kLeft + plot_w / 2) + "\" y=\"" + Fixed(label_y) +
         "\" text-anchor=\"middle\">" + Ago((to - from) / 2) + "</text>\n";
  out += "<text x=\"" + Fixed(kWidth - kRight) + "\" y=\"" + Fixed(label_y) +
         "\" text-anchor=\"end\">" + HtmlEscape(chart.end_label) + "</text>\n";
  if (chart.target && std::isfinite(*chart.target)) {
    const std::string y = Fixed(y_of(*chart.target));
    out += "<line class=\"target\" x1=\"" + Fixed(kLeft) + "\" y1=\"" + y + "\" x2=\"" +
           Fixed(kWidth - kRight) + "\" y2=\"" + y + "\"/>\n";
  }
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    std::string points;
    for (const auto& [t, value] : chart.series[i].points) {
      if (!std::isfinite(t) || !std::isfinite(value) || t < from || t > to) continue;
      if (!points.empty()) points += ' ';
      points += Fixed(x_of(t)) + "," + Fixed(y_of(value));
    }
    if (points.empty()) continue;
    // One point alone draws as a short flat stroke, so it shows.
    if (points.find(' ') == std::string::npos) points += ' ' + points;
    out +=
        "<polyline class=\"s" + std::to_string(i % kColours) + "\" points=\"" + points + "\"/>\n";
  }
  if (!any) {
    out += "<text x=\"" + Fixed(kLeft + plot_w / 2) + "\" y=\"" + Fixed(kTop + plot_h / 2) +
           "\" text-anchor=\"middle\">no samples yet</text>\n";
  }
  out += "</svg>\n<div class=\"legend\">";
  for (std::size_t i = 0; i < chart.series.size(); ++i) {
    out += "<span class=\"k" + std::to_string(i % kColours) + "\">&#9632;</span> " +
           HtmlEscape(chart.series[i].name) + " ";
  }
  if (chart.target) {
    out += "<span class=\"bad\">- -</span> target " + ValueLabel(chart, *chart.target);
  }
  out += "</div>\n</figure>\n";
  return out;
}

}  // namespace mc::pool
