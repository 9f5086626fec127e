// Result<T> carries either a value or an Error. Errors cross module boundaries as values, not
// exceptions. So the signature shows that a step can fail. The caller must say what to do about it.
// It is LevelDB's Status in the shape of C++23's std::expected. GCC 12 does not offer std::expected
// in C++20 mode. Result<void> is for a step that yields nothing but may fail.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace mc {

// A caller branches on ErrorCode. A person reads the message.
enum class ErrorCode {
  kInvalidInput,      // a file, flag or answer is malformed or out of range
  kNotFound,          // what was asked for does not exist
  kConflict,          // someone else changed it first: HTTP 409, a stale version
  kUnavailable,       // a server or device cannot answer now; worth retrying
  kDeadlineExceeded,  // it ran past its deadline
  kPermissionDenied,  // refused for who is asking
  kUnsupported,       // the device or the server does not do this
  kInternal,          // anything else: a failed system call, a crashed child
};

// The code's name in words, for logs and tests.
constexpr const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
      return "invalid input";
    case ErrorCode::kNotFound:
      return "not found";
    case ErrorCode::kConflict:
      return "conflict";
    case ErrorCode::kUnavailable:
      return "unavailable";
    case ErrorCode::kDeadlineExceeded:
      return "deadline exceeded";
    case ErrorCode::kPermissionDenied:
      return "permission denied";
    case ErrorCode::kUnsupported:
      return "unsupported";
    case ErrorCode::kInternal:
      return "internal";
  }
  return "internal";
}

// Error is the failure side of a Result. It holds:
// - a code to branch on;
// - one message naming what was wrong and where, ready to log;
// - how long to wait, where the other side said when to retry.
struct Error {
  std::string message;
  ErrorCode code = ErrorCode::kInternal;
  std::optional<std::chrono::seconds> retry_after;

  bool IsInvalidInput() const { return code == ErrorCode::kInvalidInput; }
  bool IsNotFound() const { return code == ErrorCode::kNotFound; }
  bool IsConflict() const { return code == ErrorCode::kConflict; }
  bool IsUnavailable() const { return code == ErrorCode::kUnavailable; }
  bool IsDeadlineExceeded() const { return code == ErrorCode::kDeadlineExceeded; }
  bool IsPermissionDenied() const { return code == ErrorCode::kPermissionDenied; }
  bool IsUnsupported() const { return code == ErrorCode::kUnsupported; }

  // The same failure told one step further out: "context: " before the message. The code and the
  // wait stay. So a caller still branches and retries on the failure underneath.
  Error WithContext(std::string_view context) const& { return Error(*this).WithContext(context); }
  Error WithContext(std::string_view context) && {
    message.insert(0, std::string(context) + ": ");
    return std::move(*this);
  }
};

inline Error InvalidInput(std::string message) {
  return {std::move(message), ErrorCode::kInvalidInput};
}
inline Error NotFound(std::string message) { return {std::move(message), ErrorCode::kNotFound}; }
inline Error Conflict(std::string message) { return {std::move(message), ErrorCode::kConflict}; }
inline Error Unavailable(std::string message) {
  return {std::move(message), ErrorCode::kUnavailable};
}
inline Error DeadlineExceeded(std::string message) {
  return {std::move(message), ErrorCode::kDeadlineExceeded};
}
inline Error PermissionDenied(std::string message) {
  return {std::move(message), ErrorCode::kPermissionDenied};
}
inline Error Unsupported(std::string message) {
  return {std::move(message), ErrorCode::kUnsupported};
}
inline Error Internal(std::string message) { return {std::move(message), ErrorCode::kInternal}; }

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
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

  // The failure, whole; only on a failed Result.
  const Error& error() const { return std::get<Error>(state_); }
  // The failure's message; only on a failed Result.
  const std::string& error_message() const { return error().message; }
  ErrorCode error_code() const { return error().code; }

 private:
  std::variant<T, Error> state_;
};

// Result<void> is a step that yields nothing. It holds success, or the Error that stopped it.
template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)) {}

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }

  const Error& error() const { return *error_; }
  const std::string& error_message() const { return error_->message; }
  ErrorCode error_code() const { return error_->code; }

 private:
  std::optional<Error> error_;
};

// Ok() is a Result<void>'s success: `return Ok();`.
inline Result<void> Ok() { return {}; }

}  // namespace mc
