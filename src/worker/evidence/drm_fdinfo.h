// The DRM fdinfo of one open DRM file (/proc/PID/fdinfo/FD). The kernel's DRM usage-stats
// specification defines it. It holds one "key: value" per line. Every key of ours starts with
// "drm-". It gives a client's busy time per engine class. That is the evidence that a GPU's media
// engine did a job's work, on Intel (i915, xe) or AMD (amdgpu). Reading it needs only ptrace-read
// access to the process. So a container may read it for its own children.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "common/base/result.h"

namespace mc::worker {

struct DrmFdinfo {
  // drm-driver, such as "i915", "xe" or "amdgpu".
  std::string driver;
  // drm-pdev, the PCI slot, such as "0000:00:02.0". Empty when absent.
  std::string pdev;
  // drm-client-id: one per open DRM file. A file shared by two descriptors or two processes is then
  // counted once.
  std::optional<std::uint64_t> client_id;
  // drm-engine-<class>: busy time in ns, by class ("video", "video-enhance", "dec", "enc").
  std::map<std::string, std::uint64_t> engine_ns;
  // drm-engine-capacity-<class>: identical engines of the class. 1 where absent.
  std::map<std::string, std::uint64_t> engine_capacity;
  // drm-cycles-<class> and drm-total-cycles-<class> (xe). They are busy cycles and the GPU
  // timestamp, in the same unit, by class ("vcs", "vecs").
  std::map<std::string, std::uint64_t> cycles;
  std::map<std::string, std::uint64_t> total_cycles;

  bool operator==(const DrmFdinfo&) const = default;
};

// ParseDrmFdinfo reads one fdinfo file's text. A file without drm-driver is not a DRM file
// (kNotFound). A drm- key of ours with a malformed value is kInvalidInput, naming its line. Unknown
// keys are skipped, as the specification asks of readers.
Result<DrmFdinfo> ParseDrmFdinfo(std::string_view text);

// MediaEngineTime is the part of a client's counters that is media-engine work.
struct MediaEngineTime {
  // amdgpu's encode engines (enc and enc_1) and its decode engine (dec), in ns. Its VCN 4 and later
  // run decode on the encode ring too.
  std::uint64_t encode_ns = 0;
  std::uint64_t decode_ns = 0;
  // The engine that does both (i915's video, the VCS). Its time proves work, but not which.
  std::uint64_t codec_ns = 0;
  // Scaling and colour conversion (i915's video-enhance, VECS).
  std::uint64_t enhance_ns = 0;
  // xe's VCS and VECS busy cycles and their GPU timestamps.
  std::uint64_t codec_cycles = 0;
  std::uint64_t codec_total_cycles = 0;
  std::uint64_t enhance_cycles = 0;

  bool operator==(const MediaEngineTime&) const = default;
};

MediaEngineTime MediaEngineTimeOf(const DrmFdinfo& fdinfo);

}  // namespace mc::worker
