// Fuzz target: any text as the admin's credentials file gives credentials or an error, and
// the error never holds the text's second line (the password).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/peertube/admin_credentials.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::peertube::AdminCredentials> credentials =
      mc::peertube::ParseAdminCredentials(text, "credentials");
  if (!credentials) {
    const std::size_t first = text.find('\n');
    if (first != std::string_view::npos) {
      std::string_view second = text.substr(first + 1);
      second = second.substr(0, second.find('\n'));
      // A password long enough not to match a word of the message by chance; and where the
      // message's own words hold it all the same, the same file with another password of the
      // same shape (its control characters kept, every other byte an x) must say it too.
      if (second.size() >= 12 && credentials.error_message().find(second) != std::string::npos) {
        std::string other(text);
        for (std::size_t i = first + 1; i < first + 1 + second.size(); ++i) {
          const unsigned char c = static_cast<unsigned char>(other[i]);
          if (c >= 0x20 && c != 0x7f) other[i] = 'x';
        }
        mc::Result<mc::peertube::AdminCredentials> again =
            mc::peertube::ParseAdminCredentials(other, "credentials");
        if (again || again.error_message().find(second) == std::string::npos) std::abort();
      }
    }
  }
  return 0;
}
