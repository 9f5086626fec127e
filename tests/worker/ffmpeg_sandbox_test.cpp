// ffmpeg's box: a shell standing in for ffmpeg, run as the wrapper runs ffmpeg, reads the
// job's input and writes its output folder, and opens none of the worker's secrets; and `worker
// run` on a kernel without Landlock, which refuses to start where the settings require the box.
#include "worker/daemon/ffmpeg_sandbox.h"

#include <gtest/gtest.h>

#include <fstream>

#include "support/run_command.h"
#include "support/temp_dir.h"
#include "worker/daemon/job_ffmpeg.h"
#include "worker/probe_contract/landlock.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;

void Write(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

// A job as the runner lays it out, and the secrets a worker keeps beside it.
struct JobLayout {
  JobLayout() {
    Write(input, "the upload\n");
    fs::create_directories(output.parent_path());
    Write(registration, "{\"runnerToken\": \"ptrt-secret\"}\n");
    Write(runner_config, "[[registeredInstances]]\nrunnerToken = \"ptrt-secret\"\n");
    Write(registration_token, "ptrrt-secret\n");
  }
  RunnerCommand Command() const {
    Result<RunnerCommand> command =
        ParseRunnerCommand({"-i", input.string(), "-c:v", "libx264", output.string()});
    EXPECT_TRUE(command) << command.error();
    return command ? *command : RunnerCommand{};
  }
  // The stand-in: each step's failure is its own exit status, so the test names which.
  std::vector<std::string> Script() const {
    const fs::path copy = output.parent_path() / "copy";
    return {"/bin/sh", "-c",
            "cat '" + input.string() + "' > '" + copy.string() + "' || exit 10; " + "cat '" +
                registration.string() + "' && exit 11; " + "cat '" + runner_config.string() +
                "' && exit 12; " + "cat '" + registration_token.string() + "' && exit 13; " +
                "ls '" + registration.parent_path().string() + "' && exit 14; " + "echo x > '" +
                (registration.parent_path() / "planted").string() + "' && exit 15; " + "exit 0"};
  }
  mc::testing::TempDir root;
  fs::path input = root.path() / "cache/transcoding/job-1/input.mp4";
  fs::path output = root.path() / "cache/transcoding/job-1/output/out.mp4";
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
  Result<Sandbox> sandbox = Sandbox::Make(JobSandboxPaths(job.Command(), {.ffmpeg = "/bin/sh"}));
  ASSERT_TRUE(sandbox) << sandbox.error();
  EXPECT_EQ(RunBoxed(job.Script(), &*sandbox), 0);
  std::ifstream copy(job.output.parent_path() / "copy");
  std::string text;
  std::getline(copy, text);
  EXPECT_EQ(text, "the upload");
  EXPECT_FALSE(fs::exists(job.registration.parent_path() / "planted"));
}

TEST(FfmpegSandbox, WithoutItsBoxTheSameFfmpegReadsTheWorkersSecrets) {
  JobLayout job;
  EXPECT_EQ(RunBoxed(job.Script(), nullptr), 11);
}

TEST(FfmpegSandbox, TheBoxHoldsTheInputsAndOutputsFoldersTheProgramsAndTheEnvironments) {
  JobLayout job;
  const SandboxPaths paths =
      JobSandboxPaths(job.Command(), {.ffmpeg = "/opt/ffmpeg/bin/ffmpeg",
                                      .library_path = "/machine/lib::/usr/local/lib",
                                      .va_drivers_path = "/machine/dri",
                                      .extra_paths = "/var/cache/nv"});
  EXPECT_EQ(paths.read,
            (std::vector<std::string>{job.input.parent_path().string(), "/opt/ffmpeg/bin",
                                      "/machine/lib", "/usr/local/lib", "/machine/dri"}));
  EXPECT_EQ(paths.read_write, (std::vector<std::string>{job.output.parent_path().string()}));
  EXPECT_EQ(paths.admin, (std::vector<std::string>{"/var/cache/nv"}));
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
  ASSERT_TRUE(sandbox) << sandbox.error();
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
  ASSERT_TRUE(command) << command.error();
  const SandboxPaths paths = JobSandboxPaths(*command, {});
  EXPECT_TRUE(paths.read.empty());
  EXPECT_TRUE(paths.read_write.empty());
}

// The cheap end of `worker run`: it checks the box before it probes, tests or registers.
TEST(WorkerRun, OnAKernelWithoutLandlockItRefusesToStartWhereTheSettingsRequireTheBox) {
  mc::testing::TempDir dir;
  const probe::ChildOutcome run = mc::testing::RunCommand(
      {WITHOUT_LANDLOCK, MEDIA_CAP_BINARY, "worker", "run", "--gpu", "0", "--state-dir",
       (dir.path() / "state").string(), "--work-dir", (dir.path() / "work").string()},
      {"PT_WORKER_REQUIRE_SANDBOX=1"});
  EXPECT_EQ(run.code, 2) << run.err;
  EXPECT_NE(run.err.find("worker run: refused: the kernel has no Landlock, and "
                         "PT_WORKER_REQUIRE_SANDBOX asks for ffmpeg's sandbox"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace mc::worker
