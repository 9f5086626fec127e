// The doctor's report as a person reads it (one line per result: status, check id, finding,
// and under it what to do) and as a program reads it (`--output json`: every result with its
// id, status, finding and remedy, and a summary).
#pragma once

#include <string>

#include "dra/doctor/check_result.h"

namespace mc::dra {

std::string ReportText(const CheckResults& results);
std::string ReportJson(const CheckResults& results);

}  // namespace mc::dra
