// Fixed-layout parsers read what the fakes, their engine and the state directory hold:
//  - the engine's wire messages (engine_wire.h);
//  - the client and sample records (fakenv_state.h);
//  - FAKENV_FAULT.
// Any bytes must give a value or nothing, never a crash.
// A value given must satisfy the parser's own promises.
#include <cstdint>
#include <span>
#include <string_view>

#include "engine_wire.h"
#include "fakenv_faults.h"
#include "fakenv_state.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace wire = fakenv::wire;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  if (std::optional<wire::Header> header = wire::ParseHeader(bytes)) {
    if (header->payload_size > wire::kLargestPayload) __builtin_trap();
  }
  wire::ParseEncoderSettings(bytes);
  wire::ParseDecoderSettings(bytes);
  wire::ParsePacketHeader(bytes);
  if (std::optional<wire::FrameHeader> frame = wire::ParseFrameHeader(bytes)) {
    if (size != sizeof(wire::FrameHeader) +
                    wire::PictureBytes(frame->format, frame->pitch, frame->height)) {
      __builtin_trap();
    }
  }
  if (std::optional<wire::UnitHeader> unit = wire::ParseUnitHeader(bytes, true)) {
    if (unit->pitch < unit->width) __builtin_trap();
  }
  wire::ParseUnitHeader(bytes, false);
  if (std::optional<wire::ScaleHeader> scale = wire::ParseScaleHeader(bytes)) {
    if (scale->crop_x + scale->crop_width > scale->source.width ||
        scale->crop_y + scale->crop_height > scale->source.height) {
      __builtin_trap();
    }
  }
  fakenv::DecodeClientRecord(bytes);
  for (const fakenv::Sample& sample : fakenv::DecodeSamples(bytes)) {
    if (sample.enc_util > 100 || sample.dec_util > 100) __builtin_trap();
  }
  fakenv::ParseFaults(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
