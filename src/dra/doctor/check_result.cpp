#include "dra/doctor/check_result.h"

#include <algorithm>

namespace mc::dra {

bool AnyFailed(const CheckResults& results) {
  return std::ranges::any_of(
      results, [](const CheckResult& result) { return result.status == Status::kFail; });
}

}  // namespace mc::dra
