#include "dra/agent/slice_publisher.h"

#include <algorithm>

#include "common/base/json_path.h"

namespace mc::dra {
namespace {

// How many fresh reads one pass makes after conflicts before it backs off.
// A second writer that edits the slice faster is met with a backoff, not a busy loop.
constexpr int kConflictRounds = 5;

}  // namespace

SlicePublisher::SlicePublisher(SliceApi& api, std::string driver, std::string node, Log log)
    : api_(api),
      owner_{.driver = std::move(driver), .node_name = std::move(node)},
      log_(std::move(log)) {}

void SlicePublisher::Apply(const kube::WatchUpdate& update) {
  kube::ApplyWatchUpdate(update, slices_);
  if (update.kind == kube::WatchUpdate::Kind::kReplaceAll) listed_ = true;
}

Error SlicePublisher::Failed(Error failure) {
  const std::chrono::seconds wait = backoff_.Next(failure.retry_after);
  log_("api: " + failure.message + "; retrying in " + std::to_string(wait.count()) + " s");
  failure.retry_after = wait;
  return failure;
}

Result<void> SlicePublisher::RefreshNodeUid() {
  Result<nlohmann::json> node = api_.GetNode(owner_.node_name);
  if (!node) return Failed(node.error());
  const std::string uid = JsonStringAt(*node, {"metadata", "uid"});
  if (uid.empty())
    return Failed(Unavailable("GET node " + owner_.node_name + ": the answer has no UID"));
  if (uid != owner_.node_uid) {
    if (!owner_.node_uid.empty()) log_("slice: node " + owner_.node_name + " has a new UID " + uid);
    owner_.node_uid = uid;
  }
  return Ok();
}

Result<void> SlicePublisher::Relist() {
  Result<nlohmann::json> list = api_.ListSlices(owner_.driver, owner_.node_name);
  if (!list) return Failed(list.error());
  kube::WatchUpdate update{.kind = kube::WatchUpdate::Kind::kReplaceAll};
  if (const nlohmann::json* items = JsonAt(*list, {"items"}); items && items->is_array()) {
    for (const nlohmann::json& item : *items) {
      if (item.is_object()) update.objects.push_back(item);
    }
  }
  Apply(update);
  return Ok();
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
  stored_forms_[write.name] = {.sent_spec = write.object["spec"],
                               .stored_spec = stored_spec ? *stored_spec : nlohmann::json()};
  log_(std::string("slice: ") +
       (write.kind == SliceWrite::Kind::kCreate ? "created " : "updated ") + write.name +
       " at generation " + std::to_string(write.generation) + " with " +
       std::to_string(write.device_count) + (write.device_count == 1 ? " device" : " devices"));
  for (const std::string& field : SliceDifferences(write.object, stored)) {
    log_("slice: warning: what the server stored of " + write.name +
         " differs from what was sent at " + field +
         "; an apiserver drops the fields of a feature gate that is off");
  }
}

Result<void> SlicePublisher::Publish(const std::vector<probe::Device>& devices) {
  if (owner_.node_uid.empty()) {
    if (Result<void> refreshed = RefreshNodeUid(); !refreshed) return refreshed;
  }
  for (int round = 0; round < kConflictRounds; ++round) {
    std::vector<SliceWrite> writes = PlanSliceWrites(owner_, devices, slices_, stored_forms_);
    if (writes.empty()) {
      backoff_.Reset();
      return Ok();
    }
    // A create reads the Node first.
    // A Node deleted and made again has a new UID.
    // The garbage collector would at once delete a slice owned by the old one.
    const bool creates = std::ranges::any_of(
        writes, [](const SliceWrite& w) { return w.kind == SliceWrite::Kind::kCreate; });
    if (creates) {
      const std::string before = owner_.node_uid;
      if (Result<void> refreshed = RefreshNodeUid(); !refreshed) return refreshed;
      if (owner_.node_uid != before)
        writes = PlanSliceWrites(owner_, devices, slices_, stored_forms_);
    }
    bool replan = false;
    for (const SliceWrite& write : writes) {
      Result<nlohmann::json> answer = api_.Write(write);
      if (answer) {
        Stored(write, *answer);
        continue;
      }
      if (!answer.error().IsConflict() && !answer.error().IsNotFound())
        return Failed(answer.error());
      // A conflict, or a slice gone since it was read: read afresh and plan again.
      log_("slice: " + answer.error_message() + "; reading the slices again");
      if (Result<void> relisted = Relist(); !relisted) return relisted;
      replan = true;
      break;
    }
    if (!replan) {
      backoff_.Reset();
      return Ok();
    }
  }
  return Failed(Conflict("the slices still conflicted after " + std::to_string(kConflictRounds) +
                         " fresh reads"));
}

}  // namespace mc::dra
