// The raw byte sequence payloads of H.264 and HEVC.
// The fake writes parameter sets and reads a slice header's first fields with them.
// They hold fixed-width fields and Exp-Golomb codes.
// NAL units carry them with a start code and emulation prevention.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace mc::fakeva {

// BitWriter writes an RBSP.
class BitWriter {
 public:
  void Bits(std::uint32_t value, int count);
  void Bit(std::uint32_t bit);
  void Unsigned(std::uint32_t value);  // ue(v)
  void Signed(std::int32_t value);     // se(v)
  // Finish ends the RBSP with its stop bit and alignment.
  std::vector<std::uint8_t> Finish();

 private:
  std::vector<std::uint8_t> bytes_;
  std::uint8_t current_ = 0;
  int filled_ = 0;
};

// BitReader reads the start of a NAL unit's payload, after its header bytes.
// It skips the emulation prevention bytes.
// Each read is nullopt past the end, or on a code longer than 32 bits.
class BitReader {
 public:
  explicit BitReader(std::span<const std::uint8_t> payload);
  std::optional<std::uint32_t> Bit();
  std::optional<std::uint32_t> Unsigned();  // ue(v)

 private:
  std::vector<std::uint8_t> rbsp_;
  std::size_t position_ = 0;
};

// AppendNal adds a NAL unit:
//  - a four-byte start code;
//  - its header bytes;
//  - its RBSP, with emulation prevention.
void AppendNal(std::span<const std::uint8_t> header, const std::vector<std::uint8_t>& rbsp,
               std::vector<std::uint8_t>& out);

}  // namespace mc::fakeva
