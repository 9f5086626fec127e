// The demand on the pool, whatever the profile. The pending jobs are bucketed by need.
// Each bucket counts the workers that serve it, and gets its pressure index P.
#include <algorithm>
#include <string>

#include "pool/policy/policy_cycle.h"
#include "pool/policy/pressure.h"
#include "pool/policy/work.h"

namespace mc::pool::internal {

// P over the workers eligible for each class. A class's P weighs:
//  - its pending jobs against the slots of the ACTIVE workers that pass its gates;
//  - its oldest job's age.
// Workers still starting count. P is the highest of the classes'.
// A class no worker of the pool could ever run is reported and counts for nothing.
// So one job nobody can encode keeps nobody awake.
void Cycle::MeasurePressure() {
  const int slots = MarkEligible();
  BucketPendingJobs();
  int demand = 0;
  for (Bucket& bucket : buckets_) {
    CountSlotsFor(bucket);
    bucket.servable = bucket.slots + bucket.starting_slots > 0 || AnyWorkerCould(bucket.need);
    if (!ReportBucket(bucket)) continue;
    bucket.pressure = PressureIndex(bucket.count, bucket.slots + bucket.starting_slots,
                                    bucket.oldest, config_.pressure);
    demand += bucket.count;
    decision_.pressure = std::max(decision_.pressure, bucket.pressure);
  }
  decision_.capacity_slots = slots;
  decision_.demand = demand;
}

// Marks the ACTIVE workers that take jobs, and those still starting.
// Returns the slots of those that take jobs.
int Cycle::MarkEligible() {
  int slots = 0;
  starting_.assign(state().workers.size(), false);
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    const WorkerStatus* status = Readable(i);
    const bool active = state().workers[i].state == ManagerState::kActive && status &&
                        !VendorDisabled(*status) && !IsFault(status->state);
    eligible_[i] = active && IsServing(status->state);
    starting_[i] = active && status->state == AdmissionState::kDrained;
    if (eligible_[i]) slots += std::max(0, status->concurrency);
  }
  return slots;
}

// Sorts the pending jobs into one bucket per need, in the order the needs first appear.
void Cycle::BucketPendingJobs() {
  for (const PendingJob& job : signals_.queue.pending) {
    const JobNeed need = NeedOf(job.shape, config_.gates);
    auto bucket = std::find_if(buckets_.begin(), buckets_.end(),
                               [&](const Bucket& b) { return b.need == need; });
    if (bucket == buckets_.end()) bucket = buckets_.insert(buckets_.end(), Bucket{need});
    ++bucket->count;
    bucket->waited += job.age >= Patience();
    bucket->oldest = std::max(bucket->oldest, job.age);
    bucket->work_s += ReferenceEncodeSeconds(job.shape);
    bucket->to_come_s += ChildrenOf(job.type, job.shape).seconds;
  }
}

// Counts the slots of the ACTIVE workers, taking jobs or starting, that serve `bucket`.
void Cycle::CountSlotsFor(Bucket& bucket) {
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    if (!eligible_[i] && !starting_[i]) continue;
    const WorkerStatus& status = *status_[i];
    if (!PassesHardGates(bucket.need, status)) continue;
    bucket.active_hard = true;
    if (!Counts(i, bucket.need)) continue;
    const int concurrency = std::max(1, status.concurrency);
    if (eligible_[i]) {
      bucket.slots += concurrency;
    } else {
      bucket.starting_slots += concurrency;
      ++bucket.starting_workers;
    }
  }
}

// Says why a class's jobs wait, if they wait for more than a free slot.
// Returns whether any worker could serve the class.
bool Cycle::ReportBucket(const Bucket& bucket) {
  const std::string words = GateWords(bucket.need, config_.gates);
  const std::string class_name(JobClassName(bucket.need.job_class));
  const std::string count = std::to_string(bucket.count);
  if (!bucket.servable) {
    AddReason(MakeReason(ReasonCode::kClassUnservable, "",
                         {{"class", class_name}, {"count", count}, {"gates", words}}));
    return false;
  }
  if (bucket.Waiting()) {
    AddReason(MakeReason(ReasonCode::kClassGated, "",
                         {{"class", class_name}, {"count", count}, {"gates", words}}));
  } else if (bucket.slots == 0) {
    waits_for_starting_ = true;
    AddReason(MakeReason(ReasonCode::kClassStarting, "",
                         {{"class", class_name},
                          {"count", count},
                          {"workers", std::to_string(bucket.starting_workers)}}));
  }
  return true;
}

// Whether some worker of the pool could run a job of `need` at all, by its hard gates.
// They are judged by its status, or by the inventory for a box that sleeps.
// One that is busy, drained, faulty or in cooldown counts.
// The job waits for it rather than for nothing.
bool Cycle::AnyWorkerCould(const JobNeed& need) const {
  for (std::size_t i = 0; i < state().workers.size(); ++i) {
    const WorkerStatus* status = status_[i];
    if (!status || VendorDisabled(*status)) continue;
    const bool cold_box = state().workers[i].state == ManagerState::kCold && status->wakeable;
    if ((status->readable || cold_box) && PassesHardGates(need, *status)) return true;
  }
  return false;
}

// Whether candidate `i` can serve the class `waiting` needs a worker for, by its gates.
// Where no ACTIVE worker even passes the hard gates, by those alone.
// A soft gate that no worker passes must not leave the job to nobody.
bool Cycle::Serves(const Bucket& waiting, std::size_t i) const {
  if (Counts(i, waiting.need)) return true;
  return !waiting.active_hard && PassesHardGates(waiting.need, *status_[i]);
}

// Whether candidate `i` serves some class with a job pending, by Serves.
// A worker is never brought in for jobs it cannot run.
bool Cycle::ServesPending(std::size_t i) const {
  return std::any_of(buckets_.begin(), buckets_.end(), [&](const Bucket& bucket) {
    return bucket.servable && bucket.count > 0 && Serves(bucket, i);
  });
}

bool Cycle::IsSmall(JobClass job_class) {
  return job_class == JobClass::kS || job_class == JobClass::kM;
}

// Whether worker `i` counts as capacity for `need`. It must pass the need's gates.
// And it must not be an NVIDIA worker whose S and M jobs are shifted to VA-API.
// That worker's gate takes none of them.
bool Cycle::Counts(std::size_t i, const JobNeed& need) const {
  const WorkerRecord& record = state().workers[i];
  if (IsSmall(need.job_class) && record.small_jobs_shifted) return false;
  return PassesGates(need, *status_[i], Weight(record, need.job_class), config_.gates);
}

}  // namespace mc::pool::internal
