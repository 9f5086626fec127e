#include "probe/va/va_query.h"

#include <fcntl.h>
#include <unistd.h>
#include <va/va.h>
#include <va/va_drm.h>
#include <va/va_str.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace mc::probe {
namespace {

// libva's messages go to stderr. On a failure the parent quotes them word for word. stdout stays
// free for the report.
void PrintLibvaMessage(void* prefix, const char* message) {
  std::fprintf(stderr, "%s%s", static_cast<const char*>(prefix), message);
}

std::string VaCallError(const char* call, VAStatus status) {
  return std::string(call) + " failed: " + vaErrorStr(status);
}

std::string PairName(VAProfile profile, VAEntrypoint entrypoint) {
  return std::string(vaProfileStr(profile)) + "/" + vaEntrypointStr(entrypoint);
}

std::string FourccText(std::uint32_t fourcc) {
  std::string text(4, ' ');
  for (int i = 0; i < 4; ++i) text[i] = static_cast<char>((fourcc >> (8 * i)) & 0xFF);
  return text;
}

// Closer releases what the query opened, in reverse order, however it returns.
struct FdCloser {
  int fd;
  ~FdCloser() { close(fd); }
};
struct DisplayTerminator {
  VADisplay display;
  ~DisplayTerminator() { vaTerminate(display); }
};

void QueryVideoProcessor(VADisplay display, VaFacts& facts) {
  VAConfigID config = VA_INVALID_ID;
  VAStatus status =
      vaCreateConfig(display, VAProfileNone, VAEntrypointVideoProc, nullptr, 0, &config);
  if (status != VA_STATUS_SUCCESS) {
    facts.warnings.push_back(
        VaCallError("vaCreateConfig(VAProfileNone/VAEntrypointVideoProc)", status));
    return;
  }
  unsigned count = 0;
  status = vaQuerySurfaceAttributes(display, config, nullptr, &count);
  std::vector<VASurfaceAttrib> attributes(count);
  if (status == VA_STATUS_SUCCESS && count > 0) {
    status = vaQuerySurfaceAttributes(display, config, attributes.data(), &count);
    attributes.resize(std::min<std::size_t>(count, attributes.size()));
  }
  if (status != VA_STATUS_SUCCESS) {
    facts.warnings.push_back(
        VaCallError("vaQuerySurfaceAttributes(VAProfileNone/VAEntrypointVideoProc)", status));
    attributes.clear();
  }
  for (const VASurfaceAttrib& attribute : attributes) {
    if (attribute.type != VASurfaceAttribPixelFormat ||
        attribute.value.type != VAGenericValueTypeInteger) {
      continue;
    }
    std::string fourcc = FourccText(static_cast<std::uint32_t>(attribute.value.value.i));
    if (std::ranges::find(facts.video_proc_formats, fourcc) == facts.video_proc_formats.end()) {
      facts.video_proc_formats.push_back(std::move(fourcc));
    }
  }
  vaDestroyConfig(display, config);
}

}  // namespace

Result<VaFacts> QueryVaDriver(const std::string& render_node) {
  const int fd = open(render_node.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return Error{"cannot open " + render_node + ": " + std::strerror(errno)};
  FdCloser closer{fd};

  VADisplay display = vaGetDisplayDRM(fd);
  if (!display) return Error{"vaGetDisplayDRM returned no display for " + render_node};
  static const char kErrorPrefix[] = "libva error: ";
  static const char kInfoPrefix[] = "libva info: ";
  vaSetErrorCallback(display, PrintLibvaMessage, const_cast<char*>(kErrorPrefix));
  vaSetInfoCallback(display, PrintLibvaMessage, const_cast<char*>(kInfoPrefix));

  int major = 0, minor = 0;
  const VAStatus initialised = vaInitialize(display, &major, &minor);
  if (initialised != VA_STATUS_SUCCESS) {
    return Error{"vaInitialize on " + render_node + " failed: " + vaErrorStr(initialised)};
  }
  DisplayTerminator terminator{display};

  VaFacts facts;
  if (const char* vendor = vaQueryVendorString(display)) facts.vendor = vendor;

  std::vector<VAProfile> profiles(std::max(vaMaxNumProfiles(display), 1));
  int profile_count = 0;
  VAStatus status = vaQueryConfigProfiles(display, profiles.data(), &profile_count);
  if (status != VA_STATUS_SUCCESS) return Error{VaCallError("vaQueryConfigProfiles", status)};
  profiles.resize(std::clamp<std::size_t>(profile_count, 0, profiles.size()));

  std::vector<VAEntrypoint> entrypoints(std::max(vaMaxNumEntrypoints(display), 1));
  bool has_video_processor = false;
  for (VAProfile profile : profiles) {
    int entrypoint_count = 0;
    status = vaQueryConfigEntrypoints(display, profile, entrypoints.data(), &entrypoint_count);
    if (status != VA_STATUS_SUCCESS) {
      facts.warnings.push_back(std::string("vaQueryConfigEntrypoints(") + vaProfileStr(profile) +
                               ") failed: " + vaErrorStr(status));
      continue;
    }
    const int listed = std::clamp<int>(entrypoint_count, 0, static_cast<int>(entrypoints.size()));
    for (int i = 0; i < listed; ++i) {
      const VAEntrypoint entrypoint = entrypoints[i];
      // One call for the three. A driver marks each attribute it does not know
      // VA_ATTRIB_NOT_SUPPORTED. It does not fail the call.
      VAConfigAttrib attributes[3] = {{VAConfigAttribRTFormat, 0},
                                      {VAConfigAttribMaxPictureWidth, 0},
                                      {VAConfigAttribMaxPictureHeight, 0}};
      status = vaGetConfigAttributes(display, profile, entrypoint, attributes, 3);
      VaConfig config{profile, entrypoint};
      auto stated = [](const VAConfigAttrib& attribute) {
        return attribute.value == VA_ATTRIB_NOT_SUPPORTED ? 0u : attribute.value;
      };
      if (status != VA_STATUS_SUCCESS) {
        facts.warnings.push_back(
            "vaGetConfigAttributes(" + PairName(profile, entrypoint) +
            ", VAConfigAttribRTFormat and the largest picture size) failed: " + vaErrorStr(status));
      } else {
        config.rt_formats = stated(attributes[0]);
        config.max_width = stated(attributes[1]);
        config.max_height = stated(attributes[2]);
      }
      facts.configs.push_back(config);
      if (profile == VAProfileNone && entrypoint == VAEntrypointVideoProc)
        has_video_processor = true;
    }
  }
  if (has_video_processor) QueryVideoProcessor(display, facts);
  return facts;
}

}  // namespace mc::probe
