#include "pool/policy/gates.h"

#include <algorithm>

#include "pool/policy/reasons.h"

namespace mc::pool {

namespace {

bool PassesLargeGates(const WorkerStatus& worker, const GateConfig& gates) {
  if (worker.realtime_factor_ewma < gates.large_min_realtime_factor) return false;
  if (worker.download_mbps < gates.large_min_download_mbps) return false;
  // VA-API devices share system memory; only a discrete NVIDIA GPU has a VRAM floor.
  if (worker.vendor == "nvidia" && worker.vram_free_mb.value_or(0) < gates.large_min_vram_free_mb) {
    return false;
  }
  return true;
}

}  // namespace

JobNeed NeedOf(const JobShape& shape, const GateConfig& gates) {
  return JobNeed{ClassifyJob(shape, gates.bounds), shape.av1_source, shape.av1_output,
                 std::max(shape.resolution, shape.source_resolution)};
}

bool PassesHardGates(const JobNeed& need, const Capabilities& capabilities) {
  if (need.av1_source && !capabilities.av1_dec) return false;
  if (need.av1_output && !capabilities.av1_enc) return false;
  return need.height <= capabilities.max_height;
}

bool PassesGates(const JobNeed& need, const WorkerStatus& worker, double weight,
                 const GateConfig& gates) {
  if (!PassesHardGates(need, worker)) return false;
  switch (need.job_class) {
    case JobClass::kS:
      return true;
    case JobClass::kM:
      return 100 - worker.enc_util_pct >= gates.medium_min_enc_headroom_pct;
    case JobClass::kL:
      return PassesLargeGates(worker, gates);
    case JobClass::kXL:
      return PassesLargeGates(worker, gates) && weight >= gates.xl_min_weight;
  }
  return false;
}

std::string GateWords(const JobNeed& need, const GateConfig& gates) {
  std::string words;
  const auto add = [&](const std::string& gate) { words += (words.empty() ? "" : ", ") + gate; };
  if (need.av1_source) add("AV1 decode");
  if (need.av1_output) add("AV1 encode");
  add("height " + std::to_string(need.height));
  if (need.job_class == JobClass::kM) {
    add("encoder headroom >= " + FormatNumber(gates.medium_min_enc_headroom_pct) + "%");
  }
  if (need.job_class == JobClass::kL || need.job_class == JobClass::kXL) {
    add("realtime factor >= " + FormatNumber(gates.large_min_realtime_factor));
    add("download >= " + FormatNumber(gates.large_min_download_mbps) + " Mb/s");
    add("free VRAM >= " + FormatNumber(gates.large_min_vram_free_mb) + " MiB on NVIDIA");
  }
  if (need.job_class == JobClass::kXL) add("weight >= " + FormatNumber(gates.xl_min_weight));
  return words;
}

}  // namespace mc::pool
