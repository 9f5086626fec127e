// The whole probe, as a user runs it, on machines laid out by tests/fakeva/fake-machine:
// the real libva loads the fake VA driver for each node, and only the kernel is faked.
// These tests show that one bad render node never hides the others.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "support/fake_sysfs.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr char kDecodesEverything[] = R"(# source: written for this test
vainfo: VA-API version: 1.17 (libva 2.17.0)
vainfo: Driver version: Fake driver 1.0
vainfo: Supported profile and entrypoints
      VAProfileH264High               :	VAEntrypointVLD
      VAProfileHEVCMain10             :	VAEntrypointVLD
      VAProfileHEVCMain10             :	VAEntrypointEncSliceLP
      VAProfileNone                   :	VAEntrypointVideoProc
)";

constexpr char kDecodesH264Only[] = R"(vainfo: Driver version: Other fake driver 2.0
      VAProfileH264High               :	VAEntrypointVLD
)";

// Probe lays out a machine with one node per dump and runs the probe on it.
class Probe : public ::testing::Test {
 protected:
  std::string Dump(const std::string& name, const std::string& text) {
    return dir_.Write("dumps/" + name, text).string();
  }

  void LayOut(const std::vector<std::string>& dumps) {
    std::vector<std::string> argv = {MEDIA_CAP_FAKE_MACHINE, (dir_.path() / "machine").string()};
    argv.insert(argv.end(), dumps.begin(), dumps.end());
    const probe::ChildOutcome made = testing::RunCommand(argv);
    ASSERT_EQ(made.code, 0) << made.err;
  }

  fs::path Node(const std::string& name) const { return dir_.path() / "machine/dev/dri" / name; }

  probe::ChildOutcome Run(std::vector<std::string> options, std::vector<std::string> env = {},
                          std::vector<std::string> prefix = {}) {
    const std::vector<std::string> argv =
        testing::CommandLine({prefix,
                              {MEDIA_CAP_BINARY, "probe"},
                              testing::FakeMachineFlags(dir_.path() / "machine"),
                              options});
    // In the sanitizer build, a driver's crash must still kill the child by its signal, as
    // it does in the ordinary build, rather than end in AddressSanitizer's report.
    env.insert(env.end(), {"ASAN_OPTIONS=handle_segv=0", "LD_PRELOAD=" MEDIA_CAP_PRELOAD,
                           "LIBVA_DRIVERS_PATH=" MEDIA_CAP_FAKEVA_DIR, "LIBVA_DRIVER_NAME=fakeva"});
    return testing::RunCommand(argv, env);
  }

  static json Devices(const probe::ChildOutcome& run) {
    EXPECT_EQ(run.kind, probe::ChildOutcome::Kind::kExited);
    EXPECT_EQ(run.code, 0) << run.err;
    return json::parse(run.out, nullptr, false);
  }

  static bool Capability(const json& device, const char* name) {
    return device["attributes"][name]["bool"].get<bool>();
  }

  testing::TempDir dir_;
};

TEST_F(Probe, EachRenderNodeGetsTheDevicesOfItsOwnDriver) {
  LayOut({Dump("a.txt", kDecodesEverything), Dump("b.txt", kDecodesH264Only)});
  const json devices = Devices(Run({"--output", "json"}));
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0]["name"], "pci-0000-01-00-0");
  EXPECT_EQ(devices[0]["attributes"]["vaDriver"]["string"], "Fake driver 1.0");
  EXPECT_TRUE(Capability(devices[0], "decodeHEVCMain10"));
  EXPECT_TRUE(Capability(devices[0], "encodeHEVCMain10LowPower"));
  EXPECT_FALSE(Capability(devices[0], "encodeHEVCMain10"));
  EXPECT_TRUE(Capability(devices[0], "scale8bit"));
  EXPECT_EQ(devices[1]["name"], "pci-0000-02-00-0");
  EXPECT_EQ(devices[1]["attributes"]["vaDriver"]["string"], "Other fake driver 2.0");
  EXPECT_TRUE(Capability(devices[1], "decodeH264"));
  EXPECT_FALSE(Capability(devices[1], "decodeHEVCMain10"));
  EXPECT_EQ(devices[1]["attributes"]["resource.kubernetes.io/pciBusID"]["string"], "0000:02:00.0");
  EXPECT_TRUE(devices[1]["allowMultipleAllocations"].get<bool>());
}

TEST_F(Probe, TheLogHasOneCapabilitiesLineForEachRenderNode) {
  LayOut({Dump("a.txt", kDecodesEverything)});
  const probe::ChildOutcome run = Run({"--output", "json"});
  EXPECT_NE(run.err.find(
                "capabilities: pci-0000-01-00-0 (" + Node("renderD128").string() +
                ", Fake driver 1.0): decodeH264=true decodeHEVCMain=false decodeHEVCMain10=true"),
            std::string::npos)
      << run.err;
}

TEST_F(Probe, ACrashingDriverFailsOnlyItsOwnNode) {
  LayOut({Dump("a.txt", kDecodesEverything), Dump("b.txt", kDecodesH264Only)});
  const json devices = Devices(Run({"--output", "json"}, {"FAKEVA_MODE_renderD128=crash"}));
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_FALSE(Capability(devices[0], "decodeH264"));
  EXPECT_FALSE(devices[0]["attributes"].contains("vaDriver"));
  EXPECT_TRUE(Capability(devices[1], "decodeH264"));
}

TEST_F(Probe, ACrashIsLoggedWithTheSignal) {
  LayOut({Dump("a.txt", kDecodesEverything)});
  const probe::ChildOutcome run = Run({"--output", "json"}, {"FAKEVA_MODE_renderD128=crash"});
  EXPECT_NE(run.err.find("): query failed: the query was killed by signal 11 (Segmentation fault)"),
            std::string::npos)
      << run.err;
}

TEST_F(Probe, AHangingDriverIsKilledAtTheDeadlineAndTheOthersAreStillReported) {
  LayOut({Dump("a.txt", kDecodesH264Only), Dump("b.txt", kDecodesEverything)});
  const auto start = std::chrono::steady_clock::now();
  const probe::ChildOutcome run =
      Run({"--output", "json", "--query-deadline", "1"}, {"FAKEVA_MODE_renderD128=hang"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  const json devices = Devices(run);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_FALSE(Capability(devices[0], "decodeH264"));
  EXPECT_TRUE(Capability(devices[1], "decodeHEVCMain10"));
  EXPECT_NE(run.err.find("query failed: the query ran past its deadline of 1 s and was killed"),
            std::string::npos)
      << run.err;
}

TEST_F(Probe, ANodeThatCannotBeOpenedIsReportedAndTheOthersAreNot) {
  LayOut({Dump("a.txt", kDecodesEverything), Dump("b.txt", kDecodesH264Only)});
  fs::permissions(Node("renderD128"), fs::perms::none);
  // Root opens any file, so the probe runs without the capabilities that let it.
  const probe::ChildOutcome run =
      Run({"--output", "json"}, {},
          {"setpriv", "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"});
  const json devices = Devices(run);
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_FALSE(devices[0]["attributes"].contains("vaDriver"));
  EXPECT_TRUE(Capability(devices[1], "decodeH264"));
  EXPECT_NE(run.err.find("query failed: cannot open " + Node("renderD128").string() +
                         ": Permission denied"),
            std::string::npos)
      << run.err;
}

TEST_F(Probe, AFailedVaInitializeIsLoggedWithLibvasErrorText) {
  LayOut({Dump("failed.txt",
               "libva error: vaGetDriverNameByIndex() failed with unknown libva error\n"
               "vaInitialize failed with error code -1 (unknown libva error),exit\n")});
  const probe::ChildOutcome run = Run({"--output", "json"});
  const json devices = Devices(run);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_FALSE(devices[0]["attributes"].contains("vaDriver"));
  EXPECT_NE(run.err.find("query failed: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("vaInitialize on " + Node("renderD128").string() + " failed: "),
            std::string::npos)
      << run.err;
}

TEST_F(Probe, ADriverThatListsNothingPublishesEveryCapabilityFalseWithItsName) {
  LayOut({Dump("empty.txt", "vainfo: Driver version: Lists nothing 0.1\n")});
  const json devices = Devices(Run({"--output", "json"}));
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0]["attributes"]["vaDriver"]["string"], "Lists nothing 0.1");
  for (const auto& [name, value] : devices[0]["attributes"].items()) {
    if (value.contains("bool")) {
      EXPECT_FALSE(value["bool"].get<bool>()) << name;
    }
  }
}

TEST_F(Probe, AVendorStringThatIsNotUtf8AndTooLongIsMadeValidAndCut) {
  const std::string vendor = "Bad \xff bytes " + std::string(80, 'x');
  LayOut({Dump("odd.txt", "vainfo: Driver version: " + vendor +
                              "\n      VAProfileH264High : VAEntrypointVLD\n")});
  const json devices = Devices(Run({"--output", "json"}));
  ASSERT_EQ(devices.size(), 1u);
  const std::string published = devices[0]["attributes"]["vaDriver"]["string"];
  EXPECT_EQ(published.size(), 64u);
  EXPECT_TRUE(published.starts_with("Bad \xEF\xBF\xBD bytes xxx")) << published;
  EXPECT_TRUE(Capability(devices[0], "decodeH264"));
}

TEST_F(Probe, RenderNodeOptionsLimitTheProbeToThoseNodes) {
  LayOut({Dump("a.txt", kDecodesEverything), Dump("b.txt", kDecodesH264Only)});
  const json devices =
      Devices(Run({"--output", "json", "--render-node", Node("renderD129").string()}));
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0]["name"], "pci-0000-02-00-0");
}

TEST_F(Probe, TheWideTableHasARowPerGpuAndAColumnPerCapability) {
  LayOut({Dump("a.txt", kDecodesEverything), Dump("b.txt", kDecodesH264Only)});
  const probe::ChildOutcome run = Run({"--output", "wide"});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(run.out.starts_with("NAME")) << run.out;
  EXPECT_NE(run.out.find("decodeHEVCMain10"), std::string::npos);
  EXPECT_NE(run.out.find("pci-0000-01-00-0"), std::string::npos);
  EXPECT_NE(run.out.find("Other fake driver 2.0"), std::string::npos);
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 3);
}

TEST_F(Probe, TheYamlOutputIsTheJsonOutput) {
  LayOut({Dump("a.txt", kDecodesEverything)});
  const json devices = Devices(Run({"--output", "json"}));
  const probe::ChildOutcome yaml_run = Run({"--output", "yaml"});
  ASSERT_EQ(yaml_run.code, 0);
  const YAML::Node yaml = YAML::Load(yaml_run.out);
  ASSERT_EQ(yaml.size(), 1u);
  EXPECT_EQ(yaml[0]["name"].as<std::string>(), devices[0]["name"]);
  for (const auto& [name, value] : devices[0]["attributes"].items()) {
    if (value.contains("bool")) {
      EXPECT_EQ(yaml[0]["attributes"][name]["bool"].as<bool>(), value["bool"].get<bool>()) << name;
    } else {
      EXPECT_EQ(yaml[0]["attributes"][name]["string"].as<std::string>(),
                value["string"].get<std::string>())
          << name;
    }
  }
}

TEST_F(Probe, AMachineWithoutRenderNodesSaysWhereItLookedAndSucceeds) {
  const probe::ChildOutcome run = Run({"--output", "json"});
  EXPECT_EQ(run.code, 0);
  EXPECT_EQ(run.out, "[]\n");
  EXPECT_NE(run.err.find("probe: found no GPU in " + (dir_.path() / "machine/sys").string() +
                         "/class/drm"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("tests/fakeva/probe-dump"), std::string::npos);
}

TEST_F(Probe, TheDefaultTableListsWhatEachGpuDecodesEncodesAndScales) {
  LayOut({Dump("a.txt", kDecodesEverything), Dump("b.txt", kDecodesH264Only)});
  const probe::ChildOutcome run = Run({});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_TRUE(run.out.starts_with("pci-0000-01-00-0  ")) << run.out;
  EXPECT_NE(run.out.find("  decodes        h264; 10-bit: hevc\n"
                         "  encodes        LP: 10-bit: hevc\n"
                         "  scales         8-bit\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("  driver         Other fake driver 2.0\n"
                         "  decodes        h264\n"
                         "  encodes        none\n"
                         "  scales         none\n"),
            std::string::npos)
      << run.out;
  // A block per GPU and a blank line between the two.
  const std::size_t blank = run.out.find("\n\n");
  ASSERT_NE(blank, std::string::npos) << run.out;
  EXPECT_TRUE(run.out.substr(blank + 2).starts_with("pci-0000-02-00-0  ")) << run.out;
  EXPECT_EQ(run.out.find("\n\n", blank + 2), std::string::npos) << run.out;
}

TEST_F(Probe, TheDefaultTableOfARecordedGpuNamesItsModelAndWhatItsDriverStates) {
  LayOut({std::string(MEDIA_CAP_DUMPS_DIR) + "/intel-ihd-dg1-gen12-24.1.txt"});
  const probe::ChildOutcome run = Run({});
  ASSERT_EQ(run.code, 0) << run.err;
  const std::size_t api = run.out.find("  api            VA-API on");
  ASSERT_NE(api, std::string::npos) << run.out;
  // The render node's path is the test's own temporary one, so the api line, which it may
  // wrap, is left out.
  EXPECT_EQ(run.out.substr(0, api), "pci-0000-01-00-0  DG1 [Iris Xe Graphics]\n");
  EXPECT_TRUE(
      run.out.ends_with("  driver         Intel iHD driver for Intel(R) Gen Graphics - 24.1.5 ()\n"
                        "  decodes        h264 hevc av1 vp9 vc1 mpeg2; 10-bit: hevc vp9\n"
                        "  encodes        h264 hevc; 10-bit: hevc\n"
                        "                 LP: h264 hevc; 10-bit: hevc\n"
                        "  scales         8-bit\n"))
      << run.out;
}

TEST_F(Probe, TheWideOutputIsTheOldColumnPerCapabilityTable) {
  LayOut({Dump("a.txt", kDecodesEverything)});
  const probe::ChildOutcome run = Run({"--output", "wide"});
  ASSERT_EQ(run.code, 0) << run.err;
  const json devices = Devices(Run({"--output", "json"}));
  for (const auto& [name, value] : devices[0]["attributes"].items()) {
    if (value.contains("bool")) {
      EXPECT_NE(run.out.find("   " + name), std::string::npos) << name;
    }
  }
  const std::string row = run.out.substr(run.out.find('\n') + 1);
  EXPECT_TRUE(row.starts_with("pci-0000-01-00-0   vaapi   " + Node("renderD128").string() +
                              "   Fake driver 1.0   true "))
      << row;
}

TEST_F(Probe, AFakeMachinePlacesAGpuAtTheAddressAndIdsItsOptionsGive) {
  std::vector<std::string> argv = {
      MEDIA_CAP_FAKE_MACHINE,
      (dir_.path() / "machine").string(),
      "--pci",
      "0000:0a:00.0",
      "--device-id",
      "1002:744c",
      Dump("a.txt", kDecodesEverything),
      std::string(MEDIA_CAP_DUMPS_DIR) + "/amd-radeonsi-navi22-rx6750xt.txt"};
  const probe::ChildOutcome made = testing::RunCommand(argv);
  ASSERT_EQ(made.code, 0) << made.err;
  const json devices = Devices(Run({"--output", "json"}));
  // The devices come in the order of their names, that is of their addresses.
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1]["name"], "pci-0000-0a-00-0");
  EXPECT_EQ(devices[1]["attributes"]["product"]["string"], "744c");
  EXPECT_EQ(devices[1]["attributes"]["driver"]["string"], "amdgpu");
  // The second dump's GPU takes its ids from the dump's header, and the second default address.
  EXPECT_EQ(devices[0]["name"], "pci-0000-02-00-0");
  EXPECT_EQ(devices[0]["attributes"]["vendor"]["string"], "1002");
  EXPECT_EQ(devices[0]["attributes"]["product"]["string"], "73df");
}

TEST_F(Probe, AFakeMachineRefusesTwoGpusAtOneAddressAndSaysWhich) {
  const std::string a = Dump("a.txt", kDecodesEverything);
  const std::string b = Dump("b.txt", kDecodesH264Only);
  const probe::ChildOutcome made = testing::RunCommand(
      {MEDIA_CAP_FAKE_MACHINE, (dir_.path() / "machine").string(), "--pci", "0000:02:00.0", a, b});
  EXPECT_NE(made.code, 0);
  EXPECT_NE(
      made.err.find(b + " and " + a + " would both sit at 0000:02:00.0; give one of them --pci"),
      std::string::npos)
      << made.err;
}

TEST_F(Probe, AFakeMachineRefusesAnIdThatIsNotOne) {
  const probe::ChildOutcome made =
      testing::RunCommand({MEDIA_CAP_FAKE_MACHINE, (dir_.path() / "machine").string(),
                           "--device-id", "46a6", Dump("a.txt", kDecodesEverything)});
  EXPECT_NE(made.code, 0);
  EXPECT_NE(made.err.find("no kernel driver is known for the PCI vendor 46a6"), std::string::npos)
      << made.err;
}

// An NVIDIA GPU's table, from a recorded capability file through NVIDIA's real loader and the
// fake libraries (tests/fakenv/probe-record).
TEST(ProbeOfANvidiaRecord, TheDefaultTableShowsItAtItsPciAddressWithNoLowPowerLineAndItsSessions) {
  const probe::ChildOutcome run = testing::RunCommand(
      {MEDIA_CAP_PROBE_RECORD, MEDIA_CAP_RECORDS_DIR "/ada-geforce-rtx4090.json", "--", "--output",
       "table"},
      {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  ASSERT_EQ(run.code, 0) << run.err;
  EXPECT_NE(run.out.find("  api            NVIDIA at 0000:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("  decodes        h264 hevc av1 vp9 vp8 vc1 mpeg2; 10-bit: hevc av1 vp9\n"
                         "  encodes        h264 hevc av1; 10-bit: hevc av1\n"
                         "  scales         8-bit 10-bit\n"
                         "  sessions       8\n"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("LP:"), std::string::npos) << run.out;
}

// The command line's mistakes, each said in words: what is wrong, with no range dump.
struct CommandLineMistake {
  std::vector<std::string> argv;
  std::string error;
};

TEST(CommandLine, EachMistakeIsSaidInWords) {
  const std::vector<CommandLineMistake> mistakes = {
      {{"probe", "--query-deadline", "abc"},
       "--query-deadline: \"abc\" is not a number of seconds"},
      {{"probe", "--query-deadline", "-2"},
       "--query-deadline: \"-2\" is negative; the number of seconds must be more than 0"},
      {{"probe", "--query-deadline", "0"},
       "--query-deadline: the number of seconds must be more than 0, not 0"},
      {{"agent", "--query-deadline", "soon"},
       "--query-deadline: \"soon\" is not a number of seconds"},
      {{"query-batch", "--deadline-ms", "1.5", "va=/dev/null"},
       "--deadline-ms: \"1.5\" is not a whole number of milliseconds"},
      {{"pool", "generate-trace", "--shape", "flat", "--scale", "5000"},
       "--scale: \"5000\" is out of range; the number must be from 0.01 to 1000"},
      {{"pool", "generate-trace", "--shape", "flat", "--variant", "-1"},
       "--variant: \"-1\" is negative; the number must be 0 or more"},
      {{"worker", "probe", "--query-deadline", "abc"},
       "--query-deadline: \"abc\" is not a number of seconds"},
      {{"probe", "--output", "xml"},
       "--output: unknown format \"xml\"; the formats are table, wide, json and yaml"},
      {{"nosuch"},
       "there is no subcommand \"nosuch\"; the subcommands are probe, agent, docs, doctor, "
       "pool, ffmpeg-plan and worker"},
      {{"nosuch", "--help"}, "there is no subcommand \"nosuch\""},
      {{"pool", "nosuch", "--help"}, "there is no subcommand \"nosuch\" of pool"},
      {{"worker", "nosuch", "--help"},
       "media-capabilities worker: there is no subcommand \"nosuch\"; the subcommands are probe"},
  };
  for (const CommandLineMistake& mistake : mistakes) {
    std::vector<std::string> argv = {MEDIA_CAP_BINARY};
    argv.insert(argv.end(), mistake.argv.begin(), mistake.argv.end());
    const probe::ChildOutcome run = testing::RunCommand(argv);
    EXPECT_EQ(run.kind, probe::ChildOutcome::Kind::kExited) << mistake.error;
    EXPECT_NE(run.code, 0) << mistake.error;
    EXPECT_NE(run.err.find(mistake.error), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("not in range"), std::string::npos) << run.err;
    EXPECT_EQ(run.out.find("Usage"), std::string::npos) << run.out;
  }
}

// HelpLine is the line of `media-capabilities ARGS --help` that names the option.
std::string HelpLine(std::vector<std::string> args, const std::string& option,
                     const std::vector<std::string>& env = {}) {
  std::vector<std::string> argv = {MEDIA_CAP_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.push_back("--help");
  const probe::ChildOutcome run = testing::RunCommand(argv, env);
  EXPECT_EQ(run.code, 0) << run.err;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(option + " ") != std::string::npos) return line;
  }
  ADD_FAILURE() << "no " << option << " in the help of " << args.back() << ":\n" << run.out;
  return "";
}

// Under tests/fakeva/run-on or tests/fakenv/run-on, every command that looks at the GPUs finds
// the fake machine's: the agent as the probe, the worker and the doctor do.
TEST(CommandLine, EveryCommandThatFindsGpusTakesTheFakeMachinesRootsFromTheEnvironment) {
  const std::vector<std::string> env = {"MEDIA_CAP_SYSFS_ROOT=/fake/sys",
                                        "MEDIA_CAP_DEV_ROOT=/fake/dev"};
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
           {"probe"}, {"agent"}, {"doctor"}, {"worker", "probe"}, {"worker", "status"}}) {
    EXPECT_NE(HelpLine(command, "--sysfs-root", env).find("=/fake/sys "), std::string::npos)
        << command.back();
    EXPECT_NE(HelpLine(command, "--dev-root", env).find("=/fake/dev "), std::string::npos)
        << command.back();
  }
}

// An option several worker subcommands take is one option: the same help text and default in
// each of them.
TEST(CommandLine, AnOptionSeveralSubcommandsShareReadsTheSameInEach) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> shared = {
      {"--proc-root", {"status", "self-test", "serve", "run"}},
      {"--nvml-library", {"status", "self-test", "serve", "run"}},
      {"--kernel-log", {"status", "serve", "run"}},
      {"--state-dir",
       {"status", "self-test", "serve", "run", "register", "drain", "enable", "state",
        "concurrency", "eligibility"}},
  };
  for (const auto& [option, subcommands] : shared) {
    const std::string first = HelpLine({"worker", subcommands[0]}, option);
    EXPECT_FALSE(first.empty()) << option;
    for (const std::string& subcommand : subcommands) {
      EXPECT_EQ(HelpLine({"worker", subcommand}, option), first) << option << " of " << subcommand;
    }
  }
  EXPECT_EQ(HelpLine({"doctor"}, "--proc-root"), HelpLine({"worker", "status"}, "--proc-root"));
  EXPECT_NE(HelpLine({"worker", "status"}, "--state-dir").find("/var/lib/peertube-worker/state"),
            std::string::npos);
}

}  // namespace
}  // namespace mc
