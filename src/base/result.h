// Result<T> carries either a value or an error message. Errors cross module boundaries
// as values rather than exceptions, so a caller sees in the signature that a step can
// fail and must say what to do about it (LevelDB's Status, in the shape of C++23's
// std::expected, which GCC 12 does not offer in C++20 mode).
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace mc {

// Error is the failure side of a Result: one human-readable message that names what was
// wrong and where, ready to be logged as it is.
struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}
  Result(Error error) : state_(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  const std::string& error() const { return std::get<Error>(state_).message; }

 private:
  std::variant<T, Error> state_;
};

}  // namespace mc
