// SlicePublisher keeps the server's ResourceSlices of this driver and node.
// It keeps them equal to the devices the agent found. It:
//  - holds the watch's view of those slices;
//  - writes only when they differ;
//  - retries a conflict at once, after a fresh read;
//  - otherwise asks to be called again after a backoff.
// A failed write is retried, never dropped.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/kube/list_watch.h"
#include "dra/agent/backoff.h"
#include "dra/agent/slice_api.h"
#include "dra/slices/resource_slices.h"
#include "probe/devices/device.h"

namespace mc::dra {

class SlicePublisher {
 public:
  using Log = std::function<void(const std::string&)>;

  SlicePublisher(SliceApi& api, std::string driver, std::string node, Log log);

  // Apply takes one change from the watch of the agent's own slices.
  void Apply(const kube::WatchUpdate& update);
  // Whether the watch has listed the slices yet.
  // Before that the agent does not know what the server holds, and publishes nothing.
  bool listed() const { return listed_; }

  // Publish makes the server's slices hold exactly `devices`.
  // When a request failed, the failure has been logged.
  // Its retry_after says how long to wait before calling Publish again.
  // That is the server's Retry-After or the backoff, whichever is longer.
  Result<void> Publish(const std::vector<probe::Device>& devices);

 private:
  // Each fails, as Publish does, when the pass must stop.
  Result<void> RefreshNodeUid();
  Result<void> Relist();
  // Failed logs the failure and gives it back with the wait before the next pass.
  Error Failed(Error failure);
  void Stored(const SliceWrite& write, const nlohmann::json& stored);

  SliceApi& api_;
  SliceOwner owner_;
  Log log_;
  bool listed_ = false;
  std::map<std::string, nlohmann::json> slices_;
  std::map<std::string, StoredForm> stored_forms_;
  Backoff backoff_;
};

}  // namespace mc::dra
