// The ResourceSlices that publish a node's devices.
// Also the writes that bring what the server holds to them.
// This is the pool protocol of resource.k8s.io/v1 in pure functions.
// The agent runs them against its watch of the server; the tests against plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "probe/devices/device.h"

namespace mc::dra {

// The API's limit on the devices of one slice (ResourceSliceMaxDevices).
inline constexpr std::size_t kMaxDevicesPerSlice = 128;

// Who publishes, for whom: the driver, and the Node that owns the slices.
// The Node's UID makes the garbage collector delete them with the Node.
struct SliceOwner {
  std::string driver;
  std::string node_name;
  std::string node_uid;
};

// SliceName is the name of slice `index` of the node's pool (docs/dra/agent.md).
// The first is "<node>-<driver>", then "<node>-<driver>-1", "-2", ...
std::string SliceName(const SliceOwner& owner, std::size_t index);

struct SliceWrite {
  enum class Kind { kDelete, kUpdate, kCreate };
  Kind kind = Kind::kCreate;
  std::string name;
  // The whole object to send, for a create or an update.
  // An update carries the resourceVersion it replaces.
  // So a concurrent edit makes it fail with a conflict.
  nlohmann::json object;
  // For a delete: the UID and resourceVersion it must still have.
  std::string uid;
  std::string resource_version;
  std::size_t device_count = 0;
  std::int64_t generation = 0;
};

// What the server made of the agent's last write of one slice.
// An apiserver whose feature gate is off drops that gate's fields without an error.
// So a slice holding exactly the stored form is up to date.
// It stays so while the agent would send the same again.
// Otherwise the agent would write it again and again.
struct StoredForm {
  nlohmann::json sent_spec;
  nlohmann::json stored_spec;
};

// PlanSliceWrites gives the writes that make `current` publish exactly `devices`.
// Deletes come first.
// `current` is every slice of this driver on this node that the server holds, by name.
// An empty plan means the server already says it.
// A change of any slice moves the pool's generation in every slice.
// The new generation is past every one the server holds.
// So no reader mixes two versions of the pool.
// The devices are published sorted by name.
std::vector<SliceWrite> PlanSliceWrites(const SliceOwner& owner, std::vector<probe::Device> devices,
                                        const std::map<std::string, nlohmann::json>& current,
                                        const std::map<std::string, StoredForm>& stored_forms = {});

// SliceDifferences names the fields where `stored` differs from `sent`.
// `stored` is what the server answered after a write.
// A field name is such as "spec.devices[0].allowMultipleAllocations".
// An apiserver drops the fields of a feature gate that is off, without an error.
std::vector<std::string> SliceDifferences(const nlohmann::json& sent, const nlohmann::json& stored);

}  // namespace mc::dra
