// tls_client_floor: how much resident memory the libraries an HTTPS client can be built on
// cost by themselves, so the agent's idle RSS (bench/dra/agent-bench) can be read against what no
// code of ours could save. Each client is a child process that makes one verified HTTPS GET to
// a local `openssl s_server` and then reports its VmRSS:
//
//   none     a program doing nothing (libc and libstdc++ only): the baseline
//   curl     libcurl (Debian's, over OpenSSL, with its other protocols' libraries)
//   openssl  a bare TLS client on libssl/libcrypto: what an own HTTP client over OpenSSL costs
//   gnutls   a bare TLS client on GnuTLS and its nettle/gmp/p11-kit stack
//
// Each client is its own executable (bench/common/tls_floor_client.cpp), so that it loads its
// library alone. This program prints each client's VmRSS and its excess over the baseline. It needs
// the openssl command (for the certificate and the server) and a free loopback port; it is not a
// test.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "spawn_program.h"
#include "support/free_port.h"

namespace {

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "tls_client_floor: %s\n", why.c_str());
  std::exit(1);
}

int Wait(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

int main() {
  char directory_template[] = "/tmp/tls-floor-XXXXXX";
  const std::string dir = mkdtemp(directory_template);
  const std::string cert = dir + "/cert.pem", key = dir + "/key.pem";
  const pid_t req =
      bench::Spawn({"openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:P-256", "-nodes", "-keyout", key, "-out", cert, "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost", "-days", "1"},
                   {}, dir + "/req.log");
  if (Wait(req) != 0) Fail("openssl req failed: " + ReadAll(dir + "/req.log"));
  const int port = mc::testing::FreePort();
  const pid_t server = bench::Spawn({"openssl", "s_server", "-accept", std::to_string(port),
                                     "-cert", cert, "-key", key, "-www", "-quiet"},
                                    {}, dir + "/server.log");
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  std::printf("%-8s %10s %12s\n", "client", "VmRSS MiB", "over none");
  double baseline = 0;
  int failures = 0;
  for (const char* client : {"none", "curl", "openssl", "gnutls"}) {
    const std::string out = dir + "/" + client + ".out";
    const std::string program = std::string(MEDIA_CAP_BENCH_DIR "/tls_floor_client_") + client;
    const pid_t pid = bench::Spawn({program, std::to_string(port), cert}, {}, out);
    if (Wait(pid) != 0) {
      std::printf("%-8s failed: %s", client, ReadAll(out).c_str());
      ++failures;
      continue;
    }
    const double mib = std::strtod(ReadAll(out).c_str(), nullptr) / 1024.0;
    if (std::string(client) == "none") baseline = mib;
    std::printf("%-8s %10.1f %12.1f\n", client, mib, mib - baseline);
  }
  kill(server, SIGTERM);
  Wait(server);
  std::filesystem::remove_all(dir);
  return failures == 0 ? 0 : 1;
}
