// BusyMeter measures an engine's real work, as a GPU's counters measure its video engine.
// The sampling period is 100 ms, NVML's period on the H200.
// Each period it takes the engine process's CPU time spent in that period.
// It appends it to the client's samples in the state directory.
// There it is the encoder's or decoder's utilisation for the client's process.
// A period without work writes nothing.
// NVML keeps no sample for an idle process either.
// With `attributed` false (the `unattributed` fault) it writes nothing at all.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

namespace fakenv {

class BusyMeter {
 public:
  enum class Engine { kEncoder, kDecoder };

  BusyMeter(std::string state_dir, std::uint32_t client_id, std::uint32_t owner_pid, Engine engine,
            bool attributed);
  // The destructor writes the last, partial period, so that a job shorter than one period
  // still leaves its trace.
  ~BusyMeter();
  BusyMeter(const BusyMeter&) = delete;
  BusyMeter& operator=(const BusyMeter&) = delete;

  // PictureDone counts one coded picture and how long it took, for the session's average
  // frame rate and latency.
  void PictureDone(std::chrono::microseconds latency);

 private:
  void Run();
  void WriteSample();

  const std::string state_dir_;
  const std::uint32_t client_id_;
  const std::uint32_t owner_pid_;
  const Engine engine_;
  const bool attributed_;

  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::deque<std::chrono::steady_clock::time_point> recent_pictures_;
  double average_latency_us_ = 0;
  std::uint64_t last_cpu_ns_ = 0;
  std::chrono::steady_clock::time_point last_wall_;
  std::thread thread_;
};

}  // namespace fakenv
