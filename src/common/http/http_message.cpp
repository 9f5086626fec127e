#include "common/http/http_message.h"

namespace mc::http {

std::optional<std::size_t> HeadEnd(std::string_view received) {
  // A client that ends lines with a bare "\n" is still understood.
  const std::size_t crlf = received.find("\r\n\r\n");
  const std::size_t lf = received.find("\n\n");
  if (crlf == std::string_view::npos && lf == std::string_view::npos) return std::nullopt;
  if (lf == std::string_view::npos || (crlf != std::string_view::npos && crlf < lf))
    return crlf + 4;
  return lf + 2;
}

std::optional<RequestLine> ParseRequestLine(std::string_view head) {
  const std::string_view line = head.substr(0, head.find_first_of("\r\n"));
  const std::size_t first = line.find(' ');
  if (first == std::string_view::npos || first == 0) return std::nullopt;
  const std::size_t second = line.find(' ', first + 1);
  const std::string_view target = line.substr(
      first + 1, second == std::string_view::npos ? std::string_view::npos : second - first - 1);
  if (target.empty() || target.front() != '/') return std::nullopt;
  return RequestLine{.method = std::string(line.substr(0, first)),
                     .path = std::string(target.substr(0, target.find_first_of("?#")))};
}

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 101:
      return "Switching Protocols";
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "Unknown";
  }
}

std::string ResponseText(const Response& response, std::string_view allow) {
  std::string text = "HTTP/1.1 " + std::to_string(response.status) + " " +
                     std::string(ReasonPhrase(response.status)) +
                     "\r\nContent-Type: " + response.content_type +
                     "\r\nContent-Length: " + std::to_string(response.body.size()) + "\r\n";
  if (!allow.empty()) text += "Allow: " + std::string(allow) + "\r\n";
  for (const auto& [name, value] : response.headers) text += name + ": " + value + "\r\n";
  text += "Connection: close\r\n\r\n";
  text += response.body;
  return text;
}

}  // namespace mc::http
