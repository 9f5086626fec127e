// CurlEasyPool keeps libcurl easy handles between requests. A handle keeps its open
// connections and TLS sessions across curl_easy_reset, so taking a used one means the next
// request to the same server skips the TCP and TLS handshakes. Each handle serves one
// transfer at a time; the pool lends each to one caller, so calls from many threads never
// share one.
#pragma once

#include <curl/curl.h>

#include <memory>
#include <mutex>
#include <vector>

namespace mc::kube {

class CurlEasyPool {
 public:
  struct Giver {
    CurlEasyPool* pool;
    void operator()(CURL* handle) const { pool->Release(handle); }
  };
  // A lent handle, with libcurl's default options; it goes back to the pool when released.
  using Handle = std::unique_ptr<CURL, Giver>;

  CurlEasyPool();
  ~CurlEasyPool();
  CurlEasyPool(const CurlEasyPool&) = delete;
  CurlEasyPool& operator=(const CurlEasyPool&) = delete;

  // Acquire lends an idle handle, or makes a new one; null only when libcurl cannot.
  Handle Acquire();

 private:
  // More idle handles than this are closed on return: the client rarely has more requests
  // in flight at once, and each idle handle holds a connection to the server.
  static constexpr std::size_t kMaxIdle = 8;

  void Release(CURL* handle);

  std::mutex mutex_;
  std::vector<CURL*> idle_;
};

}  // namespace mc::kube
