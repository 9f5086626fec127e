#include "pool/kube/kubernetes_channel.h"

#include <iostream>
#include <utility>

#include "pool/policy/reasons.h"

namespace mc::pool {
namespace {

// A scale is written against the version it was read at.
// So a change made meanwhile fails the write instead of being overwritten.
// Such a change comes from another writer, or the controller's own status writes.
// A conflict is retried a few times with a fresh read, before it is an error.
// The fresh read checks again what the write depends on.
constexpr int kScaleAttempts = 5;

bool IsScale(pool::ActionKind kind) {
  return kind == pool::ActionKind::kWake || kind == pool::ActionKind::kSuspend;
}

// The policy's reason for the action, by its stable id, so that an Event can be matched with
// the manager's log and docs/pool/design.md's table.
std::string PolicyReason(const pool::Action& action) {
  return std::string(" (policy: ") + pool::ReasonRow(action.reason).id + ")";
}

}  // namespace

std::string EventReason(pool::ActionKind kind) {
  switch (kind) {
    case pool::ActionKind::kEnable:
      return "WorkerEnabled";
    case pool::ActionKind::kDrain:
      return "WorkerDraining";
    case pool::ActionKind::kSetClasses:
      return "WorkerClassesSet";
    case pool::ActionKind::kProbe:
      return "WorkerProbed";
    case pool::ActionKind::kWake:
      return "ScaledUp";
    case pool::ActionKind::kSuspend:
      return "ScaledDown";
  }
  return "WorkerAction";
}

std::string FailedEventReason(pool::ActionKind kind) {
  switch (kind) {
    case pool::ActionKind::kEnable:
      return "EnableFailed";
    case pool::ActionKind::kDrain:
      return "DrainFailed";
    case pool::ActionKind::kSetClasses:
      return "SetClassesFailed";
    case pool::ActionKind::kProbe:
      return "ProbeFailed";
    case pool::ActionKind::kWake:
      return "ScaleUpFailed";
    case pool::ActionKind::kSuspend:
      return "ScaleDownFailed";
  }
  return "WorkerActionFailed";
}

KubernetesChannel::KubernetesChannel(KubernetesPool& pool, pool::ControlChannel& workers,
                                     KubernetesChannelSettings settings)
    : pool_(pool), workers_(workers), settings_(std::move(settings)) {}

Result<void> KubernetesChannel::Apply(const pool::Action& action,
                                      const pool::WorkerEndpoint& worker) {
  const std::string what = worker.name + ": " + std::string(pool::ActionKindName(action.kind));
  std::string done;
  Result<void> result = Ok();
  if (action.kind == pool::ActionKind::kWake) {
    result = ScaleUp(done);
  } else if (action.kind == pool::ActionKind::kSuspend) {
    result = ScaleDown(worker, done);
  } else {
    result = workers_.Apply(action, worker);
    done = workers_.Describe(action, worker);
  }
  if (!result) {
    // The worker's channel names the worker and the action itself; a scale error is ours.
    Error error = result.error();
    if (IsScale(action.kind)) error = std::move(error).WithContext(what);
    Record(EventType::kWarning, FailedEventReason(action.kind),
           error.message + PolicyReason(action));
    return error;
  }
  Record(EventType::kNormal, EventReason(action.kind), what + ": " + done + PolicyReason(action));
  return Ok();
}

std::string KubernetesChannel::Describe(const pool::Action& action,
                                        const pool::WorkerEndpoint& worker) const {
  if (action.kind == pool::ActionKind::kWake)
    return "scale the StatefulSet up by one replica (PUT .../scale), for " + worker.name;
  if (action.kind == pool::ActionKind::kSuspend)
    return "scale the StatefulSet down by one replica (PUT .../scale), removing " + worker.name +
           " if it is the highest ordinal";
  return workers_.Describe(action, worker);
}

Result<void> KubernetesChannel::ScaleUp(std::string& done) {
  Result<void> written = Ok();
  for (int attempt = 0; attempt < kScaleAttempts; ++attempt) {
    Result<Scale> scale = pool_.ReadScale();
    if (!scale) return scale.error();
    const int to = scale->replicas + 1;
    written = pool_.WriteScale(to, scale->resource_version);
    if (written) {
      done = "scaled from " + std::to_string(scale->replicas) + " to " + std::to_string(to) +
             " replicas";
      return Ok();
    }
    if (!written.error().IsConflict()) return written;
  }
  return written;
}

Result<void> KubernetesChannel::ScaleDown(const pool::WorkerEndpoint& worker, std::string& done) {
  Result<std::vector<WorkerPod>> pods = pool_.WorkerPods();
  if (!pods) return pods.error();
  const WorkerPod* pod = nullptr;
  for (const WorkerPod& candidate : *pods) {
    if (RunnerNameOf(candidate) == worker.name) pod = &candidate;
  }
  if (!pod) return NotFound("no pod of the StatefulSet is this worker");
  Result<void> written = Ok();
  for (int attempt = 0; attempt < kScaleAttempts; ++attempt) {
    Result<Scale> scale = pool_.ReadScale();
    if (!scale) return scale.error();
    // A StatefulSet scaled down removes its highest ordinal, whichever worker that is.
    // Giving back a replica for another worker would stop one the policy did not choose.
    const int highest = scale->replicas - 1;
    if (pod->ordinal != highest) {
      return Unsupported("pod " + pod->name + " is ordinal " + std::to_string(pod->ordinal) +
                         ", but a StatefulSet of " + std::to_string(scale->replicas) +
                         " replicas gives back ordinal " + std::to_string(highest) +
                         " first; suspend that worker first, or keep this one drained");
    }
    written = pool_.WriteScale(highest, scale->resource_version);
    if (written) {
      done = "scaled from " + std::to_string(scale->replicas) + " to " + std::to_string(highest) +
             " replicas, removing pod " + pod->name;
      return Ok();
    }
    if (!written.error().IsConflict()) return written;
  }
  return written;
}

void KubernetesChannel::Record(EventType type, const std::string& reason,
                               const std::string& message) {
  Result<void> recorded = pool_.RecordEvent(type, reason, message);
  if (recorded) return;
  const std::string line =
      "pool: the " + reason + " Event could not be recorded: " + recorded.error_message();
  if (settings_.log) {
    settings_.log(line);
  } else {
    std::cerr << line << '\n';
  }
}

}  // namespace mc::pool
