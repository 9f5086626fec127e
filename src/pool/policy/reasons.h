// Every reason the policy gives, for an action or for holding back, is a table row:
//  - a code to branch and count on;
//  - a stable id;
//  - a sentence with {named} blanks.
// The table is data defined once. docs/pool/design.md lists every row.
// A test checks it does.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace mc::pool {

enum class ReasonCode {
  kJoined,
  kStatusUnreadable,
  kFaultDrain,
  kCooldown,
  kCooldownOver,
  kDrained,
  kAdmissionReconciled,
  kVendorDisabled,
  kQueueLost,
  kClassUnservable,
  kClassGated,
  kClassStarting,
  kSessionShift,
  kSessionShiftOver,
  kJobsListed,
  kBelowMinActive,
  kPromoted,
  kPressureBelowUp,
  kPressureNotSustained,
  kPromotionSpacing,
  kCapacityStarting,
  kProbeStale,
  kProbeRed,
  kProbeRequested,
  kNoCandidate,
  kDemoted,
  kDemotionNotSustained,
  kWorkEnabled,
  kWorkReleased,
  kTargetWaitMissed,
  kDemotionWaitsIdle,
  kMinActive,
  kWoken,
  kWorkWoken,
  kWakeNotSustained,
  kWakeSpareLeft,
  kWakeConcurrent,
  kWakeSpacing,
  kWakeDailyCap,
  kWakeOnBattery,
  kWakeNoBox,
  kAwake,
  kWakeTimedOut,
  kSuspended,
};

struct ReasonTemplate {
  ReasonCode code;
  const char* id;
  const char* text;  // {name} marks a blank
};

// Every row, in the order docs/pool/design.md lists them.
std::span<const ReasonTemplate> ReasonTable();
const ReasonTemplate& ReasonRow(ReasonCode code);

using ReasonArg = std::pair<const char*, std::string>;

// Reason is one filled row: the code, the worker it is about (empty for the pool), and the
// sentence with its blanks filled.
struct Reason {
  ReasonCode code;
  std::string worker;
  std::string text;
};

// MakeReason fills the row of `code`; a blank without an argument stays as it is written.
Reason MakeReason(ReasonCode code, std::string worker, std::initializer_list<ReasonArg> args);

// Two decimals, the form every pressure and threshold in a reason takes.
std::string FormatPressure(double pressure);
// The shortest form of a number ("%g"), for gates and configuration values.
std::string FormatNumber(double value);

}  // namespace mc::pool
