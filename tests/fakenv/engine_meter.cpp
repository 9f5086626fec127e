#include "engine_meter.h"

#include <time.h>

#include <algorithm>

#include "fakenv_state.h"

namespace fakenv {
namespace {

constexpr std::chrono::milliseconds kSamplingPeriod(100);

std::uint64_t ProcessCpuNanos() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000 +
         static_cast<std::uint64_t>(now.tv_nsec);
}

}  // namespace

BusyMeter::BusyMeter(std::string state_dir, std::uint32_t client_id, std::uint32_t owner_pid,
                     Engine engine, bool attributed)
    : state_dir_(std::move(state_dir)),
      client_id_(client_id),
      owner_pid_(owner_pid),
      engine_(engine),
      attributed_(attributed),
      last_cpu_ns_(ProcessCpuNanos()),
      last_wall_(std::chrono::steady_clock::now()),
      thread_([this] { Run(); }) {}

BusyMeter::~BusyMeter() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  WriteSample();
}

void BusyMeter::PictureDone(std::chrono::microseconds latency) {
  std::lock_guard<std::mutex> lock(mutex_);
  recent_pictures_.push_back(std::chrono::steady_clock::now());
  // A moving average, as NVML's averageLatency is one.
  const double weight = 0.125;
  average_latency_us_ =
      average_latency_us_ == 0
          ? static_cast<double>(latency.count())
          : (1 - weight) * average_latency_us_ + weight * static_cast<double>(latency.count());
}

void BusyMeter::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (wake_.wait_for(lock, kSamplingPeriod, [this] { return stopping_; })) break;
    WriteSample();
  }
}

void BusyMeter::WriteSample() {
  const std::uint64_t cpu = ProcessCpuNanos();
  const auto wall = std::chrono::steady_clock::now();
  const auto wall_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(wall - last_wall_).count();
  const std::uint64_t busy_ns = cpu - last_cpu_ns_;
  last_cpu_ns_ = cpu;
  last_wall_ = wall;
  while (!recent_pictures_.empty() && wall - recent_pictures_.front() > std::chrono::seconds(1)) {
    recent_pictures_.pop_front();
  }
  if (!attributed_ || wall_ns <= 0) return;
  const auto percent = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(100, (busy_ns * 100 + static_cast<std::uint64_t>(wall_ns) / 2) /
                                       static_cast<std::uint64_t>(wall_ns)));
  // A period without work leaves no sample, except the last, which carries the total.
  if (percent == 0 && !stopping_) return;
  Sample sample;
  sample.client_id = client_id_;
  sample.timestamp_us = NowMicros();
  sample.pid = owner_pid_;
  (engine_ == Engine::kEncoder ? sample.enc_util : sample.dec_util) = percent;
  sample.average_fps = static_cast<std::uint32_t>(recent_pictures_.size());
  sample.average_latency_us = static_cast<std::uint32_t>(average_latency_us_);
  sample.engine_cpu_ms = static_cast<std::uint32_t>(cpu / 1'000'000);
  AppendSample(state_dir_, sample);
}

}  // namespace fakenv
