// The pool manager's page for the admin: every worker, the queue by class and type, the last
// decisions with their reasons, and the charts of the last day, as one HTML document.
// `pool run` serves it at / on the report port; `pool simulate --html` writes it for a
// simulated run. A pure function of plain values (docs/pool/page.md).
#pragma once

#include <deque>
#include <string>

#include "pool/service/pool_history.h"
#include "pool/service/pool_report.h"

namespace mc::pool {

struct PoolPageInput {
  PoolReport report;
  std::deque<HistorySample> history;  // oldest first
  double now_s = 0;                   // the charts' right end, seconds since the epoch
  double span_s = 24 * 3600;          // how far back the charts reach
  std::string end_label = "now";      // under the charts' right end
  int refresh_s = 0;                  // the page reloads itself this often; 0: never (a file)
  std::string title = "Pool manager";
  std::string note;    // a line under the title: what run this is; escaped
  bool links = false;  // link the report's JSON and metrics beside the page (served, not a file)
};

std::string PoolPageHtml(const PoolPageInput& input);

}  // namespace mc::pool
