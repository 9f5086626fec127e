// ReadFixed copies a fixed-layout structure out of bytes from a socket or a file.
// There it may lie unaligned.
// It is the first step of every parser of the fakes' binary records.
#pragma once

#include <cstddef>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>

namespace fakenv {

template <typename T>
std::optional<T> ReadFixed(std::span<const std::byte> bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (bytes.size() < sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

}  // namespace fakenv
