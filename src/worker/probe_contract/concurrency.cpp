#include "worker/probe_contract/concurrency.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/base/text.h"

namespace mc::worker {
namespace {

// Bound is how many whole jobs fit in `available` at `per_job` each. A resource a job does not use
// (a cost of zero) sets no bound.
std::optional<std::int64_t> Bound(double available, double per_job) {
  if (per_job <= 0) return std::nullopt;
  if (available <= 0 || std::isnan(available)) return 0;
  return static_cast<std::int64_t>(std::floor(available / per_job + 1e-9));
}

std::optional<std::int64_t> OptionalBound(const std::optional<double>& available, double per_job) {
  if (!available) return std::nullopt;
  return Bound(*available, per_job);
}

}  // namespace

Concurrency ResolveConcurrency(const ConcurrencyInputs& inputs) {
  const JobCosts& costs = inputs.costs;
  Concurrency result;
  // A GPU the probe refused carries nothing, whatever else is free.
  result.limiters = {
      {"gpu", inputs.probe_ok ? std::nullopt : std::optional<std::int64_t>(0)},
      {"gpu_sessions", OptionalBound(inputs.sessions_free, costs.sessions)},
      {"vram", OptionalBound(inputs.vram_free_mb, costs.vram_mb)},
      {"cpu", Bound(inputs.cpu_cores - inputs.cpu_load_others, costs.cpu_cores)},
      {"ram", Bound(inputs.ram_mb, costs.ram_mb)},
      {"disk", Bound(inputs.disk_gb, costs.disk_gb)},
      {"bw", OptionalBound(inputs.bandwidth_mbps, costs.bandwidth_mbps)},
      {"config", inputs.configured_max ? std::optional<std::int64_t>(
                                             std::max<std::int64_t>(*inputs.configured_max, 0))
                                       : std::nullopt},
  };
  const Limiter* smallest = nullptr;
  for (const Limiter& limiter : result.limiters) {
    if (limiter.bound && (!smallest || *limiter.bound < *smallest->bound)) smallest = &limiter;
  }
  if (!smallest) {
    // Every cost was zero and nothing was configured, so nothing bounds it. That is a configuration
    // error. It must not turn into unbounded work.
    result.value = 0;
    result.bound_by = "config";
    return result;
  }
  result.value = *smallest->bound;
  result.bound_by = smallest->name;
  return result;
}

Result<std::optional<std::int64_t>> ParseConcurrencyHint(std::string_view text) {
  if (text == "auto") return std::optional<std::int64_t>();
  // An unsigned type, so a sign is refused with everything else that is not a digit.
  const std::optional<std::uint32_t> jobs = ParseInteger<std::uint32_t>(text);
  if (!jobs || *jobs > kMaxConcurrencyHint)
    return InvalidInput("\"" + Excerpt(text, 20) + "\" is not a whole number from 0 to " +
                        std::to_string(kMaxConcurrencyHint) + ", nor auto");
  return std::optional<std::int64_t>(*jobs);
}

}  // namespace mc::worker
