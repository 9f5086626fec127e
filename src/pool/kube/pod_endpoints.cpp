#include "pool/kube/pod_endpoints.h"

#include <algorithm>

namespace mc::pool {

std::string RunnerNameOf(const WorkerPod& pod) {
  return pod.runner_name.empty() ? pod.name : pod.runner_name;
}

pool::WorkerEndpoint EndpointOf(const WorkerPod& pod, const EndpointSettings& settings) {
  pool::WorkerEndpoint endpoint;
  endpoint.name = RunnerNameOf(pod);
  if (!pod.pod_ip.empty()) {
    const bool v6 = pod.pod_ip.find(':') != std::string::npos;
    const std::string host = v6 ? "[" + pod.pod_ip + "]" : pod.pod_ip;
    endpoint.url = "http://" + host + ":" + std::to_string(settings.port);
    endpoint.control_url = "https://" + host + ":" + std::to_string(settings.control_port);
  }
  endpoint.control_ca_file = settings.control_ca_file;
  endpoint.control_tls_name = pod.name + settings.tls_name_suffix;
  endpoint.control_key_file = settings.control_key_file;
  endpoint.wakeable = false;
  return endpoint;
}

std::vector<pool::WorkerEndpoint> ReachableEndpoints(const std::vector<WorkerPod>& pods,
                                                     const EndpointSettings& settings) {
  int highest = -1;
  for (const WorkerPod& pod : pods) {
    if (!pod.terminating) highest = std::max(highest, pod.ordinal);
  }
  std::vector<pool::WorkerEndpoint> endpoints;
  for (const WorkerPod& pod : pods) {
    if (pod.pod_ip.empty() || pod.terminating) continue;
    endpoints.push_back(EndpointOf(pod, settings));
    endpoints.back().wakeable = pod.ordinal >= 0 && pod.ordinal == highest;
  }
  return endpoints;
}

std::vector<std::string> UnservableLines(const std::vector<WorkerPod>& pods,
                                         const std::string& statefulset) {
  std::vector<std::string> lines;
  for (const WorkerPod& pod : pods) {
    if (pod.unschedulable.empty() || pod.terminating) continue;
    lines.push_back(
        "statefulset " + statefulset + ": pod " + pod.name +
        " cannot be placed, so this class of workers has no worker: " + pod.unschedulable);
  }
  return lines;
}

}  // namespace mc::pool
