// ListWatch keeps the caller told of every object in one collection that a field selector picks. It
// works as client-go's informers do:
// - it lists the objects;
// - it watches from the list's resource version;
// - it lists again only when the server says that version is gone (410).
//
// It runs on a thread of its own and hands each change to a callback there.
//
// A failed list or watch is retried after a backoff: 1 s, doubling to 1 min. A watch the server
// ends is opened again from the last version seen. The server ends one at its timeout or a restart.
// So nothing is missed. While nothing changes, the open watch is the only request.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "common/kube/kube_client.h"

namespace mc::kube {

struct WatchUpdate {
  enum class Kind {
    // A list's result: `objects` is now the whole collection.
    kReplaceAll,
    // `objects` holds one object that was added or changed.
    kUpsert,
    // `objects` holds one object that was deleted.
    kDelete,
  };
  Kind kind = Kind::kReplaceAll;
  std::vector<nlohmann::json> objects;
};

struct ListWatchTarget {
  // The collection, such as "/apis/resource.k8s.io/v1/resourceslices".
  std::string collection;
  // Such as "spec.driver=liken.sh,spec.nodeName=worker-1"; empty for every object.
  std::string field_selector;
};

class ListWatch {
 public:
  using OnUpdate = std::function<void(WatchUpdate)>;
  using Log = std::function<void(const std::string&)>;

  // The client must outlive the ListWatch.
  ListWatch(KubeClient& client, ListWatchTarget target, OnUpdate on_update, Log log);
  ~ListWatch();
  ListWatch(const ListWatch&) = delete;
  ListWatch& operator=(const ListWatch&) = delete;

  void Start();
  // Stop ends the watch within about a second and joins the thread.
  void Stop();

  // What the log calls this watch: "resourceslices spec.driver=liken.sh,...".
  std::string Describe() const;

 private:
  void Run();
  // Lists the collection and hands the objects on. Gives the list's resourceVersion.
  Result<std::string> List();
  // Watches from `resource_version`. Gives false when the caller must list again.
  bool WatchFrom(std::string& resource_version);
  // Waits out `seconds` unless Stop comes first. Gives false if it did.
  bool Sleep(int seconds);
  std::string Query(const std::string& extra) const;

  KubeClient& client_;
  ListWatchTarget target_;
  OnUpdate on_update_;
  Log log_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

// ApplyWatchUpdate applies one update to a copy of the collection, by object name. Each watcher of
// a ListWatch keeps such a copy.
void ApplyWatchUpdate(const WatchUpdate& update, std::map<std::string, nlohmann::json>& objects);

// UrlEncode escapes a query parameter's value. RFC 3986's unreserved characters stay.
std::string UrlEncode(const std::string& value);

}  // namespace mc::kube
