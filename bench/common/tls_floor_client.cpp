// One HTTPS client of bench/tls_client_floor, compiled once per library with TLS_FLOOR_CLIENT
// naming it (0 none, 1 libcurl, 2 OpenSSL, 3 GnuTLS), so that each process loads that
// library alone: a library linked but unused still costs its relocations and its constructors'
// pages. It makes one verified GET to https://localhost:PORT/ and prints its VmRSS in KiB.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#if TLS_FLOOR_CLIENT == 1
#include <curl/curl.h>
#elif TLS_FLOOR_CLIENT == 2
#include <openssl/ssl.h>
#elif TLS_FLOOR_CLIENT == 3
#include <gnutls/gnutls.h>
#endif

namespace {

[[maybe_unused]] constexpr const char* kRequest = "GET / HTTP/1.0\r\nHost: localhost\r\n\r\n";

[[noreturn]] void Fail(const std::string& why) {
  std::fprintf(stderr, "tls_floor_client: %s\n", why.c_str());
  std::exit(1);
}

long VmRssKib() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtol(line.c_str() + 6, nullptr, 10);
  }
  return -1;
}

[[maybe_unused]] int ConnectLoopback(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    Fail("cannot connect to the local TLS server");
  }
  return fd;
}

#if TLS_FLOOR_CLIENT == 1
size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }
#endif

void Get([[maybe_unused]] int port, [[maybe_unused]] const std::string& ca) {
#if TLS_FLOOR_CLIENT == 1
  curl_global_init(CURL_GLOBAL_DEFAULT);
  CURL* curl = curl_easy_init();
  const std::string url = "https://localhost:" + std::to_string(port) + "/";
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CAINFO, ca.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, Discard);
  const CURLcode code = curl_easy_perform(curl);
  if (code != CURLE_OK) Fail(std::string("libcurl: ") + curl_easy_strerror(code));
#elif TLS_FLOOR_CLIENT == 2
  SSL_CTX* context = SSL_CTX_new(TLS_client_method());
  if (SSL_CTX_load_verify_locations(context, ca.c_str(), nullptr) != 1) Fail("OpenSSL: no CA");
  SSL* ssl = SSL_new(context);
  SSL_set_fd(ssl, ConnectLoopback(port));
  SSL_set_tlsext_host_name(ssl, "localhost");
  SSL_set1_host(ssl, "localhost");
  SSL_set_verify(ssl, SSL_VERIFY_PEER, nullptr);
  if (SSL_connect(ssl) != 1) Fail("OpenSSL: the handshake failed");
  char answer[4096];
  SSL_write(ssl, kRequest, static_cast<int>(std::strlen(kRequest)));
  if (SSL_read(ssl, answer, sizeof answer) <= 0) Fail("OpenSSL: no answer");
#elif TLS_FLOOR_CLIENT == 3
  gnutls_certificate_credentials_t credentials;
  gnutls_certificate_allocate_credentials(&credentials);
  if (gnutls_certificate_set_x509_trust_file(credentials, ca.c_str(), GNUTLS_X509_FMT_PEM) <= 0) {
    Fail("GnuTLS: no CA");
  }
  gnutls_session_t session;
  gnutls_init(&session, GNUTLS_CLIENT);
  gnutls_server_name_set(session, GNUTLS_NAME_DNS, "localhost", std::strlen("localhost"));
  gnutls_set_default_priority(session);
  gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, credentials);
  gnutls_session_set_verify_cert(session, "localhost", 0);
  // gnutls_transport_set_int is a macro that names its argument twice: connect once, first.
  const int fd = ConnectLoopback(port);
  gnutls_transport_set_int(session, fd);
  if (gnutls_handshake(session) < 0) Fail("GnuTLS: the handshake failed");
  gnutls_record_send(session, kRequest, std::strlen(kRequest));
  char answer[4096];
  ssize_t got;
  do {
    got = gnutls_record_recv(session, answer, sizeof answer);
  } while (got == GNUTLS_E_AGAIN || got == GNUTLS_E_INTERRUPTED);
  if (got <= 0) Fail(std::string("GnuTLS: no answer: ") + gnutls_strerror(static_cast<int>(got)));
#endif
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) Fail("usage: tls_floor_client PORT CA-FILE");
  Get(std::atoi(argv[1]), argv[2]);
  std::printf("%ld\n", VmRssKib());
  return 0;
}
