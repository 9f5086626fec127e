// ClaimChecker decides whether the plugin may prepare one ResourceClaim.
// The kubelet's request names a claim only by namespace, name and UID.
// The checker reads the claim and answers:
//  - nullopt when it can be prepared;
//  - an error text when not, e.g. when the claim by that name has another UID.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/base/result.h"

namespace mc::dra {

// One allocated device of a claim, as the kubelet records it for the pod.
struct PreparedDevice {
  std::vector<std::string> request_names;
  std::string pool_name;
  std::string device_name;
  std::optional<std::string> share_id;
};

using ClaimChecker = std::function<Result<std::vector<PreparedDevice>>(
    const std::string& claim_namespace, const std::string& name, const std::string& uid)>;

// PluginLog receives the plugin's log lines.
// So the agent decides where they go, and the tests can read them.
using PluginLog = std::function<void(const std::string& line)>;

}  // namespace mc::dra
