#include "dra/doctor/report_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/base/json_text.h"
#include "common/base/utf8.h"
#include "dra/doctor/check_table.h"

namespace mc::dra {
namespace {

struct Counts {
  int ok = 0, warn = 0, fail = 0;
};

Counts Count(const CheckResults& results) {
  Counts counts;
  for (const CheckResult& result : results) {
    (result.status == Status::kOk     ? counts.ok
     : result.status == Status::kWarn ? counts.warn
                                      : counts.fail)++;
  }
  return counts;
}

}  // namespace

std::string ReportText(const CheckResults& results) {
  std::size_t width = 0;
  for (const CheckResult& result : results) width = std::max(width, result.id.size());
  std::string text;
  for (const CheckResult& result : results) {
    std::string status(StatusName(result.status));
    status.resize(5, ' ');
    std::string id = result.id;
    id.resize(width, ' ');
    text += status + id + "  " + ValidUtf8(result.finding) + "\n";
    if (result.status != Status::kOk && !result.remedy.empty())
      text += std::string(5 + width + 2, ' ') + "what to do: " + ValidUtf8(result.remedy) + "\n";
  }
  const Counts counts = Count(results);
  text += "doctor: " + std::to_string(counts.ok) + " ok, " + std::to_string(counts.warn) +
          " warn, " + std::to_string(counts.fail) + " fail\n";
  return text;
}

std::string ReportJson(const CheckResults& results) {
  nlohmann::ordered_json checks = nlohmann::ordered_json::array();
  for (const CheckResult& result : results) {
    checks.push_back({{"id", result.id},
                      {"status", std::string(StatusName(result.status))},
                      {"finding", ValidUtf8(result.finding)},
                      {"remedy", ValidUtf8(result.remedy)}});
  }
  const Counts counts = Count(results);
  const nlohmann::ordered_json report = {
      {"checks", std::move(checks)},
      {"summary", {{"ok", counts.ok}, {"warn", counts.warn}, {"fail", counts.fail}}}};
  return JsonText(report, 2) + "\n";
}

}  // namespace mc::dra
