#include "common/kube/list_watch.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

#include "common/base/json_parse.h"
#include "common/base/json_path.h"
#include "common/kube/watch_event.h"

namespace mc::kube {
namespace {

constexpr int kFirstBackoffSeconds = 1;
constexpr int kLastBackoffSeconds = 60;

int NextBackoff(int seconds) { return std::min(seconds * 2, kLastBackoffSeconds); }

}  // namespace

void ApplyWatchUpdate(const WatchUpdate& update, std::map<std::string, nlohmann::json>& objects) {
  if (update.kind == WatchUpdate::Kind::kReplaceAll) objects.clear();
  for (const nlohmann::json& object : update.objects) {
    const std::string name = JsonStringAt(object, {"metadata", "name"});
    if (update.kind == WatchUpdate::Kind::kDelete) {
      objects.erase(name);
    } else {
      objects[name] = object;
    }
  }
}

std::string UrlEncode(const std::string& value) {
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

ListWatch::ListWatch(KubeClient& client, ListWatchTarget target, OnUpdate on_update, Log log)
    : client_(client),
      target_(std::move(target)),
      on_update_(std::move(on_update)),
      log_(std::move(log)) {}

ListWatch::~ListWatch() { Stop(); }

void ListWatch::Start() {
  thread_ = std::thread([this] { Run(); });
}

void ListWatch::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string ListWatch::Describe() const {
  std::string resource = target_.collection.substr(target_.collection.rfind('/') + 1);
  return target_.field_selector.empty() ? resource : resource + " " + target_.field_selector;
}

std::string ListWatch::Query(const std::string& extra) const {
  std::string query = target_.collection + "?";
  if (!target_.field_selector.empty())
    query += "fieldSelector=" + UrlEncode(target_.field_selector) + "&";
  return query + extra;
}

bool ListWatch::Sleep(int seconds) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, std::chrono::seconds(seconds), [this] { return stopping_.load(); });
}

void ListWatch::Run() {
  int backoff = kFirstBackoffSeconds;
  std::string resource_version;
  bool listed = false;
  while (!stopping_) {
    if (!listed) {
      Result<std::string> listed_version = List();
      listed = listed_version.ok();
      if (!listed) {
        log_("watch: " + listed_version.error_message());
        log_("watch: listing " + Describe() + " failed; retrying in " + std::to_string(backoff) +
             " s");
        if (!Sleep(backoff)) return;
        backoff = NextBackoff(backoff);
        continue;
      }
      resource_version = *listed_version;
      backoff = kFirstBackoffSeconds;
    }
    const auto opened = std::chrono::steady_clock::now();
    listed = WatchFrom(resource_version);
    if (stopping_) return;
    // A watch that failed at once is retried after the backoff. One the server ended after a while
    // is opened again at once.
    if (std::chrono::steady_clock::now() - opened < std::chrono::seconds(5)) {
      if (!Sleep(backoff)) return;
      backoff = NextBackoff(backoff);
    } else {
      backoff = kFirstBackoffSeconds;
    }
  }
}

Result<std::string> ListWatch::List() {
  Result<HttpResponse> response = client_.Send({.target = Query("limit=500")});
  if (!response) return Unavailable(response.error_message());
  if (response->status != 200)
    return Unavailable("listing " + Describe() + ": " + StatusMessage(*response));
  nlohmann::json list = ParseJsonOrDiscarded(response->body);
  const std::string listed_version = JsonStringAt(list, {"metadata", "resourceVersion"});
  nlohmann::json* items = list.is_object() && list.contains("items") ? &list["items"] : nullptr;
  if (listed_version.empty() || !items || !items->is_array()) {
    return Unavailable("listing " + Describe() +
                       " gave a body that is not a list with a resourceVersion");
  }
  // A node's slices are few. More than one page means something else is wrong. A partial list would
  // be read as deletions. So it is refused, not used.
  if (!JsonStringAt(list, {"metadata", "continue"}).empty()) {
    return Unavailable("listing " + Describe() +
                       " gave more than 500 objects; refusing a partial list");
  }
  WatchUpdate update{.kind = WatchUpdate::Kind::kReplaceAll};
  for (nlohmann::json& item : *items) {
    if (item.is_object()) update.objects.push_back(std::move(item));
  }
  on_update_(std::move(update));
  return listed_version;
}

bool ListWatch::WatchFrom(std::string& resource_version) {
  bool relist = false;
  std::string ended_by;
  const std::string query =
      Query("watch=true&allowWatchBookmarks=true&resourceVersion=" + UrlEncode(resource_version));
  Result<KubeClient::WatchEnd> end = client_.Watch(
      query,
      [&](std::string_view line) {
        if (relist) return;
        Result<WatchEvent> event = ParseWatchEvent(line);
        if (!event) {
          log_("watch: " + Describe() + ": " + event.error_message() + "; listing again");
          relist = true;
          return;
        }
        switch (event->type) {
          case WatchEvent::Type::kError: {
            const std::string message = JsonStringAt(event->object, {"message"});
            // 410 Gone: the server no longer keeps this version. Any other error event leaves the
            // stream's state unknown too. A new list is the safe answer.
            log_("watch: " + Describe() + ": the server ended the watch: " + message +
                 "; listing again");
            relist = true;
            return;
          }
          case WatchEvent::Type::kBookmark:
            break;
          case WatchEvent::Type::kAdded:
          case WatchEvent::Type::kModified:
            on_update_({.kind = WatchUpdate::Kind::kUpsert, .objects = {event->object}});
            break;
          case WatchEvent::Type::kDeleted:
            on_update_({.kind = WatchUpdate::Kind::kDelete, .objects = {event->object}});
            break;
        }
        resource_version = event->resource_version;
      },
      [&] { return stopping_.load() || relist; });
  if (stopping_) return true;
  if (!end) {
    log_("watch: " + Describe() + ": " + end.error_message() + "; watching again");
    return true;
  }
  if (relist) return false;
  if (end->status == 410) {
    log_("watch: " + Describe() + ": resource version " + resource_version +
         " is gone; listing again");
    return false;
  }
  if (end->status != 200) {
    HttpResponse response{.status = end->status, .body = end->error_body};
    log_("watch: " + Describe() + ": " + StatusMessage(response) + "; listing again");
    return false;
  }
  log_("watch: " + Describe() + " ended by the server; watching again");
  return true;
}

}  // namespace mc::kube
