// A pod list is the API server's answer, outside input. The parser must answer every body
// with pods or an error, never a crash or an escaping exception, and the pods it accepts
// must come back by ordinal.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "pool/kube_api/pod_list_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  mc::Result<std::vector<mc::pool::WorkerPod>> pods =
      mc::pool::ParseWorkerPods(body, "peertube-worker");
  if (!pods) {
    if (pods.error_message().empty()) std::abort();
    return 0;
  }
  for (std::size_t i = 1; i < pods->size(); ++i) {
    if ((*pods)[i - 1].ordinal > (*pods)[i].ordinal) std::abort();
  }
  for (const mc::pool::WorkerPod& pod : *pods) {
    if (pod.name.empty()) std::abort();
  }
  return 0;
}
