#include "worker/daemon/job_ffmpeg.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <sstream>

#include "worker/daemon/ffmpeg_log.h"

namespace mc::worker {
namespace {

using Clock = std::chrono::steady_clock;

// The signals the runner may send the wrapper, which ffmpeg must receive.
constexpr std::array<int, 6> kForwarded{{SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}};

// Samples come four times a second for the first seconds, then once a second. So a rendition that
// takes under a second is still seen at work.
std::chrono::milliseconds SampleInterval(Clock::duration elapsed,
                                         std::chrono::milliseconds steady) {
  return elapsed < std::chrono::seconds(4) ? std::min(steady, std::chrono::milliseconds(250))
                                           : steady;
}

int ExitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// The forked child. It dies with the wrapper, whatever kills the wrapper. It becomes ffmpeg, with
// its stderr on the pipe `stderr_fd`.
[[noreturn]] void ExecFfmpeg(const std::vector<std::string>& argv, int stderr_fd,
                             const sigset_t& previous, pid_t wrapper, const Sandbox* sandbox) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != wrapper) _exit(137);
  sigprocmask(SIG_SETMASK, &previous, nullptr);
  dup2(stderr_fd, STDERR_FILENO);
  if (sandbox && !sandbox->Enter()) {
    const std::string line = "media-capabilities ffmpeg: the sandbox could not be entered: " +
                             std::string(std::strerror(errno)) + "\n";
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, line.data(), line.size());
    _exit(126);
  }
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  const std::string line =
      "media-capabilities ffmpeg: cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
  [[maybe_unused]] ssize_t n = write(STDERR_FILENO, line.data(), line.size());
  _exit(127);
}

// Writes `text` to our stderr, the runner's pipe.
void WriteAll(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = write(STDERR_FILENO, text.data(), text.size());
    if (n <= 0) break;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

// Copies ffmpeg's stderr to ours, read by `log`. False once the pipe is closed.
bool PassStderr(int from, FfmpegLog& log) {
  char buffer[8192];
  const ssize_t got = read(from, buffer, sizeof buffer);
  if (got <= 0) return false;
  WriteAll(log.Read(std::string_view(buffer, static_cast<std::size_t>(got))));
  return true;
}

// Passes the runner's signals on to ffmpeg. Kills ffmpeg once the runner is gone.
void ForwardSignals(int signals, pid_t pid, pid_t parent_pid, bool exited, JobFfmpegRun& run) {
  signalfd_siginfo info{};
  while (read(signals, &info, sizeof info) == sizeof info) {
    if (info.ssi_signo == SIGCHLD) continue;
    if (getppid() != parent_pid) {
      run.runner_died = true;
      kill(pid, SIGKILL);
    } else if (!exited) {
      kill(pid, static_cast<int>(info.ssi_signo));
    }
  }
}

}  // namespace

std::chrono::seconds JobDeadline(double media_seconds) {
  constexpr double kFloorSeconds = 300;
  constexpr double kTimesRealtime = 10;
  // A year bounds what a stated duration can add. So the sum holds in any clock.
  const double media = std::isfinite(media_seconds) ? std::clamp(media_seconds, 0.0, 3.2e7) : 0;
  return std::chrono::seconds(static_cast<std::int64_t>(kFloorSeconds + kTimesRealtime * media));
}

std::string StatedTimingProblem(std::int64_t frames, double duration_seconds, double output_fps) {
  constexpr double kLongestGapSeconds = 600;
  constexpr double kShortestJudged = 3600;
  if (frames <= 0 || !std::isfinite(duration_seconds) || duration_seconds <= kShortestJudged)
    return "";
  if (static_cast<double>(frames) * kLongestGapSeconds >= duration_seconds) return "";
  std::ostringstream words;
  words.precision(12);
  words << "the input states " << frames << " video frames over " << duration_seconds
        << " s, fewer than one frame per " << kLongestGapSeconds << " s";
  if (output_fps > 0)
    words << ", which at " << output_fps << " frames a second would make ffmpeg write "
          << static_cast<std::int64_t>(std::min(duration_seconds * output_fps, 9.0e18))
          << " frames";
  words << ": its timestamps hold a gap no camera or editor writes; re-encode it with a steady "
           "frame rate and upload it again";
  return words.str();
}

JobFfmpegRun RunJobFfmpeg(const JobFfmpegOptions& options) {
  JobFfmpegRun run;
  if (options.argv.empty()) return run;
  sigset_t watched;
  sigemptyset(&watched);
  for (const int signal : kForwarded) sigaddset(&watched, signal);
  sigaddset(&watched, SIGCHLD);
  sigset_t previous;
  sigprocmask(SIG_BLOCK, &watched, &previous);
  const int signals = signalfd(-1, &watched, SFD_CLOEXEC | SFD_NONBLOCK);
  int err[2] = {-1, -1};
  if (signals < 0 || pipe2(err, O_CLOEXEC) != 0) {
    const std::string line = std::string("media-capabilities ffmpeg: cannot watch ffmpeg: ") +
                             std::strerror(errno) + "\n";
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, line.data(), line.size());
    return run;
  }
  const pid_t wrapper = getpid();
  const Clock::time_point started = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) ExecFfmpeg(options.argv, err[1], previous, wrapper, options.sandbox);
  close(err[1]);
  if (pid < 0) {
    close(err[0]);
    close(signals);
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    return run;
  }

  EvidenceSampler sampler(options.sampler);
  sampler.Sample(pid);
  Clock::time_point next_sample = Clock::now() + SampleInterval({}, options.sampler.interval);
  FfmpegLog log(options.hardware_components);
  const Clock::time_point deadline =
      options.deadline ? started + *options.deadline : Clock::time_point::max();
  bool stderr_open = true;
  bool exited = false;
  int status = 0;
  while (!exited || stderr_open) {
    pollfd fds[2] = {{.fd = signals, .events = POLLIN, .revents = 0},
                     {.fd = stderr_open ? err[0] : -1, .events = POLLIN, .revents = 0}};
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next_sample - Clock::now());
    const int timeout = exited ? 1000 : static_cast<int>(std::max<std::int64_t>(0, wait.count()));
    const int ready = poll(fds, 2, timeout);
    if (ready < 0 && errno != EINTR) break;
    if (exited && ready == 0) break;  // ffmpeg is gone and a child of its holds the pipe
    if (fds[1].revents) stderr_open = PassStderr(err[0], log);
    if (fds[0].revents) ForwardSignals(signals, pid, options.parent_pid, exited, run);
    if (!exited) {
      siginfo_t child{};
      if (waitid(P_PID, pid, &child, WEXITED | WNOHANG | WNOWAIT) == 0 && child.si_pid == pid) {
        // The last look before it is reaped. Its final CPU times are still in its stat.
        sampler.Sample(pid);
        sampler.SampleCpu(pid);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        exited = true;
        continue;
      }
      if (getppid() != options.parent_pid && !run.runner_died) {
        run.runner_died = true;
        kill(pid, SIGKILL);
      }
      if (Clock::now() >= deadline && !run.deadline_passed) {
        run.deadline_passed = true;
        kill(pid, SIGKILL);
      }
      if (Clock::now() >= next_sample) {
        sampler.Sample(pid);
        next_sample =
            Clock::now() + SampleInterval(Clock::now() - started, options.sampler.interval);
      }
    }
  }
  if (!exited) {
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  WriteAll(log.Finish());
  close(err[0]);
  close(signals);
  sigprocmask(SIG_SETMASK, &previous, nullptr);
  run.exit_code = ExitCodeOf(status);
  // Only a GPU failure that failed the run counts. A mark in a run that ended well was recovered
  // from. A decoder that fell back to the CPU shows in the evidence instead.
  if (run.exit_code != 0) run.gpu_failure = log.gpu_failure();
  run.processed_seconds = log.processed_seconds();
  run.processed_frames = log.processed_frames();
  run.record = sampler.Record();
  run.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return run;
}

}  // namespace mc::worker
