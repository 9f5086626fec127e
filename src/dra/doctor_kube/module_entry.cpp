// The one symbol the doctor's cluster module exports (src/dra/doctor/cluster_module_entry.h).
#include <memory>
#include <utility>

#include "dra/doctor/cluster_module_entry.h"
#include "dra/doctor_kube/api_cluster.h"

extern "C" __attribute__((visibility("default"))) mc::doctor::ClusterApi*
MediaCapabilitiesOpenClusterApi(const mc::doctor::ClusterOptions* options, std::size_t options_size,
                                mc::Error* error) {
  if (options_size != sizeof(mc::doctor::ClusterOptions)) {
    *error = mc::Internal(
        "doctor: the cluster module and the binary were built from different sources; "
        "install them together");
    return nullptr;
  }
  mc::Result<std::unique_ptr<mc::doctor::ApiCluster>> api = mc::doctor::ApiCluster::Open(*options);
  if (!api) {
    *error = api.failure();
    return nullptr;
  }
  return std::move(api).value().release();
}
