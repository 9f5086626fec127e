// The worker's page for a person: `/` on its status port. Its state and the reason, the GPU and
// what its driver states, the recent jobs with their evidence and verdicts, the canaries and the
// self-test's report. It is drawn from the status document itself (status_document.h), so the
// page shows what GET /status says, no more; every string in it is escaped.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace mc::worker {

// StatusPageHtml is a whole HTML document; `refresh_s` > 0 makes it reload itself that often.
std::string StatusPageHtml(const nlohmann::ordered_json& document, int refresh_s);

}  // namespace mc::worker
