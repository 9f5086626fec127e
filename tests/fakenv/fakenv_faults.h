// The faults a test can ask of the fake GPU.
// FAKENV_FAULT holds them as a comma-separated list:
//  - encode-fails-after:N: nvEncEncodePicture answers NV_ENC_ERR_GENERIC from frame N+1 on.
//    A GPU that fails mid-job does that.
//  - engine-dies-after:N: the engine process kills itself after coding N frames.
//    The fake finds its engine gone, as after a GPU that fell off the bus.
//  - unattributed: the engine works, but NVML sees no process behind it.
//    There are no process samples and no session in the session list.
//    So a test can see a job without hardware evidence.
// The fakes and the engine read the same variable, so one setting reaches both.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace fakenv {

struct Faults {
  std::optional<std::uint64_t> encode_fails_after;
  std::optional<std::uint64_t> engine_dies_after;
  bool unattributed = false;
};

// ParseFaults reads a FAKENV_FAULT value.
// It names the first entry it does not understand in `unknown`, and returns nullopt.
// So a misspelt fault never passes for no fault.
std::optional<Faults> ParseFaults(std::string_view text, std::string_view* unknown = nullptr);

// CurrentFaults is FAKENV_FAULT read once per process; a fake that cannot read it says
// why on stderr and aborts.
const Faults& CurrentFaults();

}  // namespace fakenv
