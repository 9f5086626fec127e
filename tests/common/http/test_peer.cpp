#include "test_peer.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace mc::http::testing {

PeerProcess::PeerProcess(const std::vector<std::string>& arguments) {
  int out[2];
  if (pipe(out) != 0) return;
  std::vector<std::string> argv{TEST_PYTHON, "-u", UPSTREAM_PEER};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  pid_ = fork();
  if (pid_ == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    std::vector<char*> raw;
    for (std::string& argument : argv) raw.push_back(argument.data());
    raw.push_back(nullptr);
    execv(raw[0], raw.data());
    _exit(127);
  }
  close(out[1]);
  std::string line;
  char c = 0;
  while (read(out[0], &c, 1) == 1 && c != '\n') line += c;
  close(out[0]);
  port_ = std::atoi(line.c_str());
}

PeerProcess::~PeerProcess() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
}

std::string PeerProcess::Origin(const std::string& scheme) const {
  return scheme + "://" + (scheme == "https" ? "localhost" : "127.0.0.1") + ":" +
         std::to_string(port_);
}

TestCertificate MakeTestCertificate(const std::string& directory, const std::string& names,
                                    const std::string& common_name, const std::string& key) {
  TestCertificate made{directory + "/" + common_name + ".pem",
                       directory + "/" + common_name + ".key"};
  const std::string command = "openssl req -x509 -newkey " + key +
                              " -nodes -days 1 -subj /CN=" + common_name +
                              " -addext subjectAltName=" + names + " -keyout " + made.key +
                              " -out " + made.certificate + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) return {};
  return made;
}

}  // namespace mc::http::testing
