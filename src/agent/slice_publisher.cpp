#include "agent/slice_publisher.h"

#include <algorithm>

#include "facts/json_path.h"

namespace mc {
namespace {

// How many fresh reads one pass makes after conflicts before it backs off: a second
// writer that edits the slice faster than this is fought with a backoff, not a busy loop.
constexpr int kConflictRounds = 5;

}  // namespace

SlicePublisher::SlicePublisher(SliceApi& api, std::string driver, std::string node, Log log)
    : api_(api), owner_{.driver = std::move(driver), .node_name = std::move(node)}, log_(std::move(log)) {}

void SlicePublisher::Apply(const kube::WatchUpdate& update) {
  kube::ApplyWatchUpdate(update, slices_);
  if (update.kind == kube::WatchUpdate::Kind::kReplaceAll) listed_ = true;
}

std::chrono::seconds SlicePublisher::Failed(const ApiFailure& failure) {
  const std::chrono::seconds wait = backoff_.Next(failure.retry_after);
  log_("api: " + failure.message + "; retrying in " + std::to_string(wait.count()) + " s");
  return wait;
}

bool SlicePublisher::RefreshNodeUid(std::optional<std::chrono::seconds>& wait) {
  ApiAnswer node = api_.GetNode(owner_.node_name);
  std::string uid;
  if (!node.failure) {
    uid = JsonStringAt(node.object, {"metadata", "uid"});
    if (uid.empty()) node.failure = ApiFailure{.message = "GET node " + owner_.node_name + ": the answer has no UID"};
  }
  if (node.failure) {
    wait = Failed(*node.failure);
    return false;
  }
  if (uid != owner_.node_uid) {
    if (!owner_.node_uid.empty()) log_("slice: node " + owner_.node_name + " has a new UID " + uid);
    owner_.node_uid = uid;
  }
  return true;
}

bool SlicePublisher::Relist(std::optional<std::chrono::seconds>& wait) {
  ApiAnswer list = api_.ListSlices(owner_.driver, owner_.node_name);
  if (list.failure) {
    wait = Failed(*list.failure);
    return false;
  }
  kube::WatchUpdate update{.kind = kube::WatchUpdate::Kind::kReplaceAll};
  if (const nlohmann::json* items = JsonAt(list.object, {"items"}); items && items->is_array()) {
    for (const nlohmann::json& item : *items) {
      if (item.is_object()) update.objects.push_back(item);
    }
  }
  Apply(update);
  return true;
}

void SlicePublisher::Stored(const SliceWrite& write, const nlohmann::json& stored) {
  if (write.kind == SliceWrite::Kind::kDelete) {
    slices_.erase(write.name);
    stored_forms_.erase(write.name);
    log_("slice: deleted " + write.name);
    return;
  }
  slices_[write.name] = stored;
  const nlohmann::json* stored_spec = JsonAt(stored, {"spec"});
  stored_forms_[write.name] = {.sent_spec = write.object["spec"], .stored_spec = stored_spec ? *stored_spec : nlohmann::json()};
  log_(std::string("slice: ") + (write.kind == SliceWrite::Kind::kCreate ? "created " : "updated ") + write.name +
       " at generation " + std::to_string(write.generation) + " with " + std::to_string(write.device_count) +
       (write.device_count == 1 ? " device" : " devices"));
  for (const std::string& field : SliceDifferences(write.object, stored)) {
    log_("slice: warning: what the server stored of " + write.name + " differs from what was sent at " + field +
         "; an apiserver drops the fields of a feature gate that is off");
  }
}

std::optional<std::chrono::seconds> SlicePublisher::Publish(const std::vector<Device>& devices) {
  std::optional<std::chrono::seconds> wait;
  if (owner_.node_uid.empty() && !RefreshNodeUid(wait)) return wait;
  for (int round = 0; round < kConflictRounds; ++round) {
    std::vector<SliceWrite> writes = PlanSliceWrites(owner_, devices, slices_, stored_forms_);
    if (writes.empty()) {
      backoff_.Reset();
      return std::nullopt;
    }
    // A create reads the Node first: a Node deleted and made again has a new UID, and a
    // slice owned by the old one would be deleted by the garbage collector at once.
    const bool creates = std::ranges::any_of(writes, [](const SliceWrite& w) { return w.kind == SliceWrite::Kind::kCreate; });
    if (creates) {
      const std::string before = owner_.node_uid;
      if (!RefreshNodeUid(wait)) return wait;
      if (owner_.node_uid != before) writes = PlanSliceWrites(owner_, devices, slices_, stored_forms_);
    }
    bool replan = false;
    for (const SliceWrite& write : writes) {
      ApiAnswer answer = api_.Write(write);
      if (!answer.failure) {
        Stored(write, answer.object);
        continue;
      }
      if (answer.failure->kind == ApiFailure::Kind::kOther) return Failed(*answer.failure);
      // A conflict, or a slice gone since it was read: read afresh and plan again.
      log_("slice: " + answer.failure->message + "; reading the slices again");
      if (!Relist(wait)) return wait;
      replan = true;
      break;
    }
    if (!replan) {
      backoff_.Reset();
      return std::nullopt;
    }
  }
  return Failed({.message = "the slices still conflicted after " + std::to_string(kConflictRounds) + " fresh reads"});
}

}  // namespace mc
