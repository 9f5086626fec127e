// Pure parsers of the API server's answers that the cluster checks read.
// Every answer is outside input.
// Each parser names the first thing it could not read.
// It takes nothing on trust beyond it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::dra {

// The resource names of an APIResourceList (GET /apis/resource.k8s.io/v1).
Result<std::vector<std::string>> ParseApiResourceNames(std::string_view body);

struct SliceDevice {
  std::string name;
  bool render_node = false;  // the bool attribute renderNode, as liken states it
  bool pci_bus_id = false;   // carries resource.kubernetes.io/pciBusID
};

struct SliceSummary {
  std::string name;
  std::vector<SliceDevice> devices;
};

// The slices of a ResourceSliceList, with what the checks read of each device.
Result<std::vector<SliceSummary>> ParseSlices(std::string_view body);

// What the server kept of the first device of a ResourceSlice it answered with.
struct StoredCapacity {
  bool allow_multiple_allocations = false;
  bool request_policy = false;  // the capacity `probe` kept its requestPolicy
};
Result<StoredCapacity> ParseStoredCapacity(std::string_view body, std::string_view capacity);

// The DeviceClasses of a DeviceClassList whose CEL selectors name `driver`.
Result<std::vector<std::string>> ParseClassesOfDriver(std::string_view body,
                                                      std::string_view driver);

struct PendingClaim {
  std::string ns;
  std::string name;
  // The pod that owns it (a claim made from a template), or empty.
  std::string owner_pod;
};

// The claims of a ResourceClaimList that have no allocation and either:
//  - ask for a device of one of `classes`;
//  - or have selectors that name `driver`.
Result<std::vector<PendingClaim>> ParsePendingClaims(std::string_view body,
                                                     const std::vector<std::string>& classes,
                                                     std::string_view driver);

struct PodSummary {
  std::string name;
  // The claims it uses:
  //  - spec.resourceClaims' resourceClaimName;
  //  - the claims made for it (status.resourceClaimStatuses).
  std::vector<std::string> claims;
  // The message of its PodScheduled condition when that is False; else empty.
  // Such as "0/2 nodes are available: 2 cannot allocate all claims.".
  std::string unschedulable;
};

Result<std::vector<PodSummary>> ParsePods(std::string_view body);

// The message of the newest Event of an EventList; empty when there is none.
// Newest is by lastTimestamp, else eventTime.
Result<std::string> ParseNewestEventMessage(std::string_view body);

}  // namespace mc::dra
