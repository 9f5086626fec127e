// The engine's decoder, over Debian's libavcodec.
// It takes a stream's packets as the NVDEC parser fake hands them over.
// It gives back NV12 pictures in display order.
// NVDEC writes them so to its output surfaces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine_wire.h"

namespace fakenv {

struct DecodedPicture {
  wire::UnitHeader header;
  // NV12 at header.pitch: the luma rows, then the interleaved chroma rows.
  std::vector<std::byte> nv12;
};

class Decoder {
 public:
  virtual ~Decoder() = default;
  // Decode takes one packet; `out` gets the pictures that became ready.
  virtual bool Decode(std::span<const std::byte> packet, std::optional<std::int64_t> pts,
                      std::vector<DecodedPicture>& out, std::string* error) = 0;
  virtual bool Flush(std::vector<DecodedPicture>& out, std::string* error) = 0;
};

// With `decode_order`, Decode gives the packet's own picture.
// It takes it from the buffer the decoder asked for while decoding it.
// A custom get_buffer2 catches that buffer.
// It discards what the decoder outputs in display order.
std::unique_ptr<Decoder> OpenDecoder(wire::Codec codec, bool decode_order, std::string* error);

}  // namespace fakenv
