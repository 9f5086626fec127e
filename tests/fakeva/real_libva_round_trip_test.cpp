// The fake driver through the real libva.
// Two programs run on a plain temporary file, with the render-node shim preloaded:
//  - Debian's /usr/bin/vainfo;
//  - a small libva client, fakeva_libva_query.
// Each must print what the dump it was given says. Only the kernel is faked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <va/va.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "child_run.h"
#include "support/temp_dir.h"
#include "vainfo_dump.h"
#include "vainfo_dump_printers.h"

namespace mc::fakeva {
namespace {

namespace fs = std::filesystem;
using testing::ChildOutcome;
using testing::ChildRun;
using testing::Describe;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunChild;

constexpr std::string_view kGalliumListing =
    "# source: written for this test\n"
    "$ vainfo --display drm\n"
    "libva info: VA-API version 1.17.0\n"
    "vainfo: VA-API version: 1.17 (libva 2.12.0)\n"
    "vainfo: Driver version: Fake Gallium driver 1.0 for Imaginary GPU (DRM 3.49)\n"
    "vainfo: Supported profile and entrypoints\n"
    "      VAProfileMPEG2Simple            :\tVAEntrypointVLD\n"
    "      VAProfileH264Main               :\tVAEntrypointVLD\n"
    "      VAProfileH264Main               :\tVAEntrypointEncSlice\n"
    "      VAProfileHEVCMain10             :\tVAEntrypointVLD\n"
    "      VAProfileAV1Profile0            :\tVAEntrypointVLD\n"
    "      VAProfileNone                   :\tVAEntrypointVideoProc\n";

constexpr std::string_view kIhdAttributes =
    "vainfo: VA-API version: 1.17 (libva 2.12.0)\n"
    "vainfo: Driver version: Fake iHD driver - 23.1.1\n"
    "vainfo: Supported config attributes per profile/entrypoint pair\n"
    "VAProfileHEVCMain10/VAEntrypointVLD\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420_10\n"
    "                                             VA_RT_FORMAT_YUV420_10BPP\n"
    "    VAConfigAttribMaxPictureWidth          : 8192\n"
    "\n"
    "VAProfileHEVCMain10/VAEntrypointEncSliceLP\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
    "                                             VA_RT_FORMAT_YUV420_10\n"
    "                                             VA_RT_FORMAT_YUV420_10BPP\n"
    "\n"
    "VAProfileNone/VAEntrypointVideoProc\n"
    "    VAConfigAttribRTFormat                 : VA_RT_FORMAT_YUV420\n"
    "                                             VA_RT_FORMAT_YUV422\n"
    "                                             VA_RT_FORMAT_YUV420_10\n"
    "                                             VA_RT_FORMAT_RGB32\n"
    "\n";

constexpr std::string_view kFailedRunDump =
    "libva info: VA-API version 1.17.0\n"
    "libva error: vaGetDriverNameByIndex() failed with unknown libva error, driver_name = (null)\n"
    "vaInitialize failed with error code -1 (unknown libva error),exit\n";

VainfoDump ParsedDump(std::string_view text) {
  Result<VainfoDump> dump = ParseVainfoDump(text);
  EXPECT_TRUE(dump.ok()) << (dump.ok() ? "" : dump.error_message());
  return dump.ok() ? *dump : VainfoDump{};
}

// The driver lists each profile once, where the dump first names it.
// That profile's entrypoints follow in the dump's order.
// vainfo prints the pairs grouped so.
std::vector<VainfoConfig> GroupedByProfile(const std::vector<VainfoConfig>& configs) {
  std::vector<VainfoConfig> grouped;
  for (const VainfoConfig& first : configs) {
    if (std::ranges::find(grouped, first.profile, &VainfoConfig::profile) != grouped.end())
      continue;
    for (const VainfoConfig& config : configs) {
      if (config.profile == first.profile) grouped.push_back(config);
    }
  }
  return grouped;
}

std::vector<VainfoConfig> WithYuv420Only(std::vector<VainfoConfig> configs) {
  for (VainfoConfig& config : configs) config.rt_formats = VA_RT_FORMAT_YUV420;
  return configs;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class RealLibva : public ::testing::Test {
 protected:
  void SetUp() override {
    // vainfo is a test dependency the Makefile installs.
    // Without it these tests fail; they are never skipped.
    ASSERT_TRUE(fs::exists(FAKEVA_VAINFO))
        << FAKEVA_VAINFO << " is not installed (Debian package vainfo)";
    // A plain, empty file stands in for /dev/dri/renderD128.
    // The shim makes libva take it.
    device_ = dir_.Write("renderD128", "");
  }

  fs::path WriteDump(std::string_view text) {
    return dir_.Write("dump-" + std::to_string(++dumps_) + ".txt", std::string(text));
  }

  // The environment that makes the real libva load the fake driver for `dump`.
  // `sanitized_program` says whether the program has this build's sanitizers.
  // fakeva_libva_query has them; Debian's vainfo does not.
  ChildRun FakevaRun(std::vector<std::string> argv, const std::string& dump,
                     const std::string& mode = "", bool sanitized_program = false) const {
    ChildRun run;
    run.argv = std::move(argv);
    std::string preload = FAKEVA_SHIM;
    const std::string asan_runtime = FAKEVA_ASAN_RUNTIME;
    // An ASan-built driver inside a program without ASan needs the runtime loaded first.
    // GCC links it as a shared library into our own programs too.
    // There it must still come before the shim.
    // clang links it statically into them, where a second copy would clash.
    if (!asan_runtime.empty() && (!sanitized_program || !kClang))
      preload = asan_runtime + ":" + preload;
    run.environment = {
        {"LD_PRELOAD", preload},
        {"LIBVA_DRIVERS_PATH", FAKEVA_DRIVER_DIR},
        {"LIBVA_DRIVER_NAME", "fakeva"},
        // In the sanitizer build, a crash on purpose must end the process by its signal.
        // It must not end by ASan's report.
        // Leak checking stays on: vainfo and libva free what they take.
        // So a leak reported at exit is the driver's.
        {"ASAN_OPTIONS", "handle_segv=0"},
    };
    if (!dump.empty()) run.environment["FAKEVA_DUMP"] = dump;
    if (!mode.empty()) run.environment["FAKEVA_MODE"] = mode;
    run.unset = {"FAKEVA_*",       "LIBVA_DRIVER_NAME",     "LIBVA_DRIVERS_PATH",
                 "LIBVA_TRACE",    "LIBVA_MESSAGING_LEVEL", "DISPLAY",
                 "WAYLAND_DISPLAY"};
    return run;
  }

  ChildRun VainfoOn(const fs::path& device, const std::string& dump, bool all = false,
                    const std::string& mode = "") const {
    std::vector<std::string> argv = {FAKEVA_VAINFO, "--display", "drm", "--device",
                                     device.string()};
    if (all) argv.push_back("-a");
    return FakevaRun(std::move(argv), dump, mode);
  }

  ChildRun Vainfo(const std::string& dump, bool all = false, const std::string& mode = "") const {
    return VainfoOn(device_, dump, all, mode);
  }

  ChildRun LibvaQuery(const std::string& dump, const std::vector<int>& pairs = {}) const {
    std::vector<std::string> argv = {FAKEVA_LIBVA_QUERY, device_.string()};
    for (const int value : pairs) argv.push_back(std::to_string(value));
    return FakevaRun(std::move(argv), dump, "", /*sanitized_program=*/true);
  }

#ifdef FAKEVA_CLANG
  static constexpr bool kClang = true;
#else
  static constexpr bool kClang = false;
#endif

  mc::testing::TempDir dir_;
  fs::path device_;
  int dumps_ = 0;
};

TEST_F(RealLibva, VainfoPrintsThePlainDumpsVendorAndPairsLineForLine) {
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(kGalliumListing)));
  ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);

  const VainfoDump dump = ParsedDump(kGalliumListing);
  const VainfoDump printed = ParsedDump(vainfo.out);
  EXPECT_TRUE(printed.initialised);
  EXPECT_EQ(printed.vendor, dump.vendor);
  EXPECT_THAT(printed.configs, ElementsAreArray(dump.configs));
  // The dump was written as vainfo prints.
  // So every one of its pair lines comes back as is.
  const std::vector<std::string> out_lines = Lines(vainfo.out);
  for (const std::string& line : Lines(std::string(kGalliumListing))) {
    if (line.starts_with("      VAProfile") || line.starts_with("vainfo: Driver version:")) {
      EXPECT_THAT(out_lines, ::testing::Contains(line));
    }
  }
}

// Decoders and video processors state their render-target formats and nothing else.
// Encoders also state what the fake's engine does.
// That is rate control, references, packed headers, ...
TEST_F(RealLibva, VainfoAllPrintsTheAllDumpsRtFormatsAndOnlyEncodersStateMore) {
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(kIhdAttributes), /*all=*/true));
  ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);

  const VainfoDump dump = ParsedDump(kIhdAttributes);
  const VainfoDump printed = ParsedDump(vainfo.out);
  EXPECT_TRUE(printed.has_formats);
  EXPECT_EQ(printed.vendor, dump.vendor);
  EXPECT_THAT(printed.configs, ElementsAreArray(dump.configs));
  bool encoder = false;
  int encoder_lines = 0;
  for (const std::string& line : Lines(vainfo.out)) {
    if (line.find("/VAEntrypoint") != std::string::npos)
      encoder = line.find("VAEntrypointEnc") != std::string::npos;
    if (line.find("VAConfigAttrib") == std::string::npos) continue;
    if (encoder) {
      encoder_lines += line.find("VAConfigAttribRateControl") != std::string::npos;
    } else {
      EXPECT_THAT(line, HasSubstr("VAConfigAttribRTFormat"));
    }
  }
  EXPECT_GT(encoder_lines, 0) << vainfo.out;
}

TEST_F(RealLibva, VainfoWithoutAllListsAnAllDumpsPairs) {
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(kIhdAttributes)));
  ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);
  EXPECT_THAT(ParsedDump(vainfo.out).configs,
              ElementsAreArray(WithYuv420Only(ParsedDump(kIhdAttributes).configs)));
}

TEST_F(RealLibva, VainfoPrintsPairsGroupedByProfileAsTheDriverListsThem) {
  const std::string_view interleaved =
      "vainfo: Driver version: interleaved\n"
      "      VAProfileH264Main               :\tVAEntrypointVLD\n"
      "      VAProfileHEVCMain               :\tVAEntrypointVLD\n"
      "      VAProfileH264Main               :\tVAEntrypointEncSlice\n";
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(interleaved)));
  ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);
  EXPECT_THAT(
      ParsedDump(vainfo.out).configs,
      ElementsAre(VainfoConfig{VAProfileH264Main, VAEntrypointVLD, VA_RT_FORMAT_YUV420},
                  VainfoConfig{VAProfileH264Main, VAEntrypointEncSlice, VA_RT_FORMAT_YUV420},
                  VainfoConfig{VAProfileHEVCMain, VAEntrypointVLD, VA_RT_FORMAT_YUV420}));
}

TEST_F(RealLibva, EveryRecordedDumpSurvivesTheRoundTripThroughVainfo) {
  std::vector<fs::path> dumps;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(FAKEVA_DUMPS_DIR, error)) {
    // Each recorded dump is a .txt file.
    // The folder also holds their expected facts.
    if (entry.is_regular_file() && entry.path().extension() == ".txt")
      dumps.push_back(entry.path());
  }
  std::ranges::sort(dumps);
  ASSERT_FALSE(dumps.empty()) << "no recorded dumps in " << FAKEVA_DUMPS_DIR;

  for (const fs::path& file : dumps) {
    SCOPED_TRACE(file.string());
    const Result<VainfoDump> dump = ReadVainfoDump(file);
    ASSERT_TRUE(dump.ok()) << dump.error_message();
    const ChildOutcome vainfo = RunChild(Vainfo(file.string(), dump->has_formats));
    if (!dump->initialised) {
      EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 3) << Describe(vainfo);
      EXPECT_THAT(vainfo.out, Not(HasSubstr("Driver version")));
      continue;
    }
    ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);
    const VainfoDump printed = ParsedDump(vainfo.out);
    EXPECT_EQ(printed.vendor, dump->vendor);
    EXPECT_THAT(printed.configs, ElementsAreArray(GroupedByProfile(dump->configs)));
  }
}

// The facts a fakeva_libva_query run printed, by their first column.
std::multimap<std::string, std::string> Facts(const std::string& out) {
  std::multimap<std::string, std::string> facts;
  for (const std::string& line : Lines(out)) {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos) facts.emplace(line.substr(0, tab), line.substr(tab + 1));
  }
  return facts;
}

std::vector<std::string> Values(const std::multimap<std::string, std::string>& facts,
                                const std::string& key) {
  std::vector<std::string> values;
  for (auto [at, end] = facts.equal_range(key); at != end; ++at) values.push_back(at->second);
  return values;
}

TEST_F(RealLibva, ThePlainDumpsVideoProcessorTakesNv12Only) {
  const ChildOutcome query = RunChild(LibvaQuery(WriteDump(kGalliumListing)));
  ASSERT_TRUE(query.exited && query.exit_code == 0) << Describe(query);
  const auto facts = Facts(query.out);
  EXPECT_THAT(Values(facts, "vendor"),
              ElementsAre("Fake Gallium driver 1.0 for Imaginary GPU (DRM 3.49)"));
  EXPECT_THAT(Values(facts, "video-proc-format"), ElementsAre("NV12"));
  EXPECT_EQ(Values(facts, "config").size(), ParsedDump(kGalliumListing).configs.size());
}

TEST_F(RealLibva, TheAllDumpsVideoProcessorTakesTheFormatsItsRtFormatsName) {
  const ChildOutcome query = RunChild(LibvaQuery(WriteDump(kIhdAttributes)));
  ASSERT_TRUE(query.exited && query.exit_code == 0) << Describe(query);
  const auto facts = Facts(query.out);
  EXPECT_THAT(Values(facts, "video-proc-format"), ElementsAre("NV12", "P010"));
  EXPECT_THAT(Values(facts, "config"),
              ElementsAre("18\t1\t0x100", "18\t8\t0x101", "-1\t10\t0x20103"));
}

TEST_F(RealLibva, CreateConfigSucceedsForListedPairsOnly) {
  const ChildOutcome query = RunChild(
      LibvaQuery(WriteDump(kGalliumListing),
                 {
                     VAProfileH264Main, VAEntrypointEncSlice,    // listed
                     VAProfileVP9Profile0, VAEntrypointVLD,      // profile not listed
                     VAProfileHEVCMain10, VAEntrypointEncSlice,  // profile listed, entrypoint not
                 }));
  ASSERT_TRUE(query.exited && query.exit_code == 0) << Describe(query);
  EXPECT_THAT(Values(Facts(query.out), "create-config"),
              ElementsAre("6\t6\t" + std::to_string(VA_STATUS_SUCCESS),
                          "19\t1\t" + std::to_string(VA_STATUS_ERROR_UNSUPPORTED_PROFILE),
                          "18\t6\t" + std::to_string(VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT)));
}

TEST_F(RealLibva, ADumpOfAFailedRunMakesVaInitializeFail) {
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(kFailedRunDump)));
  EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 3) << Describe(vainfo);
  EXPECT_THAT(vainfo.err, HasSubstr("vaInitialize failed"));
  EXPECT_THAT(vainfo.err, HasSubstr("records a run whose vaInitialize failed"));

  const ChildOutcome query = RunChild(LibvaQuery(WriteDump(kFailedRunDump)));
  EXPECT_TRUE(query.exited && query.exit_code == 3) << Describe(query);
  EXPECT_THAT(query.err, HasSubstr("vaInitialize\t" +
                                   std::to_string(static_cast<VAStatus>(VA_STATUS_ERROR_UNKNOWN))));
}

TEST_F(RealLibva, AMissingDumpFileMakesVaInitializeFail) {
  const ChildOutcome vainfo = RunChild(Vainfo((dir_.path() / "no-such-dump.txt").string()));
  EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 3) << Describe(vainfo);
  EXPECT_THAT(vainfo.err, HasSubstr("no-such-dump.txt"));
}

TEST_F(RealLibva, WithoutFakevaDumpTheDriverStatesTheDumpTheRenderNodeHolds) {
  // A fake machine's render nodes are plain files, each holding its GPU's dump.
  const fs::path node = dir_.Write("dev/dri/renderD129", std::string(kIhdAttributes));
  const ChildOutcome vainfo = RunChild(VainfoOn(node, "", /*all=*/true));
  ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);
  EXPECT_EQ(ParsedDump(vainfo.out), ParsedDump(kIhdAttributes));
}

TEST_F(RealLibva, WithoutFakevaDumpAnEmptyRenderNodeMakesVaInitializeFail) {
  const ChildOutcome vainfo = RunChild(Vainfo(""));
  EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 3) << Describe(vainfo);
  EXPECT_THAT(vainfo.err,
              HasSubstr("FAKEVA_DUMP is not set and the render node " + device_.string()));
}

TEST_F(RealLibva, DevNullServesAsTheRenderNodeWhenFakevaDumpIsSet) {
  const ChildOutcome vainfo = RunChild(VainfoOn("/dev/null", WriteDump(kGalliumListing)));
  ASSERT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);
  EXPECT_EQ(ParsedDump(vainfo.out).vendor, ParsedDump(kGalliumListing).vendor);
}

TEST_F(RealLibva, WithoutFakevaDumpANodeThatIsNoPlainFileMakesVaInitializeFail) {
  const ChildOutcome vainfo = RunChild(VainfoOn("/dev/null", ""));
  EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 3) << Describe(vainfo);
  EXPECT_THAT(vainfo.err, HasSubstr("/dev/null is not a plain file holding a vainfo dump"));
}

TEST_F(RealLibva, AnUnknownModeMakesVaInitializeFail) {
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(kGalliumListing), false, "sideways"));
  EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 3) << Describe(vainfo);
  EXPECT_THAT(vainfo.err, HasSubstr("unknown FAKEVA_MODE 'sideways'"));
}

TEST_F(RealLibva, ACrashingDriverKillsVainfoWithSigsegv) {
  const ChildOutcome vainfo = RunChild(Vainfo(WriteDump(kGalliumListing), false, "crash"));
  ASSERT_TRUE(vainfo.started) << Describe(vainfo);
  EXPECT_FALSE(vainfo.exited) << Describe(vainfo);
  EXPECT_FALSE(vainfo.timed_out) << Describe(vainfo);
  EXPECT_EQ(vainfo.signal, SIGSEGV) << Describe(vainfo);
  EXPECT_THAT(vainfo.out, Not(HasSubstr("Driver version")));
}

TEST_F(RealLibva, AHangingDriverKeepsVainfoFromFinishing) {
  ChildRun run = Vainfo(WriteDump(kGalliumListing), false, "hang");
  run.deadline = std::chrono::seconds(2);
  const ChildOutcome vainfo = RunChild(run);
  ASSERT_TRUE(vainfo.started) << Describe(vainfo);
  EXPECT_TRUE(vainfo.timed_out) << Describe(vainfo);
  EXPECT_THAT(vainfo.out, Not(HasSubstr("Driver version")));
}

TEST_F(RealLibva, AModeNamedForOneNodeAppliesToThatNodeAlone) {
  // The device is renderD128.
  ChildRun crash = Vainfo(WriteDump(kGalliumListing));
  crash.environment["FAKEVA_MODE_renderD128"] = "crash";
  const ChildOutcome crashed = RunChild(crash);
  EXPECT_EQ(crashed.signal, SIGSEGV) << Describe(crashed);

  ChildRun other = Vainfo(WriteDump(kGalliumListing));
  other.environment["FAKEVA_MODE_renderD129"] = "crash";
  const ChildOutcome fine = RunChild(other);
  EXPECT_TRUE(fine.exited && fine.exit_code == 0) << Describe(fine);
}

TEST_F(RealLibva, ANodesOwnModeOverridesTheGeneralOne) {
  ChildRun run = Vainfo(WriteDump(kGalliumListing), false, "crash");
  run.environment["FAKEVA_MODE_renderD128"] = "";
  const ChildOutcome vainfo = RunChild(run);
  EXPECT_TRUE(vainfo.exited && vainfo.exit_code == 0) << Describe(vainfo);
}

}  // namespace
}  // namespace mc::fakeva
