// CheckResult is one line of `media-capabilities doctor`. It says:
//  - which check it is;
//  - how it came out;
//  - what was found;
//  - what to do about it.
// A check that looks at each GPU gives one result per GPU.
// So one bad GPU never hides the others.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mc::dra {

enum class Status { kOk, kWarn, kFail };

constexpr std::string_view StatusName(Status status) {
  switch (status) {
    case Status::kOk:
      return "ok";
    case Status::kWarn:
      return "warn";
    case Status::kFail:
      return "fail";
  }
  return "fail";
}

struct CheckResult {
  // One of the ids of the check table (check_table.h).
  std::string id;
  Status status = Status::kOk;
  // What was found, in words.
  // It names the GPU, file or object it is about.
  std::string finding;
  // What to do; empty when nothing is to be done.
  std::string remedy;

  bool operator==(const CheckResult&) const = default;
};

using CheckResults = std::vector<CheckResult>;

inline CheckResult Ok(std::string_view id, std::string finding) {
  return {std::string(id), Status::kOk, std::move(finding), ""};
}
inline CheckResult Warn(std::string_view id, std::string finding, std::string remedy) {
  return {std::string(id), Status::kWarn, std::move(finding), std::move(remedy)};
}
inline CheckResult Fail(std::string_view id, std::string finding, std::string remedy) {
  return {std::string(id), Status::kFail, std::move(finding), std::move(remedy)};
}

// AnyFailed says whether the doctor exits non-zero.
bool AnyFailed(const CheckResults& results);

}  // namespace mc::dra
