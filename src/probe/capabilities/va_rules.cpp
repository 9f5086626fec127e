#include "probe/capabilities/va_rules.h"

#include <algorithm>
#include <span>

namespace mc::probe {

bool VaRuleHolds(const VaRule& rule, const VaFacts& facts) {
  if (rule.kind == VaRule::Kind::kVideoProcFormat) {
    return std::ranges::find(facts.video_proc_formats, rule.fourcc) !=
           facts.video_proc_formats.end();
  }
  const auto entrypoints = std::span(rule.entrypoints).first(rule.entrypoint_count);
  return std::ranges::any_of(facts.configs, [&](const VaConfig& config) {
    return config.profile == rule.profile &&
           std::ranges::find(entrypoints, config.entrypoint) != entrypoints.end() &&
           (rule.rt_format == 0 || (config.rt_formats & rule.rt_format) != 0);
  });
}

CapabilityValues EvaluateVaFacts(const VaFacts& facts) {
  CapabilityValues values{};
  for (std::size_t i = 0; i < kCapabilityCount; ++i) {
    values[i] = VaRuleHolds(kCapabilities[i].va, facts);
  }
  return values;
}

}  // namespace mc::probe
