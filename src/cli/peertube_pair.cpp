#include "cli/peertube_pair.h"

#include <chrono>
#include <cstring>

#include "cli/daemon_support.h"
#include "common/base/text.h"
#include "common/http/client.h"
#include "common/http/url.h"
#include "probe/query/child_process.h"

namespace mc {
namespace {

constexpr std::chrono::seconds kDeadline{10};

// What to do when the runner is not there: the version every end-to-end test runs.
constexpr const char* kInstallRunner =
    "install the official runner with `npm install -g @peertube/peertube-runner@0.1.3` (it needs "
    "Node.js and npm: docs/worker/nvidia-box.md), or give its command with --runner";

Result<peertube::Version> ServerVersion(const std::string& base) {
  Result<std::string> body = http::GetOk(http::UnderBase(base, "/api/v1/config"), kDeadline);
  if (!body) return body.error();
  return peertube::ParseServerVersion(*body);
}

Result<peertube::Version> RunnerVersion(std::vector<std::string> command, bool& runs) {
  runs = false;
  if (command.empty()) return InvalidInput("no runner command");
  command[0] = ResolveProgram(command[0]);
  command.push_back("--version");
  const probe::ChildOutcome outcome = probe::RunChildren({command}, kDeadline)[0];
  const std::string words = Joined(command, " ");
  runs = outcome.kind == probe::ChildOutcome::Kind::kTimedOut ||
         (outcome.kind == probe::ChildOutcome::Kind::kExited && outcome.code == 0);
  switch (outcome.kind) {
    case probe::ChildOutcome::Kind::kNotStarted:
      return NotFound(words + " did not start: " + std::strerror(outcome.code) + "; " +
                      kInstallRunner);
    case probe::ChildOutcome::Kind::kTimedOut:
      return Unavailable(words + " did not answer within 10 s");
    case probe::ChildOutcome::Kind::kSignalled:
      return Unavailable(words + " was killed by signal " + std::to_string(outcome.code));
    case probe::ChildOutcome::Kind::kExited:
      break;
  }
  if (outcome.code != 0) {
    return InvalidInput(words + " exited " + std::to_string(outcome.code) + ": " +
                        Excerpt(Trim(outcome.err), 200));
  }
  return peertube::ParseRunnerVersion(outcome.out);
}

}  // namespace

worker::PeerTubeVersions PeerTubePair::ForStatus() const {
  return {.server = server ? server->text : "",
          .runner = runner ? runner->text : "",
          .support = std::string(peertube::SupportName(verdict.support)),
          .advice = verdict.advice};
}

std::string PeerTubePair::Text(const std::string& server_url,
                               const std::string& runner_command) const {
  return "PeerTube server: " + (server ? server->text : "unknown (" + server_error + ")") + " at " +
         server_url +
         "\nofficial runner: " + (runner ? runner->text : "unknown (" + runner_error + ")") + " (" +
         runner_command + ")\nthe pair: " + std::string(peertube::SupportName(verdict.support)) +
         ": " + verdict.advice + "\n";
}

PeerTubePair ReadPeerTubePair(const std::string& server_url,
                              const std::vector<std::string>& runner_command) {
  PeerTubePair pair;
  if (Result<peertube::Version> server = ServerVersion(server_url)) {
    pair.server = *server;
  } else {
    pair.server_error = server.error_message();
  }
  if (Result<peertube::Version> runner = RunnerVersion(runner_command, pair.runner_runs)) {
    pair.runner = *runner;
  } else {
    pair.runner_error = runner.error_message();
  }
  pair.verdict = peertube::JudgeVersions(pair.server, pair.runner);
  return pair;
}

}  // namespace mc
