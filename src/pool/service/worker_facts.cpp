#include "pool/service/worker_facts.h"

#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"

namespace mc::pool {

namespace {

using Json = nlohmann::json;

const Json* Object(const Json& parent, const char* name) {
  if (!parent.is_object()) return nullptr;
  const auto it = parent.find(name);
  return it != parent.end() && it->is_object() ? &*it : nullptr;
}

std::string Text(const Json* parent, const char* name) {
  if (!parent) return "";
  const auto it = parent->find(name);
  return it != parent->end() && it->is_string() ? it->get<std::string>() : "";
}

std::optional<bool> Flag(const Json* parent, const char* name) {
  if (!parent) return std::nullopt;
  const auto it = parent->find(name);
  if (it == parent->end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

int Count(const Json* parent, const char* name) {
  if (!parent) return 0;
  const auto it = parent->find(name);
  if (it == parent->end() || !it->is_number_integer()) return 0;
  const auto value = it->get<std::int64_t>();
  return value < 0 || value > 1'000'000 ? 0 : static_cast<int>(value);
}

}  // namespace

WorkerFacts ReadWorkerFacts(const std::string& document) {
  WorkerFacts facts;
  const Json json = ParseJsonOrDiscarded(document);
  if (!json.is_object()) return facts;
  const Json* gpu = Object(json, "gpu");
  facts.vendor = Text(gpu, "vendor");
  facts.model = Text(gpu, "model");
  const Json* sessions = gpu ? Object(*gpu, "sessions") : nullptr;
  facts.sessions_active = Count(sessions, "active");
  facts.sessions_cap = Count(sessions, "cap");
  const Json* evidence = Object(json, "hw_evidence_last_job");
  facts.evidence_ok = Flag(evidence, "ok");
  if (evidence) {
    facts.evidence = Text(evidence, "method");
    const std::string at = Text(evidence, "ts");
    if (!at.empty()) facts.evidence += (facts.evidence.empty() ? "at " : " at ") + at;
  }
  const Json* self_test = gpu ? Object(*gpu, "self_test") : nullptr;
  facts.self_test_ok = Flag(self_test, "ok");
  facts.self_test_at = Text(self_test, "ts");
  facts.self_test_detail = Text(self_test, "detail");
  if (facts.self_test_detail.empty()) facts.self_test_detail = Text(self_test, "evidence");
  return facts;
}

}  // namespace mc::pool
