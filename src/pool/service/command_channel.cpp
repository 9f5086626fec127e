#include "pool/service/command_channel.h"

#include <cerrno>
#include <thread>

#include "common/base/text.h"
#include "pool/service/command_runner.h"

namespace mc::pool {
namespace {

using Clock = std::chrono::steady_clock;

std::string SecondsText(std::chrono::milliseconds wall) {
  const long long tenths = (wall.count() + 50) / 100;
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " s";
}

// LastLine is the last line of output with something on it: where a failing command says
// why.
std::string LastLine(const std::string& output) {
  std::size_t end = output.size();
  while (end > 0) {
    const std::size_t start = output.rfind('\n', end - 1);
    const std::size_t begin = start == std::string::npos ? 0 : start + 1;
    std::string line = PrintableLine(std::string_view(output).substr(begin, end - begin));
    if (line.find_first_not_of(' ') != std::string::npos) return line;
    if (start == std::string::npos) break;
    end = start;
  }
  return "";
}

ErrorCode CodeOf(const CommandOutcome& outcome) {
  switch (outcome.kind) {
    case CommandOutcome::Kind::kExited:
    case CommandOutcome::Kind::kSignalled:
      // The box or its service could not do it now; the next cycle may try again.
      return ErrorCode::kUnavailable;
    case CommandOutcome::Kind::kTimedOut:
      return ErrorCode::kDeadlineExceeded;
    case CommandOutcome::Kind::kNotStarted:
      if (outcome.code == ENOENT) return ErrorCode::kNotFound;
      if (outcome.code == EACCES) return ErrorCode::kPermissionDenied;
      return ErrorCode::kInternal;
  }
  return ErrorCode::kInternal;
}

}  // namespace

std::vector<std::string> CommandArgv(const std::vector<std::string>& command,
                                     const WorkerEndpoint& worker) {
  constexpr std::string_view kName = "{name}";
  std::vector<std::string> argv;
  for (std::string argument : command) {
    for (std::size_t at = argument.find(kName); at != std::string::npos;
         at = argument.find(kName, at + worker.name.size()))
      argument.replace(at, kName.size(), worker.name);
    argv.push_back(std::move(argument));
  }
  return argv;
}

std::string CommandText(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& argument : argv) {
    if (!text.empty()) text += ' ';
    const bool plain =
        !argument.empty() && argument.find_first_of(" \t\n'\"\\$`;&|<>*?") == std::string::npos;
    if (plain) {
      text += argument;
      continue;
    }
    text += '\'';
    for (char c : argument) text += c == '\'' ? std::string("'\\''") : std::string(1, c);
    text += '\'';
  }
  return text;
}

CommandChannel::CommandChannel(CommandChannelOptions options)
    : options_(std::move(options)), api_(options_.api) {}

Result<void> CommandChannel::Run(const std::vector<std::string>& command, const std::string& what,
                                 const WorkerEndpoint& worker) {
  const std::string prefix = worker.name + ": " + what + ": ";
  if (command.empty())
    return Unsupported(prefix + "no command is configured for it (bare-metal commands)");
  const CommandSpec spec{.argv = CommandArgv(command, worker),
                         .environment = {{kWorkerNameVariable, worker.name}},
                         .deadline = worker.commands.deadline,
                         .max_output = options_.max_output};
  const std::string program = spec.argv[0];
  options_.log(prefix + "run: " + PrintableLine(CommandText(spec.argv)));
  const CommandOutcome outcome = RunCommand(spec);

  if (outcome.truncated)
    options_.log(prefix + program + ": (earlier output dropped; its last " +
                 std::to_string(outcome.output.size()) + " bytes follow)");
  std::string_view rest = outcome.output;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    const std::string line = PrintableLine(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    if (line.find_first_not_of(' ') != std::string::npos)
      options_.log(prefix + program + ": " + line);
  }
  const std::string how = DescribeOutcome(outcome, spec);
  options_.log(prefix + program + " " + how + " after " + SecondsText(outcome.wall));
  if (outcome.Succeeded()) return Ok();
  const std::string last = LastLine(outcome.output);
  return Error{prefix + program + " " + how + (last.empty() ? "" : ": " + last), CodeOf(outcome)};
}

Result<void> CommandChannel::WaitUntilAnswering(const WorkerEndpoint& worker) {
  const Clock::time_point deadline = Clock::now() + worker.commands.deadline;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    Result<void> answered = api_.Answers(
        worker,
        std::max(std::chrono::milliseconds(1), std::min(left, options_.api.request_deadline)));
    if (answered) return Ok();
    if (Clock::now() + options_.start_poll >= deadline)
      return DeadlineExceeded(worker.name + ": enable: the service was started, but its status " +
                              "did not answer within " +
                              std::to_string(worker.commands.deadline.count()) +
                              " s: " + answered.error_message());
    std::this_thread::sleep_for(options_.start_poll);
  }
}

Result<void> CommandChannel::Enable(const pool::Action& action, const WorkerEndpoint& worker) {
  Result<void> enabled = api_.Apply(action, worker);
  // Only a refused connection says the box is up and its service is not.
  // A timeout may be a box asleep or out of reach.
  // An answer of any status is a service that runs.
  if (enabled || !enabled.error().IsUnavailable() || worker.commands.start.empty()) return enabled;
  const Result<void> answers = api_.Answers(worker, options_.api.request_deadline);
  if (answers || !answers.error().IsUnavailable()) return enabled;
  options_.log(worker.name + ": enable: the worker's service does not answer (" +
               answers.error_message() + "); starting it");
  if (Result<void> started = Run(worker.commands.start, "enable: start", worker); !started)
    return started;
  if (Result<void> up = WaitUntilAnswering(worker); !up) return up;
  return api_.Apply(action, worker);
}

Result<void> CommandChannel::Apply(const pool::Action& action, const WorkerEndpoint& worker) {
  switch (action.kind) {
    case pool::ActionKind::kWake:
      return Run(worker.commands.wake, "wake", worker);
    case pool::ActionKind::kSuspend:
      return Run(worker.commands.suspend, "suspend", worker);
    case pool::ActionKind::kEnable:
      return Enable(action, worker);
    case pool::ActionKind::kDrain:
    case pool::ActionKind::kSetClasses:
    case pool::ActionKind::kProbe:
      return api_.Apply(action, worker);
  }
  return Internal(worker.name + ": an action kind the channel does not know");
}

Result<void> CommandChannel::Stop(const WorkerEndpoint& worker) {
  return Run(worker.commands.stop, "stop", worker);
}

std::string CommandChannel::Describe(const pool::Action& action,
                                     const WorkerEndpoint& worker) const {
  auto run = [&](const std::vector<std::string>& command, std::string_view what) {
    if (command.empty())
      return "nothing: no " + std::string(what) + " command is configured for " + worker.name;
    return "run: " + CommandText(CommandArgv(command, worker));
  };
  switch (action.kind) {
    case pool::ActionKind::kWake:
      return run(worker.commands.wake, "wake");
    case pool::ActionKind::kSuspend:
      return run(worker.commands.suspend, "suspend");
    case pool::ActionKind::kEnable: {
      std::string text = api_.Describe(action, worker);
      if (!worker.commands.start.empty())
        text += " (first " + run(worker.commands.start, "start") +
                ", if the service refuses the connection)";
      return text;
    }
    case pool::ActionKind::kDrain:
    case pool::ActionKind::kSetClasses:
    case pool::ActionKind::kProbe:
      return api_.Describe(action, worker);
  }
  return "nothing: an action kind the channel does not know";
}

}  // namespace mc::pool
