// The faults a test can ask of the stand-in GPU through FAKENV_FAULT, a comma-separated list:
//   encode-fails-after:N   nvEncEncodePicture answers NV_ENC_ERR_GENERIC from frame N+1 on,
//                          as a GPU that fails mid-job does;
//   engine-dies-after:N    the engine process kills itself after coding N frames, so the
//                          stand-in finds its engine gone, as after a GPU that fell off the bus;
//   unattributed           the engine works, but NVML sees no process behind it: no process
//                          samples and no session in the session list, so a test can see a
//                          job without hardware evidence.
// The stand-ins and the engine read the same variable, so one setting reaches both.
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

// ParseFaults reads a FAKENV_FAULT value; it names the first entry it does not understand
// in `unknown` and returns nullopt, so that a misspelt fault never passes for no fault.
std::optional<Faults> ParseFaults(std::string_view text, std::string_view* unknown = nullptr);

// CurrentFaults is FAKENV_FAULT read once per process; a stand-in that cannot read it says
// why on stderr and aborts.
const Faults& CurrentFaults();

}  // namespace fakenv
