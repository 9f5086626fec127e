#include "rbsp.h"

namespace mc::fakeva {
namespace {

// The slice header fields the fake reads lie in its first bytes.
constexpr std::size_t kReadLimit = 16;

}  // namespace

void BitWriter::Bits(std::uint32_t value, int count) {
  for (int bit = count - 1; bit >= 0; --bit) Bit((value >> bit) & 1);
}

void BitWriter::Bit(std::uint32_t bit) {
  current_ = static_cast<std::uint8_t>(current_ << 1 | (bit & 1));
  if (++filled_ == 8) {
    bytes_.push_back(current_);
    current_ = 0;
    filled_ = 0;
  }
}

void BitWriter::Unsigned(std::uint32_t value) {
  const std::uint64_t code = std::uint64_t{value} + 1;
  int length = 0;
  while ((code >> length) > 1) ++length;
  Bits(0, length);
  for (int bit = length; bit >= 0; --bit) Bit(static_cast<std::uint32_t>(code >> bit) & 1);
}

void BitWriter::Signed(std::int32_t value) {
  Unsigned(value > 0 ? static_cast<std::uint32_t>(2 * static_cast<std::int64_t>(value) - 1)
                     : static_cast<std::uint32_t>(-2 * static_cast<std::int64_t>(value)));
}

std::vector<std::uint8_t> BitWriter::Finish() {
  Bit(1);
  while (filled_ != 0) Bit(0);
  return bytes_;
}

BitReader::BitReader(std::span<const std::uint8_t> payload) {
  int zeros = 0;
  for (std::size_t i = 0; i < payload.size() && rbsp_.size() < kReadLimit; ++i) {
    if (zeros == 2 && payload[i] == 3) {
      zeros = 0;
      continue;
    }
    rbsp_.push_back(payload[i]);
    zeros = payload[i] == 0 ? zeros + 1 : 0;
  }
}

std::optional<std::uint32_t> BitReader::Bit() {
  if (position_ / 8 >= rbsp_.size()) return std::nullopt;
  const std::uint32_t value = (rbsp_[position_ / 8] >> (7 - position_ % 8)) & 1u;
  ++position_;
  return value;
}

std::optional<std::uint32_t> BitReader::Unsigned() {
  int zeros = 0;
  for (;;) {
    const std::optional<std::uint32_t> bit = Bit();
    if (!bit || zeros > 31) return std::nullopt;
    if (*bit) break;
    ++zeros;
  }
  std::uint64_t value = 1;
  for (int i = 0; i < zeros; ++i) {
    const std::optional<std::uint32_t> bit = Bit();
    if (!bit) return std::nullopt;
    value = value << 1 | *bit;
  }
  return static_cast<std::uint32_t>(value - 1);
}

void AppendNal(std::span<const std::uint8_t> header, const std::vector<std::uint8_t>& rbsp,
               std::vector<std::uint8_t>& out) {
  out.insert(out.end(), {0, 0, 0, 1});
  out.insert(out.end(), header.begin(), header.end());
  int zeros = 0;
  for (const std::uint8_t byte : rbsp) {
    if (zeros == 2 && byte <= 3) {
      out.push_back(3);
      zeros = 0;
    }
    out.push_back(byte);
    zeros = byte == 0 ? zeros + 1 : 0;
  }
}

}  // namespace mc::fakeva
