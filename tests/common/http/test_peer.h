// A test's peer process: tests/common/http/upstream_peer.py under Debian's python3, started for the
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

// A self-signed certificate made by openssl(1) for the test, in `directory`: for "localhost"
// unless other subjectAltName `names` are given ("IP:127.0.0.1,DNS:x"), its files named after
// its `common_name`, its key as `openssl req -newkey` spells it (EC P-256 by default, as the
// API server's of tests/cluster).
struct TestCertificate {
  std::string certificate;
  std::string key;
};
inline constexpr const char* kEcP256Key = "ec -pkeyopt ec_paramgen_curve:P-256";
TestCertificate MakeTestCertificate(const std::string& directory,
                                    const std::string& names = "DNS:localhost",
                                    const std::string& common_name = "localhost",
                                    const std::string& key = kEcP256Key);

}  // namespace mc::http::testing
