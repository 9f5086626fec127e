// The recorded vainfo texts are outside input: posted by anyone, in any shape.
// The parser must:
//  - answer every input with a value or an error, never a crash;
//  - keep the promises vainfo_dump.h makes for what it accepts;
//  - read back unchanged a dump written back as vainfo's text.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "va_names.h"
#include "vainfo_dump.h"
#include "vainfo_dump_format.h"

namespace {

void Require(bool promise) {
  if (!promise) std::abort();
}

void CheckPromises(const mc::fakeva::VainfoDump& dump) {
  Require(dump.vendor.find('\n') == std::string::npos);
  Require(dump.vendor.empty() ||
          std::string_view(" \t\r\f\v").find(dump.vendor.back()) == std::string_view::npos);
  for (std::size_t i = 0; i < dump.configs.size(); ++i) {
    const mc::fakeva::VainfoConfig& config = dump.configs[i];
    Require(config.rt_formats != 0);
    Require(!mc::fakeva::ProfileName(config.profile).empty());
    Require(!mc::fakeva::EntrypointName(config.entrypoint).empty());
    for (std::size_t j = 0; j < i; ++j) {
      Require(dump.configs[j].profile != config.profile ||
              dump.configs[j].entrypoint != config.entrypoint);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const mc::Result<mc::fakeva::VainfoDump> dump = mc::fakeva::ParseVainfoDump(text);
  if (!dump) return 0;
  CheckPromises(*dump);
  if (!dump->initialised) return 0;
  const mc::Result<mc::fakeva::VainfoDump> again =
      mc::fakeva::ParseVainfoDump(mc::fakeva::FormatVainfoDump(*dump));
  Require(again.ok() && *again == *dump);
  return 0;
}
