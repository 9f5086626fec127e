#include "common/http/client.h"

#include "common/http/message_io.h"

namespace mc::http {
namespace {

constexpr std::size_t kMaxResponseHead = 64 * 1024;

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      encoded += static_cast<char>(c);
    } else {
      encoded += '%';
      encoded += kHex[c >> 4];
      encoded += kHex[c & 15];
    }
  }
  return encoded;
}

}  // namespace

Result<ClientResponse> Request(const Url& url, const ClientRequest& request) {
  const Deadline deadline = Clock::now() + request.timeout;
  // The query may hold a secret; the path alone names the call well enough.
  const std::string what = request.method + " " + url.Origin() +
                           url.path_and_query.substr(0, url.path_and_query.find('?'));
  auto failed = [&](const Error& error) { return error.WithContext(what); };

  Result<std::unique_ptr<Stream>> stream = Connect(url, deadline, request.transport);
  if (!stream) return failed(stream.error());

  RequestHead head{.method = request.method, .target = url.path_and_query};
  head.headers.push_back({"Host", url.HostHeader()});
  for (const Header& header : request.headers) head.headers.push_back(header);
  RemoveHeader(head.headers, "Content-Length");
  RemoveHeader(head.headers, "Transfer-Encoding");
  RemoveHeader(head.headers, "Connection");
  if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
      request.method == "PATCH")
    head.headers.push_back({"Content-Length", std::to_string(request.body.size())});
  head.headers.push_back({"Connection", "close"});
  if (Result<void> sent = (*stream)->Write(RequestHeadText(head) + request.body, deadline); !sent)
    return failed(sent.error());

  MessageReader reader(**stream);
  while (true) {
    Result<std::string> text = reader.ReadHead(kMaxResponseHead, deadline);
    if (!text) return failed(text.error());
    Result<ResponseHead> answer = ParseResponseHead(*text);
    if (!answer) return failed(Unavailable(answer.error_message()));
    // An interim answer (100 Continue, 103 Early Hints) comes before the real one.
    if (answer->status < 200) continue;
    Result<BodyFraming> framing = ResponseBodyFraming(*answer, request.method);
    if (!framing) return failed(Unavailable(framing.error_message()));
    Result<std::string> body = reader.ReadBody(*framing, request.max_body_bytes, deadline);
    if (!body) return failed(body.error());
    return ClientResponse{.status = answer->status,
                          .reason = std::move(answer->reason),
                          .headers = std::move(answer->headers),
                          .body = std::move(*body)};
  }
}

std::string FormEncode(const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string text;
  for (const auto& [name, value] : fields) {
    if (!text.empty()) text += '&';
    text += PercentEncode(name) + "=" + PercentEncode(value);
  }
  return text;
}

Result<std::string> GetOk(const std::string& url, std::chrono::milliseconds timeout) {
  Result<Url> parsed = ParseUrl(url);
  if (!parsed) return parsed.error();
  ClientRequest request;
  request.timeout = timeout;
  Result<ClientResponse> response = Request(*parsed, request);
  if (!response) return response.error();
  if (response->status != 200) {
    return Unavailable("GET " + url + " answered " + std::to_string(response->status));
  }
  return std::move(response->body);
}

ClientRequest FormRequest(const std::vector<std::pair<std::string, std::string>>& fields) {
  ClientRequest request{.method = "POST", .body = FormEncode(fields)};
  request.headers.push_back({"Content-Type", "application/x-www-form-urlencoded"});
  return request;
}

ClientRequest JsonRequest(std::string method, std::string json) {
  ClientRequest request{.method = std::move(method), .body = std::move(json)};
  request.headers.push_back({"Content-Type", "application/json"});
  request.headers.push_back({"Accept", "application/json"});
  return request;
}

ClientRequest WithBearer(ClientRequest request, std::string_view token) {
  request.headers.push_back({"Authorization", "Bearer " + std::string(token)});
  return request;
}

}  // namespace mc::http
