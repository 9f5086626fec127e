#include "gpu_uuid.h"

#include <cstdint>
#include <cstdio>

namespace fakenv {

std::array<unsigned char, 16> GpuUuid(const Record& record) {
  const std::string identity =
      record.identity.pci_address + "/" + (record.report ? record.report->name : std::string());
  // Two rounds of 64-bit FNV-1a with different offsets fill the 16 bytes.
  std::array<unsigned char, 16> uuid{};
  for (int half = 0; half < 2; ++half) {
    std::uint64_t hash = half == 0 ? 0xcbf29ce484222325ull : 0x84222325cbf29ce4ull;
    for (const char c : identity) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
    for (int i = 0; i < 8; ++i) uuid[half * 8 + i] = static_cast<unsigned char>(hash >> (8 * i));
  }
  return uuid;
}

std::string GpuUuidText(const Record& record) {
  const std::array<unsigned char, 16> b = GpuUuid(record);
  char text[48];
  std::snprintf(text, sizeof text,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return text;
}

}  // namespace fakenv
