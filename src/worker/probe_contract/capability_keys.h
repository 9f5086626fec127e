// The worker's vendor-neutral capability keys (h264_enc, hevc_enc, ..., max10bit). Also the one
// table that maps a device's published attributes onto them. The pool schedules by these keys,
// whatever the vendor. So a key is true exactly when one of its attributes is.
// docs/worker/status.md prints the same table.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string_view>

#include "probe/devices/device.h"

namespace mc::worker {

struct CapabilityKey {
  // The key as the status document and the probe contract spell it, such as "hevc_enc".
  std::string_view key;
  // The published boolean attributes (capability_table.h); any one of them makes it true. A
  // low-power encoder counts. The worker chooses between the two in its own settings.
  std::array<std::string_view, 3> attributes;
  std::size_t attribute_count = 0;
  // Whether the key is about encoding. A device true for none of these encodes nothing.
  bool encodes = false;
};

inline constexpr std::array<CapabilityKey, 7> kCapabilityKeys{{
    {"h264_enc", {"encodeH264", "encodeH264LowPower"}, 2, true},
    {"hevc_enc", {"encodeHEVCMain", "encodeHEVCMainLowPower"}, 2, true},
    {"av1_enc", {"encodeAV1Main"}, 1, true},
    {"h264_dec", {"decodeH264"}, 1, false},
    {"hevc_dec", {"decodeHEVCMain"}, 1, false},
    {"av1_dec", {"decodeAV1Main"}, 1, false},
    // A 10-bit output. PeerTube keeps a 10-bit source's depth only where an encoder takes it.
    {"max10bit", {"encodeHEVCMain10", "encodeHEVCMain10LowPower", "encodeAV1Main10"}, 3, false},
}};

// CapabilityFlags holds one value per row of kCapabilityKeys, in its order.
using CapabilityFlags = std::array<bool, kCapabilityKeys.size()>;

// CapabilityFlagsOf reads the table against a device's boolean attributes. An attribute the device
// does not publish counts as false.
CapabilityFlags CapabilityFlagsOf(const probe::Device& device);
// The same, for attributes known by name only: a device read back from its JSON form.
CapabilityFlags CapabilityFlagsOf(const std::function<bool(std::string_view)>& attribute_true);

// EncodesAnything says whether any encode key is true.
bool EncodesAnything(const CapabilityFlags& flags);

}  // namespace mc::worker
