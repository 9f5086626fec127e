#include "common/http/certificate_names.h"

#include <arpa/inet.h>

#include <cstdint>

namespace mc::http {
namespace {

// DER's tags as they appear in a certificate (X.690, RFC 5280 section 4).
constexpr unsigned char kSequence = 0x30;
constexpr unsigned char kObjectIdentifier = 0x06;
constexpr unsigned char kBoolean = 0x01;
constexpr unsigned char kOctetString = 0x04;
constexpr unsigned char kExtensions = 0xa3;  // [3] EXPLICIT, constructed
constexpr unsigned char kIpAddress = 0x87;   // GeneralName iPAddress: [7] IMPLICIT OCTET STRING
// id-ce-subjectAltName, 2.5.29.17, as its encoded value.
constexpr std::string_view kSubjectAltName = "\x55\x1d\x11";

struct Element {
  unsigned char tag = 0;
  std::string_view content;
};

// Next reads one element off the front of `input`.
Result<Element> Next(std::string_view& input, const char* where) {
  const std::string place = std::string(" in ") + where;
  if (input.size() < 2) return InvalidInput("DER ends within an element's header" + place);
  Element element;
  element.tag = static_cast<unsigned char>(input[0]);
  if ((element.tag & 0x1f) == 0x1f) return InvalidInput("DER tag of the high-number form" + place);
  std::size_t length = static_cast<unsigned char>(input[1]);
  std::size_t header = 2;
  if (length & 0x80) {
    const std::size_t octets = length & 0x7f;
    if (octets == 0) return InvalidInput("DER indefinite length" + place);
    if (octets > 4) return InvalidInput("DER length of more than 4 octets" + place);
    if (input.size() < 2 + octets) return InvalidInput("DER ends within a length" + place);
    length = 0;
    for (std::size_t i = 0; i < octets; ++i)
      length = (length << 8) | static_cast<unsigned char>(input[2 + i]);
    header += octets;
  }
  if (length > input.size() - header) return InvalidInput("DER length past the end" + place);
  element.content = input.substr(header, length);
  input.remove_prefix(header + length);
  return element;
}

// Expect reads one element of tag `tag`.
Result<std::string_view> Expect(std::string_view& input, unsigned char tag, const char* where) {
  Result<Element> element = Next(input, where);
  if (!element) return element.failure();
  if (element->tag != tag)
    return InvalidInput(std::string("DER: ") + where + " is not of the expected type");
  return element->content;
}

// AddressesOf reads the iPAddress names of a subjectAltName's value, GeneralNames.
Result<std::vector<std::string>> AddressesOf(std::string_view value) {
  Result<std::string_view> names = Expect(value, kSequence, "subjectAltName");
  if (!names) return names.failure();
  std::vector<std::string> addresses;
  while (!names->empty()) {
    Result<Element> name = Next(*names, "a subjectAltName entry");
    if (!name) return name.failure();
    if (name->tag == kIpAddress) addresses.emplace_back(name->content);
  }
  return addresses;
}

}  // namespace

Result<std::vector<std::string>> CertificateIpAddresses(std::string_view der) {
  Result<std::string_view> certificate = Expect(der, kSequence, "the certificate");
  if (!certificate) return certificate.failure();
  Result<std::string_view> tbs = Expect(*certificate, kSequence, "tbsCertificate");
  if (!tbs) return tbs.failure();
  while (!tbs->empty()) {
    Result<Element> field = Next(*tbs, "tbsCertificate");
    if (!field) return field.failure();
    if (field->tag != kExtensions) continue;
    std::string_view wrapped = field->content;
    Result<std::string_view> extensions = Expect(wrapped, kSequence, "extensions");
    if (!extensions) return extensions.failure();
    while (!extensions->empty()) {
      Result<std::string_view> extension = Expect(*extensions, kSequence, "an extension");
      if (!extension) return extension.failure();
      Result<std::string_view> id = Expect(*extension, kObjectIdentifier, "an extension's id");
      if (!id) return id.failure();
      if (*id != kSubjectAltName) continue;
      if (!extension->empty() && static_cast<unsigned char>(extension->front()) == kBoolean) {
        if (Result<Element> critical = Next(*extension, "an extension"); !critical)
          return critical.failure();
      }
      Result<std::string_view> value = Expect(*extension, kOctetString, "an extension's value");
      if (!value) return value.failure();
      return AddressesOf(*value);
    }
  }
  return std::vector<std::string>{};
}

std::string AddressBytes(const std::string& host) {
  unsigned char bytes[16] = {};
  if (inet_pton(AF_INET, host.c_str(), bytes) == 1) return std::string(bytes, bytes + 4);
  if (inet_pton(AF_INET6, host.c_str(), bytes) == 1) return std::string(bytes, bytes + 16);
  return "";
}

}  // namespace mc::http
