// ffmpeg's box: a shell standing in for ffmpeg, run as the wrapper runs ffmpeg, reads the
// job's input and writes its output, and opens none of the worker's secrets, no other job's
// files, no socket, and signals nothing outside; Debian's real ffmpeg runs each of the runner's
// command forms in it; the real binary as the runner's ffprobe reads the upload and no secret;
// and `worker run` on a kernel without Landlock, which refuses to start where the settings
// require the box.
#include "worker/daemon/ffmpeg_sandbox.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>

#include "support/run_command.h"
#include "support/temp_dir.h"
#include "worker/daemon/capture.h"
#include "worker/daemon/job_ffmpeg.h"
#include "worker/probe_contract/landlock.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

fs::path Write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
  return file;
}

std::string ReadAll(const fs::path& file) {
  std::ifstream in(file);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A job as the runner 0.1.3 lays it out (its input and its output in the one `transcoding/`
// folder of every job), and the secrets a worker keeps beside it.
struct JobLayout {
  JobLayout() {
    Write(input, "the upload\n");
    Write(registration, "{\"runnerToken\": \"ptrt-secret\"}\n");
    Write(runner_config, "[[registeredInstances]]\nrunnerToken = \"ptrt-secret\"\n");
    Write(registration_token, "ptrrt-secret\n");
  }
  RunnerCommand Command() const {
    Result<RunnerCommand> command =
        ParseRunnerCommand({"-i", input.string(), "-y", "-c:v", "libx264", output.string()});
    EXPECT_TRUE(command) << command.error_message();
    return command ? *command : RunnerCommand{};
  }
  // The box the wrapper makes for the job, its output made first.
  Result<Sandbox> Box(const SandboxEnvironment& environment = {.ffmpeg = "/bin/sh"}) const {
    const SandboxPaths paths = JobSandboxPaths(Command(), environment);
    if (Result<void> made = MakeOutputFiles(Command(), paths); !made) return made.error();
    return Sandbox::Make(paths);
  }
  // The fake: each step's failure is its own exit status, so the test names which.
  std::vector<std::string> Script() const {
    return {"/bin/sh", "-c",
            "cat '" + input.string() + "' > '" + output.string() + "' || exit 10; " + "cat '" +
                registration.string() + "' && exit 11; " + "cat '" + runner_config.string() +
                "' && exit 12; " + "cat '" + registration_token.string() + "' && exit 13; " +
                "ls '" + registration.parent_path().string() + "' && exit 14; " + "echo x > '" +
                (registration.parent_path() / "planted").string() + "' && exit 15; " + "exit 0"};
  }
  mc::testing::TempDir root;
  fs::path transcoding = root.path() / "cache/transcoding";
  fs::path input = transcoding / "b659dc32-0cd4-464d-9029-3b2e105879e3";
  fs::path output = transcoding / "output-8d010719-3c39-4ccb-8492-82aca7b15601.mp4";
  fs::path registration = root.path() / "state/registration.json";
  fs::path runner_config = root.path() / "config/peertube-runner-nodejs/gpu0/config.toml";
  fs::path registration_token = root.path() / "credentials/registration-token";
};

int RunBoxed(const std::vector<std::string>& argv, const Sandbox* sandbox) {
  return RunJobFfmpeg({.argv = argv, .parent_pid = getppid(), .sandbox = sandbox}).exit_code;
}

TEST(FfmpegSandbox, FfmpegReadsItsInputAndWritesItsOutputButOpensNoSecretOfTheWorker) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  Result<Sandbox> sandbox = job.Box();
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  EXPECT_EQ(RunBoxed(job.Script(), &*sandbox), 0);
  std::ifstream copy(job.output);
  std::string text;
  std::getline(copy, text);
  EXPECT_EQ(text, "the upload");
  EXPECT_FALSE(fs::exists(job.registration.parent_path() / "planted"));
}

TEST(FfmpegSandbox, WithoutItsBoxTheSameFfmpegReadsTheWorkersSecrets) {
  JobLayout job;
  EXPECT_EQ(RunBoxed(job.Script(), nullptr), 11);
}

TEST(FfmpegSandbox, TheBoxHoldsTheInputAndOutputFilesTheProgramsAndTheEnvironments) {
  JobLayout job;
  const SandboxPaths paths =
      JobSandboxPaths(job.Command(), {.ffmpeg = "/opt/ffmpeg/bin/ffmpeg",
                                      .library_path = "/machine/lib::/usr/local/lib",
                                      .va_drivers_path = "/machine/dri",
                                      .extra_paths = "/var/cache/nv"});
  EXPECT_EQ(paths.read,
            (std::vector<std::string>{job.input.string(), "/opt/ffmpeg/bin", "/machine/lib",
                                      "/usr/local/lib", "/machine/dri"}));
  EXPECT_EQ(paths.write_files, (std::vector<std::string>{job.output.string()}));
  EXPECT_TRUE(paths.read_write.empty());
  EXPECT_EQ(paths.admin, (std::vector<std::string>{"/var/cache/nv"}));
}

// The runner 0.1.3 keeps every job's files in one folder: a job's ffmpeg reaches its own alone.
TEST(FfmpegSandbox, AJobCannotListTheSharedFolderNorReadOrWriteAnotherJobsFiles) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  const fs::path other_input = Write(job.transcoding / "d62b0537-other-upload", "private\n");
  const fs::path other_output = Write(job.transcoding / "output-other.mp4", "rendition\n");
  Result<Sandbox> sandbox = job.Box();
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  const std::string folder = job.transcoding.string();
  EXPECT_EQ(
      RunBoxed({"/bin/sh", "-c",
                "cat '" + job.input.string() + "' > '" + job.output.string() +
                    "' || exit 10; ls '" + folder + "' && exit 11; cat '" + other_input.string() +
                    "' && exit 12; echo forged > '" + other_output.string() +
                    "' && exit 13; echo x > '" + folder + "/planted' && exit 14; rm '" +
                    other_output.string() + "' && exit 15; exit 0"},
               &*sandbox),
      0);
  std::ifstream kept(other_output);
  std::string text;
  std::getline(kept, text);
  EXPECT_EQ(text, "rendition");
  EXPECT_FALSE(fs::exists(job.transcoding / "planted"));
  // The output the wrapper made for the box is the user's alone.
  struct stat facts {};
  ASSERT_EQ(stat(job.output.c_str(), &facts), 0);
  EXPECT_EQ(facts.st_mode & 0777, 0600u);
}

TEST(FfmpegSandbox, FfmpegCannotConnectOverTcpEvenToLoopback) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{.sin_family = AF_INET, .sin_port = 0, .sin_addr = {htonl(INADDR_LOOPBACK)}};
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(listener, 4), 0);
  socklen_t length = sizeof address;
  getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  const std::string port = std::to_string(ntohs(address.sin_port));
  const std::vector<std::string> connect = {
      "/bin/bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + port + " && exit 10; exit 0"};
  ASSERT_EQ(RunBoxed(connect, nullptr), 10) << "the same connection outside the box";
  while (accept(listener, nullptr, nullptr) >= 0) {
  }
  Result<Sandbox> sandbox = job.Box({.ffmpeg = "/bin/bash"});
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  EXPECT_EQ(RunBoxed(connect, &*sandbox), 0);
  EXPECT_LT(accept(listener, nullptr, nullptr), 0);
  close(listener);
}

TEST(FfmpegSandbox, FfmpegCannotSignalTheWorker) {
  if (LandlockAbi() < 6) GTEST_SKIP() << "this kernel's Landlock has no signal scope";
  JobLayout job;
  Result<Sandbox> sandbox = job.Box();
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  // The fake's parent is this test, as the wrapper is a job ffmpeg's.
  const std::string pid = std::to_string(getpid());
  EXPECT_EQ(RunBoxed({"/bin/sh", "-c", "kill -0 " + pid + " && exit 10; exit 0"}, &*sandbox), 0);
  EXPECT_EQ(RunBoxed({"/bin/sh", "-c", "kill -0 " + pid + " && exit 10; exit 0"}, nullptr), 10);
}

// Landlock does not cover connect() to a path-named socket: the socket rule refuses the socket.
TEST(FfmpegSandbox, FfmpegCannotConnectToTheWorkersSocketNorToTheRunners) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  std::vector<int> listeners;
  std::vector<fs::path> sockets = {job.registration.parent_path() / "worker.sock",
                                   job.root.path() / "runner/data/peertube-runner.sock"};
  for (const fs::path& path : sockets) {
    fs::create_directories(path.parent_path());
    const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address{.sun_family = AF_UNIX, .sun_path = {}};
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << path;
    ASSERT_EQ(listen(fd, 4), 0);
    listeners.push_back(fd);
  }
  Result<Sandbox> sandbox = job.Box({.ffmpeg = WORKER_PYTHON});
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  for (const fs::path& path : sockets) {
    const std::vector<std::string> connect = {
        WORKER_PYTHON, "-c",
        "import socket, sys\ns = socket.socket(socket.AF_UNIX)\ns.connect('" + path.string() +
            "')\nsys.exit(10)"};
    EXPECT_EQ(RunBoxed(connect, nullptr), 10) << "outside the box, " << path;
    EXPECT_EQ(RunBoxed(connect, &*sandbox), 1) << path;
  }
  for (int fd : listeners) close(fd);
}

// A root ffmpeg keeps no capability: Landlock's rules hold as they do for any other user.
TEST(FfmpegSandbox, FfmpegHoldsNoCapability) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  Result<Sandbox> sandbox = job.Box();
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  EXPECT_EQ(RunBoxed({"/bin/sh", "-c",
                      "grep -q '^CapEff:\t0000000000000000$' /proc/self/status || exit 10; "
                      "grep -q '^CapBnd:\t0000000000000000$' /proc/self/status || exit 11"},
                     &*sandbox),
            0);
}

// A link in the job's output folder could point the runner, which reads what ffmpeg leaves
// there, at a file outside the box; the admin's folders (a driver's state) may hold links.
TEST(FfmpegSandbox, FfmpegMakesLinksInTheAdminsFoldersButNotInTheJobsOutputFolder) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  const fs::path admin = job.root.path() / "driver-state";
  fs::create_directories(admin);
  Result<Sandbox> sandbox = Sandbox::Make(
      JobSandboxPaths(job.Command(), {.ffmpeg = "/bin/sh", .extra_paths = admin.string()}));
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  const fs::path in_output = job.output.parent_path() / "link";
  EXPECT_EQ(RunBoxed({"/bin/sh", "-c",
                      "ln -s /dev/dri/renderD128 '" + (admin / "3").string() + "' || exit 10; " +
                          "echo x > '" + (admin / "file").string() + "' || exit 11; " + "ln -s '" +
                          job.registration.string() + "' '" + in_output.string() +
                          "' && exit 12; exit 0"},
                     &*sandbox),
            0);
  EXPECT_EQ(fs::read_symlink(admin / "3"), "/dev/dri/renderD128");
  EXPECT_FALSE(fs::is_symlink(in_output));
}

TEST(FfmpegSandbox, AnInputThatIsAUrlOrAPipeOpensNoFolder) {
  Result<RunnerCommand> command =
      ParseRunnerCommand({"-i", "http://127.0.0.1:9000/api/v1/runners/jobs/x/files/video", "-i",
                          "pipe:0", "-f", "null", "-"});
  ASSERT_TRUE(command) << command.error_message();
  const SandboxPaths paths = JobSandboxPaths(*command, {});
  EXPECT_TRUE(paths.read.empty());
  EXPECT_TRUE(paths.write_files.empty());
}

// The runner's own forms, from its recorded command lines (tests/worker/transcode/recorded):
// the web video with faststart, which reads its output back; HLS in one fMP4 file with its
// playlist; and an audio upload shown over its picture. Each runs in Debian's ffmpeg in the
// box, beside another job's files in the same folder.
TEST(FfmpegSandbox, EachOfTheRunnersFormsRunsInTheBoxWithDebiansFfmpeg) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  mc::testing::TempDir root;
  const fs::path folder = root.path() / "transcoding";
  fs::create_directories(folder);
  const std::string video = (folder / "06004ef7-upload").string();
  const std::string picture = (folder / "814d1228-preview").string();
  const std::string audio = (folder / "c8cdf29c-audio").string();
  Write(folder / "output-other.mp4", "another job's\n");
  for (const std::vector<std::string>& make :
       {std::vector<std::string>{"-f", "lavfi", "-i", "testsrc=size=128x72:rate=30", "-f", "lavfi",
                                 "-i", "sine", "-t", "1", "-c:v", "libx264", "-f", "mp4", video},
        std::vector<std::string>{"-f", "lavfi", "-i", "testsrc=size=64x64", "-frames:v", "1",
                                 "-c:v", "mjpeg", "-f", "image2", picture},
        std::vector<std::string>{"-f", "lavfi", "-i", "sine", "-t", "1", "-f", "wav", audio}}) {
    std::vector<std::string> argv = {"/usr/bin/ffmpeg", "-hide_banner", "-v", "error", "-y"};
    argv.insert(argv.end(), make.begin(), make.end());
    ASSERT_EQ(RunBoxed(argv, nullptr), 0) << make.back();
  }
  const std::string hls = (folder / "fefc989a-720").string();
  const std::vector<std::pair<std::string, std::vector<std::string>>> forms = {
      {"web video",
       {"-i", video, "-y", "-acodec", "copy", "-vcodec", "libx264", "-f", "mp4", "-movflags",
        "faststart", "-vf", "scale=w=-2:h=72", "-preset", "veryfast", "-r", "30",
        (folder / "output-9e1adb79.mp4").string()}},
      {"hls",
       {"-i",
        video,
        "-y",
        "-acodec",
        "aac",
        "-vcodec",
        "libx264",
        "-preset",
        "veryfast",
        "-hls_time",
        "4",
        "-hls_list_size",
        "0",
        "-hls_playlist_type",
        "vod",
        "-hls_segment_filename",
        hls + "-fragmented.mp4",
        "-hls_segment_type",
        "fmp4",
        "-f",
        "hls",
        "-hls_flags",
        "single_file",
        hls + ".m3u8"}},
      {"audio", {"-loop",      "1",         "-i",
                 picture,      "-i",        audio,
                 "-y",         "-acodec",   "aac",
                 "-vcodec",    "libx264",   "-f",
                 "mp4",        "-movflags", "faststart",
                 "-preset",    "veryfast",  "-tune",
                 "stillimage", "-shortest", (folder / "output-c4a283c2.mp4").string()}}};
  for (const auto& [name, args] : forms) {
    Result<RunnerCommand> command = ParseRunnerCommand(args);
    ASSERT_TRUE(command) << name << ": " << command.error_message();
    const SandboxPaths paths = JobSandboxPaths(*command, {.ffmpeg = "/usr/bin/ffmpeg"});
    ASSERT_TRUE(MakeOutputFiles(*command, paths)) << name;
    Result<Sandbox> sandbox = Sandbox::Make(paths);
    ASSERT_TRUE(sandbox) << sandbox.error_message();
    std::vector<std::string> argv = {"/usr/bin/ffmpeg", "-hide_banner", "-nostdin", "-v", "error"};
    const std::vector<std::string> boxed = WithFileInputs(args);
    argv.insert(argv.end(), boxed.begin(), boxed.end());
    EXPECT_EQ(RunBoxed(argv, &*sandbox), 0) << name;
    for (const std::string& output : paths.write_files)
      EXPECT_GT(fs::file_size(output), 0u) << name << ": " << output;
  }
  EXPECT_NE(ReadAll(hls + ".m3u8").find("#EXT-X-MAP:URI="), std::string::npos);
}

TEST(FfmpegSandbox, ADemuxerPeerTubeDoesNotTakeIsRefusedInWords) {
  EXPECT_TRUE(CheckDemuxer("mov,mp4,m4a,3gp,3g2,mj2"));
  EXPECT_TRUE(CheckDemuxer("matroska,webm"));
  EXPECT_TRUE(CheckDemuxer("jpeg_pipe"));
  const Result<void> playlist = CheckDemuxer("hls");
  ASSERT_FALSE(playlist);
  EXPECT_NE(playlist.error_message().find("its container is hls, which PeerTube does not take"),
            std::string::npos)
      << playlist.error_message();
  EXPECT_FALSE(CheckDemuxer(""));
}

// The real binary as the runner's ffprobe, and a fake ffprobe, one an upload took over:
// it reads the upload it was given and none of the worker's secrets.
TEST(FfmpegSandbox, TheRunnersFfprobeReadsItsUploadAndNoFileOfTheStateDirectory) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  const fs::path bin = job.root.path() / "bin";
  fs::create_directories(bin);
  fs::create_symlink(MEDIA_CAP_BINARY, bin / "ffprobe");
  const fs::path taken = Write(job.root.path() / "taken/ffprobe",
                               "#!/bin/sh\nfor last; do :; done\n"
                               "cat \"$last\" > /dev/null || exit 10\n"
                               "cat '" +
                                   job.registration.string() + "' && exit 11\nexit 0\n");
  fs::permissions(taken, fs::perms::owner_all);
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {(bin / "ffprobe").string(), "-show_streams", "-show_format", job.input.string()},
      {"PT_WORKER_FFPROBE=" + taken.string()});
  EXPECT_EQ(run.code, 0) << run.out << run.err;
  EXPECT_EQ(run.out.find("ptrt-secret"), std::string::npos) << run.out;
}

// A playlist is the classic way to make a demuxer open other files: the runner's ffprobe,
// through the binary, refuses it where Debian's ffprobe alone reads it.
TEST(FfmpegSandbox, TheRunnersFfprobeRefusesAPlaylist) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  const fs::path bin = job.root.path() / "bin";
  fs::create_directories(bin);
  fs::create_symlink(MEDIA_CAP_BINARY, bin / "ffprobe");
  const fs::path playlist =
      Write(job.transcoding / "3b2e105879e3", "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n" +
                                                  job.registration.string() + "\n#EXT-X-ENDLIST\n");
  const std::vector<std::string> args = {"-v", "error", "-show_format", playlist.string()};
  std::vector<std::string> direct = {"/usr/bin/ffprobe"};
  direct.insert(direct.end(), args.begin(), args.end());
  const probe::ChildOutcome alone = mc::testing::RunCommand(direct);
  EXPECT_NE(alone.err.find("[hls @"), std::string::npos) << alone.err;
  std::vector<std::string> wrapped = {(bin / "ffprobe").string()};
  wrapped.insert(wrapped.end(), args.begin(), args.end());
  const probe::ChildOutcome run = mc::testing::RunCommand(wrapped);
  EXPECT_NE(run.code, 0) << run.out;
  EXPECT_NE(run.err.find("not on whitelist"), std::string::npos) << run.err;
}

TEST(FfmpegCapture, AChildPastItsDeadlineIsKilledAndNamed) {
  const auto started = std::chrono::steady_clock::now();
  const Result<std::string> out =
      CaptureOutput({"/bin/sh", "-c", "sleep 30"}, {.deadline = std::chrono::milliseconds(300)});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error_message().find("ran past its deadline of 300 ms and was killed"),
            std::string::npos)
      << out.error_message();
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
}

TEST(FfmpegCapture, AChildThatClosesItsOutputButRunsOnIsKilledAtTheDeadline) {
  const Result<std::string> out = CaptureOutput({"/bin/sh", "-c", "exec >&-; sleep 30"},
                                                {.deadline = std::chrono::milliseconds(300)});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error_message().find("deadline"), std::string::npos) << out.error_message();
}

TEST(FfmpegCapture, AChildThatWritesPastTheCapIsKilled) {
  const Result<std::string> out = CaptureOutput({"/usr/bin/yes"}, {.max_output = 1 << 16});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error_message().find("wrote more than 65536 bytes and was killed"),
            std::string::npos)
      << out.error_message();
  EXPECT_EQ(*CaptureOutput({"/bin/echo", "probed"}, {}), "probed\n");
}

// A boxed capture reads what its box grants and nothing else.
TEST(FfmpegCapture, ABoxedChildReadsItsInputAndNoSecret) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "this kernel has no Landlock";
  JobLayout job;
  Result<Sandbox> sandbox =
      Sandbox::Make(ProbeSandboxPaths({"-show_format", job.input.string()}, {}));
  ASSERT_TRUE(sandbox) << sandbox.error_message();
  EXPECT_EQ(*CaptureOutput({"/bin/cat", job.input.string()}, {.sandbox = &*sandbox}),
            "the upload\n");
  EXPECT_FALSE(CaptureOutput({"/bin/cat", job.registration.string()}, {.sandbox = &*sandbox}));
}

// The cheap end of `worker run`: it checks the box before it probes, tests or registers.
TEST(WorkerRun, OnAKernelWithoutLandlockItRefusesToStartWhereTheSettingsRequireTheBox) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run =
      mc::testing::RunCommand({WITHOUT_LANDLOCK, MEDIA_CAP_BINARY, "worker", "run", "--allow-root",
                               "--gpu", "0", "--state-dir", (dir.path() / "state").string(),
                               "--work-dir", (dir.path() / "work").string()},
                              {"PT_WORKER_REQUIRE_SANDBOX=1"});
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_NE(run.err.find("worker run: refused: the kernel has no Landlock, and "
                         "PT_WORKER_REQUIRE_SANDBOX asks for ffmpeg's sandbox"),
            std::string::npos)
      << run.err;
}

// Whoever starts it, the state directory is the user's alone, a new one and one made before.
TEST(WorkerRun, TheStateDirectoryIsMadePrivateWhateverItsModeWas) {
  mc::testing::TempDir dir;
  const fs::path made = dir.path() / "made";
  fs::create_directories(made);
  fs::permissions(made, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
  for (const fs::path& state : {made, dir.path() / "new"}) {
    const probe::ChildOutcome run = mc::testing::RunCommand(
        {WITHOUT_LANDLOCK, MEDIA_CAP_BINARY, "worker", "run", "--allow-root", "--gpu", "0",
         "--state-dir", state.string(), "--work-dir", (dir.path() / "work").string()},
        {"PT_WORKER_REQUIRE_SANDBOX=1"});
    EXPECT_EQ(run.code, 2) << run.err;
    EXPECT_EQ(fs::status(state).permissions() & fs::perms::all, fs::perms::owner_all) << state;
  }
}

}  // namespace
}  // namespace mc::worker
