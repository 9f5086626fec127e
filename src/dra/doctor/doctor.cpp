#include "dra/doctor/doctor.h"

#include <algorithm>

#include "dra/doctor/check_table.h"
#include "dra/doctor/huc_check.h"
#include "dra/doctor/nvidia_checks.h"
#include "dra/doctor/nvml_child.h"
#include "dra/doctor/render_node_checks.h"
#include "dra/doctor/va_driver_checks.h"

namespace mc::dra {

NodeInput GatherNodeInput(const NodeRequest& request) {
  NodeInput input{.roots = request.roots, .libva = request.libva, .cluster = request.cluster};
  probe::ProbeRequest probe{.roots = request.roots.discovery, .query = request.query};
  input.probe = probe::ProbeGpus(probe);
  if (HasNvidia(input)) input.nvml_driver_version = AskNvml(request.query.deadline);
  return input;
}

CheckResults NodeChecks(const NodeInput& input) {
  CheckResults results;
  for (CheckResults (*check)(const NodeInput&) :
       {&CheckRenderNodes, &CheckRenderNodeAccess, &CheckVaDrivers, &CheckVaDriverVersions,
        &CheckHucFirmware, &CheckNvidiaKernelModule, &CheckNvidiaLibraries, &CheckNvidiaDeviceNodes,
        &CheckNvml, &CheckNvidiaQueries}) {
    for (CheckResult& result : check(input)) results.push_back(std::move(result));
  }
  return InOrder(std::move(results));
}

CheckResults InOrder(CheckResults results) {
  std::ranges::stable_sort(results, {}, [](const CheckResult& r) { return CheckOrder(r.id); });
  return results;
}

}  // namespace mc::dra
