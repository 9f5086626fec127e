// ReadFixed copies a fixed-layout structure out of bytes read from a socket or a file, where
// it may lie unaligned: the first step of every parser of the stand-ins' binary records.
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
