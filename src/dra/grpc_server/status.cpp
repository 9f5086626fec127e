#include "dra/grpc_server/status.h"

namespace mc::dra {

GrpcStatus StatusFromError(const Error& error) {
  if (error.IsUnsupported()) return {StatusCode::kUnimplemented, error.message};
  return {StatusCode::kInternal, error.message};
}

std::string PercentEncodeStatusMessage(std::string_view message) {
  constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  encoded.reserve(message.size());
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte <= 0x7e && byte != '%') {
      encoded.push_back(c);
    } else {
      encoded.push_back('%');
      encoded.push_back(kHex[byte >> 4]);
      encoded.push_back(kHex[byte & 0x0f]);
    }
  }
  return encoded;
}

}  // namespace mc::dra
