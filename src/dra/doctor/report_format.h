// The doctor's report, in two forms:
//  - for a person: a line per result (status, check id, finding), what to do under it;
//  - for a program (`--output json`): each result's id, status, finding and remedy.
// The JSON form ends with a summary.
#pragma once

#include <string>

#include "dra/doctor/check_result.h"

namespace mc::dra {

std::string ReportText(const CheckResults& results);
std::string ReportJson(const CheckResults& results);

}  // namespace mc::dra
