// The IP addresses an X.509 certificate is issued for, read from its DER: Mbed TLS 2.28 keeps
// only the DNS names of the subjectAltName extension, and an API server reached at an address
// (https://10.96.0.1, https://127.0.0.1:6443) is verified by its iPAddress names.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"

namespace mc::http {

// CertificateIpAddresses gives the iPAddress entries of the certificate's subjectAltName, each
// as its raw 4 (IPv4) or 16 (IPv6) bytes, in the certificate's order; none when the extension
// is absent. DER that does not hold together (a length past the end, an indefinite length, a
// high tag number where none belongs) is invalid input naming what was wrong.
Result<std::vector<std::string>> CertificateIpAddresses(std::string_view der);

// AddressBytes is the raw bytes of an IP address literal ("127.0.0.1", "::1", as a URL's host
// holds it, without brackets); empty when `host` is a name.
std::string AddressBytes(const std::string& host);

}  // namespace mc::http
