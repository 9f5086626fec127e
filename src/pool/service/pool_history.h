// What the pool manager's page draws over the last day: a few numbers per cycle, kept in
// memory and bounded. Samples closer together than the resolution merge into one (the most
// of each number), and samples older than the span are dropped, so a day at the default
// minute holds at most 1440 samples however short the cycle.
// A plain value: the service keeps one, and the simulator's page builds one the same way.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <optional>

#include "pool/policy/job_class.h"
#include "pool/policy/time.h"

namespace mc::pool {

struct HistorySample {
  double t_s = 0;  // seconds since the epoch; a merged sample's first
  std::array<double, kJobClassCount> pressure{};  // P per class, 0 where none waits
  int active_workers = 0;                         // workers the manager holds ACTIVE
  int pending = 0;                                // pending jobs the pool serves
  double oldest_wait_s = 0;                       // the oldest pending job's wait so far
  // The longest wait of the jobs that started in this sample, creation to start.
  std::optional<double> started_wait_s;
};

class PoolHistory {
 public:
  explicit PoolHistory(Duration span = Hours(24), Duration resolution = Minutes(1));

  // Add records a sample. One within the resolution of the last merges into it; one older
  // than the last is ignored (the clock went back).
  void Add(const HistorySample& sample);

  const std::deque<HistorySample>& samples() const { return samples_; }
  Duration span() const { return span_; }
  std::size_t capacity() const;

 private:
  Duration span_;
  Duration resolution_;
  std::deque<HistorySample> samples_;
};

}  // namespace mc::pool
