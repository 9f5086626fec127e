// KubeClient over libcurl's easy interface: each call borrows a handle from the pool, sets
// every option afresh (a reset handle keeps only its connections and TLS sessions), and runs
// the transfer on the calling thread.
#include "kube/kube_client.h"

#include <curl/curl.h>

#include <exception>

#include "kube/bearer_token.h"
#include "kube/curl_easy_pool.h"
#include "kube/line_splitter.h"
#include "kube/retry_after.h"

namespace mc::kube {

namespace {

// The counters are each client's own, so that two clients in one process (or one test) each
// see their own traffic.
struct Counters {
  std::atomic<std::uint64_t> requests{0};
  std::atomic<std::uint64_t> bytes_sent{0};
  std::atomic<std::uint64_t> bytes_received{0};
};

// Headers owns a curl_slist of request headers for the length of one transfer.
class Headers {
 public:
  Headers() = default;
  ~Headers() { curl_slist_free_all(list_); }
  Headers(const Headers&) = delete;
  Headers& operator=(const Headers&) = delete;
  bool Add(const std::string& header) {
    curl_slist* grown = curl_slist_append(list_, header.c_str());
    if (!grown) return false;
    list_ = grown;
    return true;
  }
  curl_slist* get() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

// What the callbacks of one transfer share with the call that runs it.
struct Transfer {
  Counters* counters = nullptr;
  CURL* handle = nullptr;
  // Send: the body, whole.
  std::string* body = nullptr;
  // Watch: the lines, the caller's callbacks, and what became of them.
  LineSplitter* lines = nullptr;
  const std::function<void(std::string_view)>* on_line = nullptr;
  const std::function<bool()>* stop = nullptr;
  std::string error_body;
  bool stopped = false;
  bool line_too_long = false;
  // An exception thrown by the caller's callback cannot pass through libcurl's C frames; it
  // is kept here, the transfer aborted, and the exception thrown again once curl returns.
  std::exception_ptr failure;
};

// Called once a connection is ready and the request is about to be sent: it counts requests
// that reached the wire, which a refused connection never does.
int CountRequest(void* data, char*, char*, int, int) {
  static_cast<Transfer*>(data)->counters->requests.fetch_add(1, std::memory_order_relaxed);
  return CURL_PREREQFUNC_OK;
}

std::size_t CollectBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  transfer->counters->bytes_received.fetch_add(bytes, std::memory_order_relaxed);
  transfer->body->append(data, bytes);
  return bytes;
}

// A watch answered with anything but 200 carries a Status, not events; more than this of it
// is not worth keeping.
constexpr std::size_t kMaxErrorBody = 64u << 10;

std::size_t StreamLines(char* data, std::size_t size, std::size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t bytes = size * count;
  transfer->counters->bytes_received.fetch_add(bytes, std::memory_order_relaxed);
  long status = 0;
  curl_easy_getinfo(transfer->handle, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200) {
    const std::size_t room = kMaxErrorBody - std::min(kMaxErrorBody, transfer->error_body.size());
    transfer->error_body.append(data, std::min(room, bytes));
    return bytes;
  }
  try {
    if (!transfer->lines->Feed(std::string_view(data, bytes), *transfer->on_line)) {
      transfer->line_too_long = true;
      return CURL_WRITEFUNC_ERROR;
    }
  } catch (...) {
    transfer->failure = std::current_exception();
    return CURL_WRITEFUNC_ERROR;
  }
  return bytes;
}

// libcurl calls this often while data flows and about once a second while the stream is
// idle, which is what bounds how long a stopped watch takes to end.
int PollStop(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* transfer = static_cast<Transfer*>(user);
  try {
    if ((*transfer->stop)()) {
      transfer->stopped = true;
      return 1;
    }
  } catch (...) {
    transfer->failure = std::current_exception();
    return 1;
  }
  return 0;
}

bool MethodIsValid(const std::string& method) {
  if (method.empty()) return false;
  for (char c : method) {
    if (c < 'A' || c > 'Z') return false;
  }
  return true;
}

// A header value may not hold a line break: a token file with one inside would otherwise
// let its second line become a header of its own.
bool FitsInHeader(const std::string& value) {
  for (char c : value) {
    if (c == '\r' || c == '\n' || c == '\0') return false;
  }
  return true;
}

void SetBlob(CURL* handle, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(handle, option, &blob);
}

// Prepare sets what every transfer of this client has in common: where, as whom, how
// patiently, and where the counters go. It fails only when the token cannot be had or a
// header cannot be built.
Result<void> Prepare(const KubeConfig& config, const ClientSettings& settings, BearerToken& bearer,
                     CURL* handle, const std::string& target, Headers& headers, char* error_buffer,
                     Transfer& transfer) {
  Result<std::string> token = bearer.Current();
  if (!token) return token.failure();
  if (!FitsInHeader(*token)) return Error{"the bearer token holds a line break"};

  const std::string url = config.server + target;
  curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
  // Signals cannot reach a thread safely; without this, a DNS time-out would use SIGALRM.
  curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(handle, CURLOPT_USERAGENT, settings.user_agent.c_str());
  curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(settings.connect_timeout.count()));
  // Keep-alive probes find a server that vanished without closing the connection, which
  // matters most for watches, since they have no deadline.
  curl_easy_setopt(handle, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(handle, CURLOPT_TCP_KEEPIDLE, 30L);
  curl_easy_setopt(handle, CURLOPT_TCP_KEEPINTVL, 10L);

  if (!config.ca_pem.empty()) {
    // The configured CA is the only one trusted, as in client-go: libcurl would otherwise
    // also trust the system's bundle and directory, which it was built with.
    SetBlob(handle, CURLOPT_CAINFO_BLOB, config.ca_pem);
    curl_easy_setopt(handle, CURLOPT_CAINFO, nullptr);
    curl_easy_setopt(handle, CURLOPT_CAPATH, nullptr);
  }
  if (config.insecure_skip_tls_verify) {
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!config.client_cert_pem.empty()) {
    curl_easy_setopt(handle, CURLOPT_SSLCERTTYPE, "PEM");
    SetBlob(handle, CURLOPT_SSLCERT_BLOB, config.client_cert_pem);
    curl_easy_setopt(handle, CURLOPT_SSLKEYTYPE, "PEM");
    SetBlob(handle, CURLOPT_SSLKEY_BLOB, config.client_key_pem);
  }

  bool added = headers.Add("Accept: application/json");
  if (!token->empty()) added = added && headers.Add("Authorization: Bearer " + *token);
  // Without this, libcurl waits for "100 Continue" before sending a large body.
  added = added && headers.Add("Expect:");
  if (!added) return Error{"out of memory for the request's headers"};
  curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers.get());

  curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, CountRequest);
  curl_easy_setopt(handle, CURLOPT_PREREQDATA, &transfer);
  return Ok();
}

std::string CurlFailure(CURLcode code, const char* error_buffer) {
  return error_buffer[0] ? std::string(error_buffer) : std::string(curl_easy_strerror(code));
}

}  // namespace

struct KubeClient::State {
  State(KubeConfig config_in, ClientSettings settings_in)
      : config(std::move(config_in)),
        settings(std::move(settings_in)),
        token(config.token, config.token_file) {}

  Result<void> Prepare(CURL* handle, const std::string& target, Headers& headers,
                       char* error_buffer, Transfer& transfer) {
    transfer.counters = &counters;
    transfer.handle = handle;
    return mc::kube::Prepare(config, settings, token, handle, target, headers, error_buffer,
                             transfer);
  }

  const KubeConfig config;
  const ClientSettings settings;
  BearerToken token;
  Counters counters;
  // Declared last, so that its handles are closed before anything they point at goes.
  CurlEasyPool pool;
};

Result<std::unique_ptr<KubeClient>> KubeClient::Create(KubeConfig config, ClientSettings settings) {
  if (!config.server.starts_with("https://") && !config.server.starts_with("http://")) {
    return Error{"API client: server \"" + config.server + "\" is not an http or https URL"};
  }
  while (config.server.ends_with('/')) config.server.pop_back();
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    return Error{"API client: a client certificate needs its key, and a key its certificate"};
  }
  if (!FitsInHeader(settings.user_agent))
    return Error{"API client: the user agent holds a line break"};
  auto state = std::make_unique<State>(std::move(config), std::move(settings));
  return std::unique_ptr<KubeClient>(new KubeClient(std::move(state)));
}

KubeClient::KubeClient(std::unique_ptr<State> state) : state_(std::move(state)) {}
KubeClient::~KubeClient() = default;

Result<HttpResponse> KubeClient::Send(const HttpRequest& request) {
  const std::string what = request.method + " " + request.target;
  if (!MethodIsValid(request.method)) return Error{what + ": the method is not an HTTP method"};
  if (!request.target.starts_with('/')) return Error{what + ": the target does not start with /"};

  CurlEasyPool::Handle handle = state_->pool.Acquire();
  if (!handle) return Error{what + ": libcurl cannot make a handle"};
  CURL* curl = handle.get();
  HttpResponse response;
  Transfer transfer;
  transfer.body = &response.body;
  Headers headers;
  char error_buffer[CURL_ERROR_SIZE] = {};

  // libcurl would turn a GET with a body into a POST; the API server reads no body there.
  const bool bodiless = request.method == "GET" || request.method == "HEAD";
  if (bodiless && !request.body.empty())
    return Error{what + ": a " + request.method + " carries no body"};
  const bool has_body = !request.body.empty() || request.method == "POST" ||
                        request.method == "PUT" || request.method == "PATCH";
  if (has_body) {
    if (!FitsInHeader(request.content_type))
      return Error{what + ": the content type holds a line break"};
    if (!headers.Add("Content-Type: " + request.content_type))
      return Error{what + ": out of memory"};
  }
  if (Result<void> prepared =
          state_->Prepare(curl, request.target, headers, error_buffer, transfer);
      !prepared) {
    return Error{what + ": " + prepared.error()};
  }
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(state_->settings.request_timeout.count()));
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, CollectBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);

  if (request.method == "GET") {
    curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  } else if (request.method == "HEAD") {
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  if (has_body) {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(request.body.size()));
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data());
  }

  const CURLcode code = curl_easy_perform(curl);
  curl_off_t uploaded = 0;
  if (curl_easy_getinfo(curl, CURLINFO_SIZE_UPLOAD_T, &uploaded) == CURLE_OK && uploaded > 0) {
    state_->counters.bytes_sent.fetch_add(static_cast<std::uint64_t>(uploaded),
                                          std::memory_order_relaxed);
  }
  if (code != CURLE_OK) return Unavailable(what + ": " + CurlFailure(code, error_buffer));

  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  if (response.status == 429 || response.status == 503) {
    curl_header* header = nullptr;
    if (curl_easy_header(curl, "Retry-After", 0, CURLH_HEADER, -1, &header) == CURLHE_OK) {
      response.retry_after = ParseRetryAfter(header->value, std::chrono::system_clock::now());
    }
  }
  return response;
}

Result<KubeClient::WatchEnd> KubeClient::Watch(
    const std::string& target, const std::function<void(std::string_view line)>& on_line,
    const std::function<bool()>& stop) {
  const std::string what = "watch " + target;
  if (!target.starts_with('/')) return Error{what + ": the target does not start with /"};

  CurlEasyPool::Handle handle = state_->pool.Acquire();
  if (!handle) return Error{what + ": libcurl cannot make a handle"};
  CURL* curl = handle.get();
  LineSplitter lines;
  Transfer transfer;
  transfer.lines = &lines;
  transfer.on_line = &on_line;
  transfer.stop = &stop;
  Headers headers;
  char error_buffer[CURL_ERROR_SIZE] = {};

  if (Result<void> prepared = state_->Prepare(curl, target, headers, error_buffer, transfer);
      !prepared) {
    return Error{what + ": " + prepared.error()};
  }
  curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
  // No deadline and no low-speed limit: a watch on objects that do not change is silent for
  // as long as the server keeps it open (its own limit is half an hour or so).
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 0L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, StreamLines);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, PollStop);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &transfer);

  const CURLcode code = curl_easy_perform(curl);
  if (transfer.failure) std::rethrow_exception(transfer.failure);

  WatchEnd end;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &end.status);
  if (transfer.stopped) {
    end.stopped = true;
    return end;
  }
  if (transfer.line_too_long) {
    return Error{what + ": the server sent a line longer than " +
                 std::to_string(LineSplitter::kMaxLine) + " bytes"};
  }
  if (code != CURLE_OK) return Unavailable(what + ": " + CurlFailure(code, error_buffer));
  if (end.status != 200) {
    end.error_body = std::move(transfer.error_body);
  } else if (!lines.rest().empty()) {
    // The body ended cleanly without a last newline: what is left is a whole last line.
    const std::string last(lines.rest());
    on_line(last);
  }
  return end;
}

Traffic KubeClient::traffic() const {
  Traffic traffic;
  traffic.requests = state_->counters.requests.load(std::memory_order_relaxed);
  traffic.bytes_sent = state_->counters.bytes_sent.load(std::memory_order_relaxed);
  traffic.bytes_received = state_->counters.bytes_received.load(std::memory_order_relaxed);
  return traffic;
}

}  // namespace mc::kube
