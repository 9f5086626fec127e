// The agent's record of its past evictions, a file on the node, read back: any bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "dra/agent/eviction_guard.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  mc::Result<mc::dra::EvictionRecords> records = mc::dra::ParseEvictionRecords(text);
  // What reads back whole must write and read back to the same record.
  if (records) {
    mc::Result<mc::dra::EvictionRecords> again =
        mc::dra::ParseEvictionRecords(mc::dra::EvictionRecordsJson(*records));
    if (!again || *again != *records) __builtin_trap();
  }
  return 0;
}
