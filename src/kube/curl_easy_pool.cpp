#include "kube/curl_easy_pool.h"

namespace mc::kube {

CurlEasyPool::CurlEasyPool() {
  // libcurl must be set up once per process before any handle is made, and the call is not
  // thread-safe itself; curl_easy_init would do it implicitly, but without that guarantee.
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

CurlEasyPool::~CurlEasyPool() {
  for (CURL* handle : idle_) curl_easy_cleanup(handle);
}

CurlEasyPool::Handle CurlEasyPool::Acquire() {
  CURL* handle = nullptr;
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      handle = idle_.back();
      idle_.pop_back();
    }
  }
  if (!handle) handle = curl_easy_init();
  return Handle(handle, Giver{this});
}

void CurlEasyPool::Release(CURL* handle) {
  if (!handle) return;
  // The reset forgets the options of the transfer that ended, which point into its caller's
  // frame (the error buffer, the callbacks' data), before anything else touches the handle.
  curl_easy_reset(handle);
  {
    std::lock_guard lock(mutex_);
    if (idle_.size() < kMaxIdle) {
      idle_.push_back(handle);
      return;
    }
  }
  curl_easy_cleanup(handle);
}

}  // namespace mc::kube
