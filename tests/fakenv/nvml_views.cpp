#include "nvml_views.h"

#include <algorithm>
#include <map>
#include <utility>

namespace fakenv {

std::vector<nvml::ProcessUtilizationSample> ProcessSamples(const std::vector<Sample>& samples) {
  std::map<std::pair<std::uint32_t, std::uint64_t>, nvml::ProcessUtilizationSample> merged;
  for (const Sample& sample : samples) {
    const std::uint64_t period = sample.timestamp_us / nvml::kSamplingPeriodUs;
    nvml::ProcessUtilizationSample& entry = merged[{sample.pid, period}];
    entry.pid = sample.pid;
    entry.timeStamp = std::max<unsigned long long>(entry.timeStamp, sample.timestamp_us);
    entry.encUtil = std::min(100u, entry.encUtil + sample.enc_util);
    entry.decUtil = std::min(100u, entry.decUtil + sample.dec_util);
  }
  std::vector<nvml::ProcessUtilizationSample> out;
  for (const auto& [key, entry] : merged) {
    if (entry.encUtil > 0 || entry.decUtil > 0) out.push_back(entry);
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.timeStamp < b.timeStamp; });
  return out;
}

std::vector<nvml::EncoderSessionInfo> EncoderSessions(const std::vector<ClientRecord>& clients,
                                                      const std::vector<Sample>& samples) {
  std::vector<nvml::EncoderSessionInfo> sessions;
  for (const ClientRecord& client : clients) {
    if (client.kind != ClientKind::kEncoder || !client.attributed) continue;
    nvml::EncoderSessionInfo info{};
    info.sessionId = client.id;
    info.pid = client.pid;
    info.codecType = client.codec;
    info.hResolution = client.width;
    info.vResolution = client.height;
    std::uint64_t newest = 0;
    for (const Sample& sample : samples) {
      if (sample.client_id != client.id || sample.timestamp_us < newest) continue;
      newest = sample.timestamp_us;
      info.averageFps = sample.average_fps;
      info.averageLatency = sample.average_latency_us;
    }
    sessions.push_back(info);
  }
  return sessions;
}

unsigned EngineUtilization(const std::vector<Sample>& samples, std::uint64_t now_us, bool encoder) {
  // The newest period, with one more of slack for an engine whose sample is a little late.
  const std::uint64_t since =
      now_us > 2 * nvml::kSamplingPeriodUs ? now_us - 2 * nvml::kSamplingPeriodUs : 0;
  std::map<std::uint32_t, std::pair<std::uint64_t, unsigned>> newest;
  for (const Sample& sample : samples) {
    if (sample.timestamp_us < since) continue;
    auto& [when, load] = newest[sample.client_id];
    if (sample.timestamp_us >= when) {
      when = sample.timestamp_us;
      load = encoder ? sample.enc_util : sample.dec_util;
    }
  }
  unsigned total = 0;
  for (const auto& [client, entry] : newest) total += entry.second;
  return std::min(100u, total);
}

std::uint64_t UsedVideoMemory(const std::vector<ClientRecord>& clients) {
  std::uint64_t used = 0;
  for (const ClientRecord& client : clients) used += client.vram_bytes;
  return used;
}

}  // namespace fakenv
