// The iPAddress names of real certificates, as openssl(1) wrote them
// (tests/common/http/certificates: an API server's with DNS and IP names, an RSA one with a DNS
// name only, and the first 200 bytes of the first).
#include "common/http/certificate_names.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace mc::http {
namespace {

std::string Certificate(const std::string& name) {
  return mc::testing::ReadFile(std::string(HTTP_CERTIFICATES_DIR) + "/" + name);
}

TEST(CertificateIpAddresses, GivesEveryIpAddressNameInTheCertificatesOrder) {
  Result<std::vector<std::string>> addresses = CertificateIpAddresses(Certificate("ip-names.der"));
  ASSERT_TRUE(addresses) << addresses.error();
  EXPECT_EQ(*addresses, (std::vector<std::string>{AddressBytes("127.0.0.1"), AddressBytes("::1"),
                                                  AddressBytes("10.96.0.1")}));
}

TEST(CertificateIpAddresses, ACertificateWithDnsNamesOnlyHasNoAddress) {
  Result<std::vector<std::string>> addresses = CertificateIpAddresses(Certificate("dns-only.der"));
  ASSERT_TRUE(addresses) << addresses.error();
  EXPECT_TRUE(addresses->empty());
}

TEST(CertificateIpAddresses, ATruncatedCertificateIsInvalidInputNamingWhere) {
  Result<std::vector<std::string>> addresses = CertificateIpAddresses(Certificate("truncated.der"));
  ASSERT_FALSE(addresses);
  EXPECT_TRUE(addresses.failure().IsInvalidInput());
  EXPECT_EQ(addresses.error(), "DER length past the end in the certificate");
}

TEST(CertificateIpAddresses, AnIndefiniteLengthIsRefused) {
  Result<std::vector<std::string>> addresses = CertificateIpAddresses(std::string("\x30\x80", 2));
  ASSERT_FALSE(addresses);
  EXPECT_EQ(addresses.error(), "DER indefinite length in the certificate");
}

TEST(AddressBytes, AnAddressLiteralBecomesItsBytesAndANameNothing) {
  EXPECT_EQ(AddressBytes("10.96.0.1"), std::string("\x0a\x60\x00\x01", 4));
  EXPECT_EQ(AddressBytes("::1").size(), 16u);
  EXPECT_EQ(AddressBytes("localhost"), "");
  EXPECT_EQ(AddressBytes("10.96.0"), "");
}

}  // namespace
}  // namespace mc::http
