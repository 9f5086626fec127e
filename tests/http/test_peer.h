// A test's peer process: tests/http/upstream_peer.py under Debian's python3, started for the
// test and killed when it ends, so that the client, the proxy and the gate are tested
// against a real HTTP server that is none of ours.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace mc::http::testing {

class PeerProcess {
 public:
  // Start runs the peer with `arguments` and waits for it to print its port.
  explicit PeerProcess(const std::vector<std::string>& arguments = {});
  ~PeerProcess();
  PeerProcess(const PeerProcess&) = delete;
  PeerProcess& operator=(const PeerProcess&) = delete;

  // The port it serves on; 0 when it did not start.
  int port() const { return port_; }
  std::string Origin(const std::string& scheme = "http") const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
};

// A self-signed certificate for "localhost" made by openssl(1) for the test, in `directory`.
struct TestCertificate {
  std::string certificate;
  std::string key;
};
TestCertificate MakeTestCertificate(const std::string& directory);

}  // namespace mc::http::testing
