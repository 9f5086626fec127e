#include "pool/service/pool_history.h"

#include <algorithm>
#include <cmath>

namespace mc::pool {

PoolHistory::PoolHistory(Duration span, Duration resolution)
    : span_(std::max(span, Seconds(1))), resolution_(std::max(resolution, Seconds(1))) {}

std::size_t PoolHistory::capacity() const {
  return static_cast<std::size_t>(std::ceil(span_ / resolution_)) + 1;
}

void PoolHistory::Add(const HistorySample& sample) {
  if (!std::isfinite(sample.t_s)) return;
  if (!samples_.empty()) {
    HistorySample& last = samples_.back();
    if (sample.t_s < last.t_s) return;
    if (sample.t_s - last.t_s < resolution_.count()) {
      for (std::size_t i = 0; i < kJobClassCount; ++i)
        last.pressure[i] = std::max(last.pressure[i], sample.pressure[i]);
      last.active_workers = std::max(last.active_workers, sample.active_workers);
      last.pending = std::max(last.pending, sample.pending);
      last.oldest_wait_s = std::max(last.oldest_wait_s, sample.oldest_wait_s);
      if (sample.started_wait_s)
        last.started_wait_s = std::max(last.started_wait_s.value_or(0), *sample.started_wait_s);
      return;
    }
  }
  samples_.push_back(sample);
  while (!samples_.empty() && samples_.front().t_s < sample.t_s - span_.count())
    samples_.pop_front();
  // Merging bounds the count already; this holds it should the resolution be misjudged.
  while (samples_.size() > capacity()) samples_.pop_front();
}

}  // namespace mc::pool
