// The runners registered on the server, from `GET /api/v1/runners`. Shape: {"total", "data": [{id,
// name, description, ip, lastContact, createdAt, updatedAt}]}. PeerTube refreshes lastContact on a
// runner's API calls at most every 30 s. An idle runner calls nothing. So an old lastContact says a
// runner is quiet, not gone.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::peertube {

struct RegisteredRunner {
  int id = 0;
  std::string name;
  // lastContact, in seconds since the epoch.
  double last_contact_s = 0;
};

struct RegisteredRunnerPage {
  std::int64_t total = 0;
  std::vector<RegisteredRunner> runners;
};

// ParseRunnerList reads one page of the list. A wrong shape is invalid input naming its place.
// Example: "data[1].lastContact: expected an ISO-8601 time".
Result<RegisteredRunnerPage> ParseRunnerList(std::string_view json);

}  // namespace mc::peertube
