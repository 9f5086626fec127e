#include "worker/daemon/job_ffmpeg.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>

namespace mc::worker {
namespace {

using Clock = std::chrono::steady_clock;

// What ffmpeg prints when the GPU, its driver or its session cap fails it. Each is the start
// of a failure of the hardware path, never of the input or the muxer.
constexpr std::array<std::string_view, 14> kGpuFailureMarks{{
    "OpenEncodeSessionEx failed",
    "EncodePicture failed",
    "No capable devices found",
    "NV_ENC_ERR",
    "CUDA_ERROR_",
    "cuCtxCreate",
    "cuvidCreateDecoder failed",
    "Failed setup for format cuda",
    "Failed setup for format vaapi",
    "device does not exist",
    "Failed to initialise VAAPI",
    "Failed to create a VAAPI",
    "vaCreateContext",
    "Device creation failed",
}};

// The signals the runner may send the wrapper and that ffmpeg must receive.
constexpr std::array<int, 6> kForwarded{{SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}};

// Samples come four times a second for the first seconds, so that a rendition that takes
// under a second is still seen at work, then once a second.
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

// The forked child: it dies with the wrapper, whatever kills the wrapper, and becomes
// ffmpeg with its stderr on the pipe `stderr_fd`.
[[noreturn]] void ExecFfmpeg(const std::vector<std::string>& argv, int stderr_fd,
                             const sigset_t& previous, pid_t wrapper) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != wrapper) _exit(137);
  sigprocmask(SIG_SETMASK, &previous, nullptr);
  dup2(stderr_fd, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  const std::string line =
      "media-capabilities ffmpeg: cannot run " + argv[0] + ": " + std::strerror(errno) + "\n";
  [[maybe_unused]] ssize_t n = write(STDERR_FILENO, line.data(), line.size());
  _exit(127);
}

// Copies what ffmpeg wrote on its stderr to ours, and looks in its whole lines for the
// first GPU failure; `tail` keeps the line not yet ended. False once the pipe is closed.
bool PassStderr(int from, std::string& tail, JobFfmpegRun& run) {
  char buffer[8192];
  const ssize_t got = read(from, buffer, sizeof buffer);
  if (got <= 0) return false;
  std::size_t written = 0;
  while (written < static_cast<std::size_t>(got)) {
    const ssize_t n = write(STDERR_FILENO, buffer + written, got - written);
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  if (!run.gpu_failure) {
    tail.append(buffer, static_cast<std::size_t>(got));
    const std::size_t last_break = tail.find_last_of("\r\n");
    if (last_break != std::string::npos) {
      run.gpu_failure = GpuFailureIn(std::string_view(tail).substr(0, last_break));
      tail.erase(0, last_break + 1);
    }
    if (tail.size() > 65536) tail.clear();
  }
  return true;
}

// Passes the signals the runner sent on to ffmpeg; kills ffmpeg once the runner is gone.
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

std::optional<std::string> GpuFailureIn(std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    for (const std::string_view mark : kGpuFailureMarks) {
      if (line.find(mark) != std::string_view::npos) return std::string(line);
    }
    start = end + 1;
  }
  return std::nullopt;
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
  if (pid == 0) ExecFfmpeg(options.argv, err[1], previous, wrapper);
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
  std::string tail;  // the stderr line being read, for the failure marks
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
    if (fds[1].revents) stderr_open = PassStderr(err[0], tail, run);
    if (fds[0].revents) ForwardSignals(signals, pid, options.parent_pid, exited, run);
    if (!exited) {
      siginfo_t child{};
      if (waitid(P_PID, pid, &child, WEXITED | WNOHANG | WNOWAIT) == 0 && child.si_pid == pid) {
        // The last look before it is reaped: its final CPU times are still in its stat.
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
  if (!run.gpu_failure && !tail.empty()) run.gpu_failure = GpuFailureIn(tail);
  close(err[0]);
  close(signals);
  sigprocmask(SIG_SETMASK, &previous, nullptr);
  run.exit_code = ExitCodeOf(status);
  run.record = sampler.Record();
  run.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return run;
}

}  // namespace mc::worker
