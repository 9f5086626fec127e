#include "serve_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "support/loopback.h"

namespace mc::worker::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// ServerPid is `pid` itself, or, when `pid` is a run-on script, its child running the binary:
// a signal to the script would not reach the command it waits for.
pid_t ServerPid(pid_t pid) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(entry.path() / "stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t comm_end = text.rfind(')');
    if (comm_end == std::string::npos) continue;
    std::istringstream fields(text.substr(comm_end + 2));
    char state = 0;
    pid_t parent = 0;
    fields >> state >> parent;
    const std::string comm = text.substr(text.find('(') + 1, comm_end - text.find('(') - 1);
    if (parent == pid && comm.starts_with("media-capabilit"))
      return static_cast<pid_t>(std::stol(name));
  }
  return pid;
}

}  // namespace

ServeProcess::ServeProcess(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env, const std::string& log_file)
    : log_file_(log_file) {
  std::vector<std::string> command = {"/usr/bin/env"};
  command.insert(command.end(), env.begin(), env.end());
  command.insert(command.end(), argv.begin(), argv.end());
  std::vector<char*> args;
  for (std::string& arg : command) args.push_back(arg.data());
  args.push_back(nullptr);
  pid_ = fork();
  if (pid_ == 0) {
    const int log = open(log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(log, 2);
    execv(args[0], args.data());
    _exit(127);
  }
}

ServeProcess::~ServeProcess() {
  if (pid_ > 0 && !reaped_) {
    kill(ServerPid(pid_), SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::string ServeProcess::Log() const {
  std::ifstream in(log_file_);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::optional<std::string> ServedAddress(const std::string& log) {
  const std::string mark = "worker serve: listening on ";
  const std::size_t at = log.find(mark);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t start = at + mark.size();
  const std::size_t end = log.find(" (", start);
  const std::size_t line_end = log.find('\n', start);
  if (end == std::string::npos || end > line_end) return std::nullopt;
  std::string address = log.substr(start, end - start);
  if (address.empty() || address.find(' ') != std::string::npos) return std::nullopt;
  return address;
}

std::optional<std::string> ServeProcess::ListeningOn(std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (std::optional<std::string> address = ServedAddress(Log())) return address;
    int status = 0;
    if (!reaped_ && waitpid(pid_, &status, WNOHANG) == pid_) {
      reaped_ = true;
      return std::nullopt;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return std::nullopt;
}

int ServeProcess::Stop(int signal, std::chrono::seconds timeout) {
  if (reaped_) return -1;
  kill(ServerPid(pid_), signal);
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      reaped_ = true;
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

Answer Get(const std::string& address, const std::string& path) {
  const std::size_t colon = address.rfind(':');
  const int port = std::stoi(address.substr(colon + 1));
  const std::string text =
      mc::testing::Exchange(port, "GET " + path + " HTTP/1.1\r\nHost: " + address + "\r\n\r\n");
  Answer answer;
  const std::string line = mc::testing::StatusLine(text);
  if (line.size() >= 12 && line.starts_with("HTTP/1.1 "))
    answer.status = std::stoi(line.substr(9, 3));
  answer.content_type = mc::testing::Header(text, "Content-Type");
  answer.body = mc::testing::Body(text);
  return answer;
}

Answer GetWhenGathered(const std::string& address, const std::string& path,
                       std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  Answer answer = Get(address, path);
  while (answer.status == 503 && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    answer = Get(address, path);
  }
  return answer;
}

}  // namespace mc::worker::testing
