// The NVIDIA query against a bare program that makes only the same CUDA/NVDEC/NVENC/NVML
// calls (bench/probe/nvidia_bare_calls.cpp), in the same run on the same GPU, alternating so that
// both see the same driver state. Each side is one whole process, as the agent runs it:
//   ours  ProbeGpus, the pipeline `probe` and the agent run: discover the machine's GPUs,
//         start `media-capabilities query-batch` for the NVIDIA GPUs, read and parse each
//         report, and build the devices; the GPU at ADDRESS must be among them, its query
//         successful;
//   bare  spawn `nvidia_bare_calls ADDRESS` and wait for it.
// It prints both medians and their ratio, whose target is <= 1.1 (driver initialisation
// dominates both).
//
// usage: nvidia_query_vs_bare ADDRESS [ROUNDS] [MEDIA_CAPABILITIES] [NVIDIA_BARE_CALLS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe/pipeline/probe_pipeline.h"
#include "probe/query/child_process.h"

namespace {

using Clock = std::chrono::steady_clock;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: nvidia_query_vs_bare ADDRESS [ROUNDS] [MEDIA_CAPABILITIES] [NVIDIA_BARE_CALLS]\n");
    return 2;
  }
  const std::string address = argv[1];
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 10;
  const std::string ours = argc > 3 ? argv[3] : MEDIA_CAP_BUILD_DIR "/media-capabilities";
  const std::string bare = argc > 4 ? argv[4] : MEDIA_CAP_BUILD_DIR "/bench/nvidia_bare_calls";

  std::vector<double> ours_ms, bare_ms;
  for (int round = 0; round < rounds; ++round) {
    const Clock::time_point a = Clock::now();
    const mc::probe::ProbeResult probed = mc::probe::ProbeGpus({.query = {ours}});
    const Clock::time_point b = Clock::now();
    const std::vector<mc::probe::ChildOutcome> outcome =
        mc::probe::RunChildren({{bare, address}}, std::chrono::seconds(20));
    const Clock::time_point c = Clock::now();
    auto report = std::ranges::find(probed.reports, address, [](const mc::probe::DeviceReport& r) {
      return r.gpu.pci_address;
    });
    if (report == probed.reports.end()) {
      std::fprintf(stderr, "bench: the probe found no GPU at %s\n", address.c_str());
      return 1;
    }
    if (report->failure) {
      std::fprintf(stderr, "bench: the query failed: %s\n", report->failure->c_str());
      return 1;
    }
    if (outcome[0].kind != mc::probe::ChildOutcome::Kind::kExited || outcome[0].code != 0) {
      std::fprintf(stderr, "bench: the bare program failed: %s\n", outcome[0].err.c_str());
      return 1;
    }
    ours_ms.push_back(std::chrono::duration<double, std::milli>(b - a).count());
    bare_ms.push_back(std::chrono::duration<double, std::milli>(c - b).count());
    std::printf("round %2d: ours %8.1f ms   bare %8.1f ms\n", round + 1, ours_ms.back(),
                bare_ms.back());
  }
  const double o = Median(ours_ms), p = Median(bare_ms);
  std::printf("median of %d rounds: ours %.1f ms, bare %.1f ms, ratio %.3f (target <= 1.1)\n",
              rounds, o, p, o / p);
  return 0;
}
