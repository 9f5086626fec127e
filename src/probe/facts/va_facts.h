// VaFacts is what one render node's VA-API driver stated, and nothing more. These are the values
// libva returned, before any rule reads them. It is a plain value. So it can cross the process
// boundary as JSON, from the query child to the agent.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mc::probe {

// VaConfig is one profile/entrypoint pair the driver lists. It holds the render-target formats
// vaGetConfigAttributes gave for it, a VA_RT_FORMAT_* mask. 0 when the driver gave none.
struct VaConfig {
  std::int32_t profile = 0;
  std::int32_t entrypoint = 0;
  std::uint32_t rt_formats = 0;
  // VAConfigAttribMaxPictureWidth and VAConfigAttribMaxPictureHeight. 0 when the driver did not
  // state them. Many state them only for encode entry points.
  std::uint32_t max_width = 0;
  std::uint32_t max_height = 0;

  bool operator==(const VaConfig&) const = default;
};

struct VaFacts {
  // vaQueryVendorString, as the driver returned it.
  std::string vendor;
  std::vector<VaConfig> configs;
  // The FourCCs (such as "NV12") of the pixel formats the video processor accepts. In the driver's
  // order, without repeats. Empty when the driver lists no video processor.
  std::vector<std::string> video_proc_formats;
  // Calls that failed for one profile or pair while the query went on. The agent logs them. So a
  // partial answer is never taken for a whole one.
  std::vector<std::string> warnings;

  bool operator==(const VaFacts&) const = default;
};

}  // namespace mc::probe
