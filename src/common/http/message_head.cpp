#include "common/http/message_head.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "common/base/text.h"

namespace mc::http {
namespace {

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](unsigned char x, unsigned char y) {
           return std::tolower(x) == std::tolower(y);
         });
}

// HTTP's optional white space around a value: spaces and tabs only (RFC 9110 5.6.3).
std::string_view TrimOws(std::string_view text) { return Trim(text, " \t"); }

bool IsTokenCharacter(unsigned char c) {
  return std::isalnum(c) ||
         std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

// Lines splits a head into lines, each without its line end.
std::vector<std::string_view> Lines(std::string_view head) {
  std::vector<std::string_view> lines;
  while (!head.empty()) {
    const std::size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) break;
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    head.remove_prefix(end + 1);
  }
  return lines;
}

Result<Headers> ParseHeaders(const std::vector<std::string_view>& lines, std::string_view what) {
  Headers headers;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::size_t colon = line.find(':');
    const std::string place = std::string(what) + " header line " + std::to_string(i);
    if (line.front() == ' ' || line.front() == '\t')
      return InvalidInput(place + ": folded header lines are not accepted");
    if (colon == std::string_view::npos || colon == 0)
      return InvalidInput(place + ": no \"name:\" before the value");
    const std::string_view name = line.substr(0, colon);
    if (!std::all_of(name.begin(), name.end(), IsTokenCharacter))
      return InvalidInput(place + ": the name holds a character names do not");
    const std::string_view value = TrimOws(line.substr(colon + 1));
    for (const unsigned char c : value) {
      if ((c < 0x20 && c != '\t') || c == 0x7f)
        return InvalidInput(place + ": the value holds a control character");
    }
    headers.push_back({std::string(name), std::string(value)});
  }
  return headers;
}

Result<std::uint64_t> ContentLength(const Headers& headers) {
  std::string_view seen;
  for (const Header& header : headers) {
    if (!EqualsIgnoringCase(header.name, "Content-Length")) continue;
    if (!seen.empty() && seen != header.value)
      return InvalidInput("Content-Length: two different lengths");
    seen = header.value;
  }
  const std::optional<std::uint64_t> length = ParseInteger<std::uint64_t>(seen);
  if (!length) return InvalidInput("Content-Length: \"" + Excerpt(seen, 40) + "\" is not a length");
  return *length;
}

Result<BodyFraming> FramingOf(const Headers& headers, bool until_close_otherwise) {
  const bool has_length = HasHeader(headers, "Content-Length");
  if (HasHeader(headers, "Transfer-Encoding")) {
    if (has_length) return InvalidInput("Transfer-Encoding and Content-Length together");
    // chunked must be the last coding. Anything else cannot be delimited.
    std::string_view codings = HeaderValue(headers, "Transfer-Encoding");
    const std::size_t comma = codings.rfind(',');
    if (!EqualsIgnoringCase(
            TrimOws(comma == std::string_view::npos ? codings : codings.substr(comma + 1)),
            "chunked"))
      return InvalidInput("Transfer-Encoding \"" + Excerpt(codings, 40) +
                          "\" does not end in chunked");
    return BodyFraming{.kind = BodyFraming::Kind::kChunked};
  }
  if (has_length) {
    Result<std::uint64_t> length = ContentLength(headers);
    if (!length) return length.error();
    return BodyFraming{.kind = *length == 0 ? BodyFraming::Kind::kNone : BodyFraming::Kind::kLength,
                       .length = *length};
  }
  return BodyFraming{.kind = until_close_otherwise ? BodyFraming::Kind::kUntilClose
                                                   : BodyFraming::Kind::kNone};
}

void AppendHeaders(std::string& text, const Headers& headers) {
  for (const Header& header : headers) text += header.name + ": " + header.value + "\r\n";
  text += "\r\n";
}

}  // namespace

std::string_view HeaderValue(const Headers& headers, std::string_view name) {
  for (const Header& header : headers) {
    if (EqualsIgnoringCase(header.name, name)) return header.value;
  }
  return {};
}

bool HasHeader(const Headers& headers, std::string_view name) {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const Header& header) { return EqualsIgnoringCase(header.name, name); });
}

bool HasToken(const Headers& headers, std::string_view name, std::string_view token) {
  for (const Header& header : headers) {
    if (!EqualsIgnoringCase(header.name, name)) continue;
    std::string_view values = header.value;
    while (!values.empty()) {
      const std::size_t comma = values.find(',');
      if (EqualsIgnoringCase(TrimOws(values.substr(0, comma)), token)) return true;
      if (comma == std::string_view::npos) break;
      values.remove_prefix(comma + 1);
    }
  }
  return false;
}

void SetHeader(Headers& headers, std::string_view name, std::string value) {
  auto first = std::find_if(headers.begin(), headers.end(), [&](const Header& header) {
    return EqualsIgnoringCase(header.name, name);
  });
  if (first == headers.end()) {
    headers.push_back({std::string(name), std::move(value)});
    return;
  }
  first->value = std::move(value);
  headers.erase(
      std::remove_if(std::next(first), headers.end(),
                     [&](const Header& header) { return EqualsIgnoringCase(header.name, name); }),
      headers.end());
}

void RemoveHeader(Headers& headers, std::string_view name) {
  headers.erase(
      std::remove_if(headers.begin(), headers.end(),
                     [&](const Header& header) { return EqualsIgnoringCase(header.name, name); }),
      headers.end());
}

std::string RequestHead::Path() const { return target.substr(0, target.find_first_of("?#")); }

Result<RequestHead> ParseRequestHead(std::string_view head) {
  const std::vector<std::string_view> lines = Lines(head);
  if (lines.empty()) return InvalidInput("request: no request line");
  const std::string_view line = lines.front();
  const std::size_t first = line.find(' ');
  const std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos)
    return InvalidInput("request line: not \"METHOD TARGET HTTP/1.x\"");
  RequestHead request;
  request.method = std::string(line.substr(0, first));
  request.target = std::string(line.substr(first + 1, second - first - 1));
  request.version = std::string(line.substr(second + 1));
  if (request.method.empty() ||
      !std::all_of(request.method.begin(), request.method.end(), IsTokenCharacter))
    return InvalidInput("request line: the method is not a token");
  if (request.target.empty() || request.target.front() != '/')
    return InvalidInput("request line: the target does not start with \"/\"");
  for (const unsigned char c : request.target) {
    if (c <= 0x20 || c == 0x7f)
      return InvalidInput("request line: a control character in the target");
  }
  if (request.version != "HTTP/1.1" && request.version != "HTTP/1.0")
    return InvalidInput("request line: the version is not HTTP/1.0 or HTTP/1.1");
  Result<Headers> headers = ParseHeaders(lines, "request");
  if (!headers) return headers.error();
  request.headers = std::move(*headers);
  return request;
}

Result<ResponseHead> ParseResponseHead(std::string_view head) {
  const std::vector<std::string_view> lines = Lines(head);
  if (lines.empty()) return InvalidInput("response: no status line");
  const std::string_view line = lines.front();
  ResponseHead response;
  const std::size_t first = line.find(' ');
  response.version = std::string(line.substr(0, first));
  if (first == std::string_view::npos || response.version.rfind("HTTP/1.", 0) != 0 ||
      line.size() < first + 4)
    return InvalidInput("status line: not \"HTTP/1.x STATUS REASON\"");
  const std::string_view code = line.substr(first + 1, 3);
  if (code.find_first_not_of("0123456789") != std::string_view::npos ||
      (line.size() > first + 4 && line[first + 4] != ' '))
    return InvalidInput("status line: the status is not three digits");
  response.status = ParseInteger<int>(code).value_or(0);
  if (response.status < 100) return InvalidInput("status line: the status is below 100");
  response.reason = line.size() > first + 5 ? std::string(line.substr(first + 5)) : "";
  Result<Headers> headers = ParseHeaders(lines, "response");
  if (!headers) return headers.error();
  response.headers = std::move(*headers);
  return response;
}

std::string RequestHeadText(const RequestHead& head) {
  std::string text = head.method + " " + head.target + " " + head.version + "\r\n";
  AppendHeaders(text, head.headers);
  return text;
}

std::string ResponseHeadText(const ResponseHead& head) {
  std::string text = head.version + " " + std::to_string(head.status) + " " + head.reason + "\r\n";
  AppendHeaders(text, head.headers);
  return text;
}

Result<BodyFraming> RequestBodyFraming(const RequestHead& head) {
  return FramingOf(head.headers, /*until_close_otherwise=*/false);
}

Result<BodyFraming> ResponseBodyFraming(const ResponseHead& head, std::string_view method) {
  if (method == "HEAD" || head.status < 200 || head.status == 204 || head.status == 304)
    return BodyFraming{};
  return FramingOf(head.headers, /*until_close_otherwise=*/true);
}

Result<std::size_t> ChunkedDecoder::Feed(std::string_view data, std::string* body) {
  // No honest peer sends a longer size line or trailer.
  constexpr std::size_t kMaxLine = 4096;
  constexpr std::size_t kMaxTrailer = 16384;
  std::size_t used = 0;
  while (used < data.size() && state_ != State::kDone) {
    if (state_ == State::kData) {
      const std::size_t take =
          static_cast<std::size_t>(std::min<std::uint64_t>(left_, data.size() - used));
      if (body) body->append(data.substr(used, take));
      used += take;
      left_ -= take;
      if (left_ == 0) state_ = State::kDataEnd;
      continue;
    }
    const char c = data[used++];
    if (c != '\n') {
      line_ += c;
      if (line_.size() > kMaxLine)
        return InvalidInput("chunked body: a line longer than 4096 bytes");
      continue;
    }
    std::string_view line = line_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    switch (state_) {
      case State::kSize: {
        const std::string_view digits = TrimOws(line.substr(0, line.find(';')));
        std::uint64_t size = 0;
        const auto [end, error] =
            std::from_chars(digits.data(), digits.data() + digits.size(), size, 16);
        if (digits.empty() || error != std::errc() || end != digits.data() + digits.size())
          return InvalidInput("chunked body: the chunk size \"" + Excerpt(digits, 20) +
                              "\" is not hexadecimal");
        left_ = size;
        state_ = size == 0 ? State::kTrailer : State::kData;
        break;
      }
      case State::kDataEnd:
        if (!line.empty())
          return InvalidInput("chunked body: a chunk does not end where its size says");
        state_ = State::kSize;
        break;
      case State::kTrailer:
        trailer_bytes_ += line_.size();
        if (trailer_bytes_ > kMaxTrailer) return InvalidInput("chunked body: trailers over 16 KiB");
        if (line.empty()) state_ = State::kDone;
        break;
      case State::kData:
      case State::kDone:
        break;
    }
    line_.clear();
  }
  return used;
}

}  // namespace mc::http
