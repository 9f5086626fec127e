// The one symbol the doctor's cluster module exports (src/dra/doctor/cluster_module_entry.h).
#include <memory>
#include <utility>

#include "dra/doctor/cluster_module_entry.h"
#include "dra/doctor_kube/api_cluster.h"

extern "C" __attribute__((visibility("default"))) mc::dra::ClusterApi*
MediaCapabilitiesOpenClusterApi(const mc::dra::ClusterOptions* options, std::size_t options_size,
                                mc::Error* error) {
  if (options_size != sizeof(mc::dra::ClusterOptions)) {
    *error = mc::Internal(
        "doctor: the cluster module and the binary were built from different sources; "
        "install them together");
    return nullptr;
  }
  mc::Result<std::unique_ptr<mc::dra::ApiCluster>> api = mc::dra::ApiCluster::Open(*options);
  if (!api) {
    *error = api.error();
    return nullptr;
  }
  return std::move(api).value().release();
}
