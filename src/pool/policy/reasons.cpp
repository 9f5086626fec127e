#include "pool/policy/reasons.h"

#include <array>
#include <cstdio>

namespace mc::pool {

namespace {

using R = ReasonCode;

constexpr ReasonTemplate kReasons[] = {
    {R::kJoined, "joined", "{worker} joined the pool as SPARE with the class-prior weight"},
    {R::kStatusUnreadable, "status-unreadable",
     "{worker} status unreadable: counted as no capacity, and not demoted"},
    {R::kFaultDrain, "fault-drain", "{worker} drained at once: {fault} (bypasses hysteresis)"},
    {R::kCooldown, "cooldown",
     "{worker} to COOLDOWN until {until}: {count} faults within {window}"},
    {R::kCooldownOver, "cooldown-over",
     "{worker} back to SPARE: cooldown over and its probe is green"},
    {R::kDrained, "drained", "{worker} back to SPARE: drained, no job left on it"},
    {R::kAdmissionReconciled, "admission-reconciled",
     "{worker} drained: it admits jobs while the pool holds it {state}"},
    {R::kVendorDisabled, "vendor-disabled",
     "{worker} drained at once: vendor {vendor} is disabled"},
    {R::kQueueLost, "queue-lost",
     "queue signal {how} for {age}: holding, no scale-down on missing data"},
    {R::kClassUnservable, "class-unservable",
     "class {class}: {count} pending job(s) no worker can serve ({gates}); not counted as demand"},
    {R::kClassGated, "class-gated",
     "class {class}: {count} pending job(s) and no ACTIVE worker passes its gates ({gates})"},
    {R::kClassStarting, "class-starting",
     "class {class}: {count} pending job(s) wait for {workers} starting worker(s) that pass its "
     "gates; no scale-down meanwhile"},
    {R::kSessionShift, "session-shift",
     "{worker} takes no S or M jobs for now: NVENC sessions {active} of {cap}; VA-API workers take "
     "them"},
    {R::kSessionShiftOver, "session-shift-over",
     "{worker} takes S and M jobs again: NVENC sessions {active} of {cap}"},
    {R::kJobsListed, "jobs-listed",
     "{worker} takes only the {count} pending job(s) listed for it, which its classes {classes} "
     "and its GPU allow"},
    {R::kBelowMinActive, "below-min-active",
     "{worker} promoted to ACTIVE at concurrency {concurrency}: {active} ACTIVE, min_active is "
     "{min}"},
    {R::kPromoted, "promoted",
     "{worker} promoted to ACTIVE at concurrency {concurrency}: P {p} >= {threshold} for "
     "{sustained}, highest weight {weight} for class {class}"},
    {R::kPressureBelowUp, "pressure-below-up",
     "no promotion: P {p} is below the up threshold {threshold}"},
    {R::kPressureNotSustained, "pressure-not-sustained",
     "no promotion yet: P {p} >= {threshold} for {sustained} of {needed}"},
    {R::kPromotionSpacing, "promotion-spacing",
     "no promotion yet: {since} since the last promotion (needs {needed})"},
    {R::kCapacityStarting, "capacity-starting",
     "no promotion: capacity starting: class {class} waits for {workers} starting worker(s); "
     "with their {slots} slot(s) P reads {p}, below {threshold}"},
    {R::kProbeStale, "probe-stale",
     "{worker} not promoted: its last probe is {age} old (needs less than {max})"},
    {R::kProbeRed, "probe-red", "{worker} not promoted: its last probe failed"},
    {R::kProbeRequested, "probe-requested",
     "{worker} asked to probe: it is a promotion candidate and its probe is {age} old"},
    {R::kNoCandidate, "no-candidate",
     "no promotion: P {p} but no SPARE or WARM worker can be promoted{detail}"},
    {R::kDemoted, "demoted",
     "{worker} demoted (drain, then SPARE): P {p} <= {threshold} for {sustained}, idle {idle}, "
     "lowest weight {weight}"},
    {R::kDemotionNotSustained, "demotion-not-sustained",
     "no demotion yet: P {p} <= {threshold} for {sustained} of {needed}"},
    {R::kWorkEnabled, "work-enabled",
     "{worker} enabled at concurrency {concurrency}, its service up: {work} of 1080p30 encoding "
     "queued for class {class} needs {needed}x real time to finish within {target}; the ACTIVE "
     "workers give {rate}x"},
    {R::kWorkReleased, "work-released",
     "{worker} drained, its service up, finishing its {jobs} job(s): the other ACTIVE workers keep "
     "a free slot for each pending job and {rate}x real time, enough for the {work} of 1080p30 "
     "encoding queued within {target}"},
    {R::kTargetWaitMissed, "target-wait-missed",
     "the oldest pending job has waited {oldest}, past the target wait {target}: {why}"},
    {R::kDemotionWaitsIdle, "demotion-waits-idle",
     "no demotion: no ACTIVE worker has been idle for {needed} (the longest: {idle})"},
    {R::kMinActive, "min-active", "no demotion: {active} ACTIVE worker(s), min_active is {min}"},
    {R::kWoken, "woken",
     "{worker} woken over the LAN: P {p} >= {threshold} for {sustained} and no SPARE or WARM "
     "worker is left"},
    {R::kWorkWoken, "work-woken",
     "{worker} woken over the LAN: the {work} of 1080p30 encoding queued and to come keeps every "
     "worker that is up busy for {busy}, longer than {outlast}; no SPARE or WARM worker is left"},
    {R::kWakeNotSustained, "wake-not-sustained",
     "no wake yet: P {p} >= {threshold} for {sustained} of {needed}"},
    {R::kWakeSpareLeft, "wake-spare-left",
     "no wake: {count} SPARE or WARM worker(s) are not ACTIVE yet"},
    {R::kWakeConcurrent, "wake-concurrent", "no wake: {count} wake(s) in progress (at most {max})"},
    {R::kWakeSpacing, "wake-spacing", "no wake yet: {since} since the last wake (needs {needed})"},
    {R::kWakeDailyCap, "wake-daily-cap",
     "{worker} not woken: {count} wakes in the last day (at most {max})"},
    {R::kWakeOnBattery, "wake-on-battery", "{worker} not woken: it runs on battery"},
    {R::kWakeNoBox, "wake-no-box", "no wake: no COLD box can be woken"},
    {R::kAwake, "awake", "{worker} awake: status readable and probe green; now SPARE"},
    {R::kWakeTimedOut, "wake-timed-out",
     "{worker} did not come up within {timeout} of its wake; left COLD"},
    {R::kSuspended, "suspended", "{worker} suspended (COLD): SPARE, no job, idle for {idle}"},
};

}  // namespace

std::span<const ReasonTemplate> ReasonTable() { return kReasons; }

const ReasonTemplate& ReasonRow(ReasonCode code) {
  for (const ReasonTemplate& row : kReasons) {
    if (row.code == code) return row;
  }
  return kReasons[0];
}

Reason MakeReason(ReasonCode code, std::string worker, std::initializer_list<ReasonArg> args) {
  const std::string_view text = ReasonRow(code).text;
  std::string filled;
  filled.reserve(text.size() + 32);
  for (std::size_t i = 0; i < text.size();) {
    if (text[i] == '{') {
      const std::size_t close = text.find('}', i);
      const std::string_view name = text.substr(i + 1, close - i - 1);
      const std::string* value = nullptr;
      if (name == "worker") value = &worker;
      for (const ReasonArg& arg : args) {
        if (name == arg.first) value = &arg.second;
      }
      if (value && close != std::string_view::npos) {
        filled += *value;
        i = close + 1;
        continue;
      }
    }
    filled += text[i++];
  }
  return Reason{code, std::move(worker), std::move(filled)};
}

std::string FormatPressure(double pressure) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", pressure);
  return text;
}

std::string FormatNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace mc::pool
