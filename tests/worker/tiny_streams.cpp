#include "tiny_streams.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::testing {

const std::filesystem::path& TinyStreams() {
  static const TempDir dir;
  static const bool made = [] {
    const std::vector<std::vector<std::string>> encoders = {
        {"h264.mp4", "-c:v", "libx264", "-preset", "ultrafast", "-bf", "0"},
        {"hevc.mp4", "-c:v", "libx265", "-preset", "ultrafast", "-bf", "0", "-x265-params",
         "log-level=error"},
        {"av1.mp4", "-c:v", "libsvtav1", "-preset", "12"},
        {"vp9.webm", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8"}};
    for (const std::vector<std::string>& encoder : encoders) {
      std::vector<std::string> argv = {"ffmpeg",   "-hide_banner",
                                       "-nostdin", "-v",
                                       "error",    "-y",
                                       "-f",       "lavfi",
                                       "-i",       "testsrc2=size=320x240:rate=30",
                                       "-t",       "1",
                                       "-pix_fmt", "yuv420p"};
      argv.insert(argv.end(), encoder.begin() + 1, encoder.end());
      argv.push_back((dir.path() / encoder[0]).string());
      const probe::ChildOutcome run = RunCommand(argv);
      EXPECT_EQ(run.code, 0) << encoder[0] << ": " << run.err;
    }
    return true;
  }();
  (void)made;
  return dir.path();
}

}  // namespace mc::testing
