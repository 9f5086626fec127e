// Fuzz target: any bytes as a request head, a response head and a chunked body must give a
// value or an error, never a crash.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/http/message_head.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (mc::Result<mc::http::RequestHead> request = mc::http::ParseRequestHead(text))
    (void)mc::http::RequestBodyFraming(*request);
  if (mc::Result<mc::http::ResponseHead> response = mc::http::ParseResponseHead(text))
    (void)mc::http::ResponseBodyFraming(*response, "GET");
  mc::http::ChunkedDecoder decoder;
  std::string body;
  (void)decoder.Feed(
      text.substr(text.find("\r\n\r\n") == std::string_view::npos ? 0 : text.find("\r\n\r\n") + 4),
      &body);
  return 0;
}
