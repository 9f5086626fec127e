// The PeerTube server and official runner a worker works beside. Each pair of their versions is one
// of:
// - tested end to end here;
// - compatible by the contract with PeerTube's published models;
// - not known;
// - known to break.
//
// The rules are a table (kVersionRules).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::peertube {

struct Version {
  int major = 0;
  int minor = 0;
  int patch = 0;
  std::string text;  // as the program wrote it, "8.2.3" or "9.0.0-rc.1"

  auto Key() const { return major * 1000000 + minor * 1000 + patch; }
};

// ParseVersion reads "MAJOR.MINOR.PATCH". A leading "v" and a pre-release suffix are allowed.
Result<Version> ParseVersion(std::string_view text);
// ParseServerVersion reads the serverVersion of `GET /api/v1/config`.
Result<Version> ParseServerVersion(std::string_view config_json);
// ParseRunnerVersion reads the version line `peertube-runner --version` prints.
Result<Version> ParseRunnerVersion(std::string_view output);

enum class Support { kTested, kByContract, kUnknown, kBreaks };

// SupportName is the status document's word: tested, by-contract, unknown, breaks.
std::string_view SupportName(Support support);

struct VersionRule {
  std::string_view server_from, server_to;  // inclusive; "" for any
  std::string_view runner_from, runner_to;
  Support support;
  std::string_view advice;
};

// The first rule that holds decides.
inline constexpr VersionRule kVersionRules[] = {
    {"", "5.1.999", "", "", Support::kBreaks,
     "PeerTube before 5.2 has no remote runners: upgrade PeerTube"},
    {"7.2.1", "7.2.1", "0.1.3", "0.1.3", Support::kTested,
     "tested end to end (make test-peertube)"},
    {"7.2.0", "9.0.999", "0.1.0", "0.6.999", Support::kByContract,
     "checked against PeerTube's published models, not run end to end here"},
};

struct SupportVerdict {
  Support support = Support::kUnknown;
  std::string advice;
};

// JudgeVersions applies the rules. These are kUnknown, with what to do:
// - a version not known, because it could not be read;
// - a pair no rule covers.
SupportVerdict JudgeVersions(const std::optional<Version>& server,
                             const std::optional<Version>& runner);

}  // namespace mc::peertube
