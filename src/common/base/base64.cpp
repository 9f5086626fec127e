#include "common/base/base64.h"

#include <cstdint>

namespace mc {
namespace {

// One character's value in the alphabet; -1 for any other byte.
int SextetOf(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

Result<std::string> DecodeBase64(std::string_view text) {
  std::string out;
  out.reserve(text.size() / 4 * 3 + 3);
  std::uint32_t bits = 0;
  int pending = 0;  // sextets held in `bits`
  std::size_t padding = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || c == '\r') continue;
    if (c == '=') {
      ++padding;
      continue;
    }
    const int sextet = SextetOf(c);
    if (sextet < 0 || padding > 0) {
      return InvalidInput("invalid base64: unexpected character at offset " + std::to_string(i));
    }
    bits = (bits << 6) | static_cast<std::uint32_t>(sextet);
    if (++pending == 4) {
      out.push_back(static_cast<char>((bits >> 16) & 0xff));
      out.push_back(static_cast<char>((bits >> 8) & 0xff));
      out.push_back(static_cast<char>(bits & 0xff));
      bits = 0;
      pending = 0;
    }
  }
  // A final group of one sextet cannot hold a whole byte. Padding, when present, must complete the
  // last group exactly.
  if (pending == 1 || padding > 2 || (padding > 0 && pending + padding != 4)) {
    return InvalidInput("invalid base64: the text ends in the middle of a group");
  }
  if (pending == 2) {
    out.push_back(static_cast<char>((bits >> 4) & 0xff));
  } else if (pending == 3) {
    out.push_back(static_cast<char>((bits >> 10) & 0xff));
    out.push_back(static_cast<char>((bits >> 2) & 0xff));
  }
  return out;
}

}  // namespace mc
