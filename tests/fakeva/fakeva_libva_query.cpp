// fakeva_libva_query DEVICE [PROFILE ENTRYPOINT]...
//
// A small libva client for the fake driver's tests.
// It asks, through the real libva, what vainfo does not:
//  - the video processor's surface pixel formats;
//  - what vaCreateConfig answers for given pairs.
// It prints one tab-separated fact a line on stdout:
//  - vendor  <vendor string>
//  - config  <profile> <entrypoint> <RTFormat value, hex>
//  - video-proc-format <FourCC>
//  - create-config <profile> <entrypoint> <VAStatus>, one per PROFILE ENTRYPOINT given
// A failed vaInitialize prints "vaInitialize <VAStatus>" on stderr and exits with 3.
#include <fcntl.h>
#include <unistd.h>
#include <va/va.h>
#include <va/va_drm.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

std::string Fourcc(int value) {
  std::string text(4, ' ');
  for (int i = 0; i < 4; ++i)
    text[i] = static_cast<char>((static_cast<unsigned>(value) >> (8 * i)) & 0xFF);
  return text;
}

void PrintConfigs(VADisplay display) {
  std::vector<VAProfile> profiles(vaMaxNumProfiles(display));
  int profile_count = 0;
  if (vaQueryConfigProfiles(display, profiles.data(), &profile_count) != VA_STATUS_SUCCESS) return;
  std::vector<VAEntrypoint> entrypoints(vaMaxNumEntrypoints(display));
  for (int p = 0; p < profile_count; ++p) {
    int entrypoint_count = 0;
    if (vaQueryConfigEntrypoints(display, profiles[p], entrypoints.data(), &entrypoint_count) !=
        VA_STATUS_SUCCESS) {
      continue;
    }
    for (int e = 0; e < entrypoint_count; ++e) {
      VAConfigAttrib attribute{VAConfigAttribRTFormat, 0};
      vaGetConfigAttributes(display, profiles[p], entrypoints[e], &attribute, 1);
      std::printf("config\t%d\t%d\t%#x\n", profiles[p], entrypoints[e], attribute.value);
    }
  }
}

void PrintVideoProcFormats(VADisplay display) {
  VAConfigID config = VA_INVALID_ID;
  if (vaCreateConfig(display, VAProfileNone, VAEntrypointVideoProc, nullptr, 0, &config) !=
      VA_STATUS_SUCCESS)
    return;
  unsigned count = 0;
  if (vaQuerySurfaceAttributes(display, config, nullptr, &count) == VA_STATUS_SUCCESS) {
    std::vector<VASurfaceAttrib> attributes(count);
    if (vaQuerySurfaceAttributes(display, config, attributes.data(), &count) == VA_STATUS_SUCCESS) {
      for (unsigned i = 0; i < count; ++i) {
        if (attributes[i].type != VASurfaceAttribPixelFormat) continue;
        std::printf("video-proc-format\t%s\n", Fourcc(attributes[i].value.value.i).c_str());
      }
    }
  }
  vaDestroyConfig(display, config);
}

void PrintCreateConfig(VADisplay display, int profile, int entrypoint) {
  VAConfigID config = VA_INVALID_ID;
  const VAStatus status =
      vaCreateConfig(display, static_cast<VAProfile>(profile),
                     static_cast<VAEntrypoint>(entrypoint), nullptr, 0, &config);
  std::printf("create-config\t%d\t%d\t%d\n", profile, entrypoint, status);
  if (status == VA_STATUS_SUCCESS) vaDestroyConfig(display, config);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc % 2 != 0) {
    std::fprintf(stderr, "usage: %s DEVICE [PROFILE ENTRYPOINT]...\n", argv[0]);
    return 2;
  }
  const int fd = open(argv[1], O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    std::perror(argv[1]);
    return 2;
  }
  VADisplay display = vaGetDisplayDRM(fd);
  if (!display) {
    std::fprintf(stderr, "vaGetDisplayDRM returned no display\n");
    return 2;
  }
  // libva writes its info lines to stdout by default; this program's stdout is its report.
  vaSetInfoCallback(display, nullptr, nullptr);
  int major = 0, minor = 0;
  const VAStatus initialised = vaInitialize(display, &major, &minor);
  if (initialised != VA_STATUS_SUCCESS) {
    std::fprintf(stderr, "vaInitialize\t%d\n", initialised);
    vaTerminate(display);
    close(fd);
    return 3;
  }
  const char* vendor = vaQueryVendorString(display);
  std::printf("vendor\t%s\n", vendor ? vendor : "");
  PrintConfigs(display);
  PrintVideoProcFormats(display);
  for (int i = 2; i + 1 < argc; i += 2)
    PrintCreateConfig(display, std::atoi(argv[i]), std::atoi(argv[i + 1]));
  vaTerminate(display);
  close(fd);
  return 0;
}
