// The PeerTube administrator's name and password. The pool manager needs them for the admin API's
// password grant. They come from a file, never from the command line, where `ps` shows them. No
// log holds them. The file holds two lines:
//
//   root
//   the password, exactly as typed, up to the end of the line
//
// - the first line is the username;
// - the second is the password;
// - a trailing "\r" (a file written on Windows) is part of neither;
// - only empty lines may follow.
//
// The value cannot be written to a stream: operator<< is deleted. So no log line can hold the
// password by mistake.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <utility>

#include "common/base/result.h"

namespace mc::peertube {

class AdminCredentials {
 public:
  AdminCredentials(std::string username, std::string password)
      : username_(std::move(username)), password_(std::move(password)) {}

  const std::string& username() const { return username_; }
  // Only the password grant's form reads it.
  const std::string& password() const { return password_; }

  friend std::ostream& operator<<(std::ostream&, const AdminCredentials&) = delete;

 private:
  std::string username_;
  std::string password_;
};

// ReadAdminCredentials reads the file above. An error names the file, the line and what is wrong.
// Example: "/etc/pool/admin: line 2: missing (the password)". It never names the content.
Result<AdminCredentials> ReadAdminCredentials(const std::string& path);

// ParseAdminCredentials does the same for the file's text. `source` names it in errors.
Result<AdminCredentials> ParseAdminCredentials(std::string_view text, const std::string& source);

}  // namespace mc::peertube
