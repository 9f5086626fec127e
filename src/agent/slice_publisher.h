// SlicePublisher keeps the server's ResourceSlices of this driver and node equal to the
// devices the agent found. It holds the watch's view of those slices, writes only when they
// differ, retries a conflict at once after a fresh read, and otherwise asks to be called
// again after a backoff: a failed write is retried, never dropped.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "agent/backoff.h"
#include "agent/slice_api.h"
#include "dra/device.h"
#include "dra/resource_slices.h"
#include "kube/list_watch.h"

namespace mc {

class SlicePublisher {
 public:
  using Log = std::function<void(const std::string&)>;

  SlicePublisher(SliceApi& api, std::string driver, std::string node, Log log);

  // Apply takes one change from the watch of the agent's own slices.
  void Apply(const kube::WatchUpdate& update);
  // Whether the watch has listed the slices yet: before that the agent does not know what
  // the server holds, and publishes nothing.
  bool listed() const { return listed_; }

  // Publish makes the server's slices hold exactly `devices`. It gives nothing when they
  // do, or how long to wait before calling it again when a request failed.
  std::optional<std::chrono::seconds> Publish(const std::vector<Device>& devices);

 private:
  // Each gives false when the pass must stop, with `wait` set.
  bool RefreshNodeUid(std::optional<std::chrono::seconds>& wait);
  bool Relist(std::optional<std::chrono::seconds>& wait);
  std::chrono::seconds Failed(const ApiFailure& failure);
  void Stored(const SliceWrite& write, const nlohmann::json& stored);

  SliceApi& api_;
  SliceOwner owner_;
  Log log_;
  bool listed_ = false;
  std::map<std::string, nlohmann::json> slices_;
  std::map<std::string, StoredForm> stored_forms_;
  Backoff backoff_;
};

}  // namespace mc
