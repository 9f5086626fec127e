#include "pool/replay/comparison.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/base/json_text.h"

namespace mc::pool {

namespace {

std::string SecondsText(double t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", t);
  return text;
}

std::string Words(const DecisionEvent& event) {
  return event.what + " of " + event.worker + " at " + SecondsText(event.t_s);
}

// Why one pair disagrees, or empty when it agrees.
std::string Disagreement(const ComparedRow& row, double cycle_s) {
  if (!row.simulated) return "the real run's " + Words(*row.real) + " has no simulated one";
  if (!row.real) return "the simulation's " + Words(*row.simulated) + " has no real one";
  if (row.real->what != row.simulated->what || row.real->worker != row.simulated->worker) {
    return "the real run made a " + Words(*row.real) + ", the simulation a " +
           Words(*row.simulated);
  }
  const double apart = std::fabs(row.simulated->t_s - row.real->t_s);
  if (apart > cycle_s + 1e-6) {
    return "the " + row.real->what + " of " + row.real->worker + " came at " +
           SecondsText(row.real->t_s) + " in the real run and " + SecondsText(row.simulated->t_s) +
           " in the simulation, " + SecondsText(apart) + " apart, more than a cycle (" +
           SecondsText(cycle_s) + ")";
  }
  return "";
}

}  // namespace

Comparison Compare(const std::vector<DecisionEvent>& real,
                   const std::vector<DecisionEvent>& simulated, double cycle_s) {
  Comparison comparison;
  comparison.cycle_s = cycle_s;
  const std::size_t rows = std::max(real.size(), simulated.size());
  for (std::size_t i = 0; i < rows; ++i) {
    ComparedRow row;
    if (i < real.size()) row.real = real[i];
    if (i < simulated.size()) row.simulated = simulated[i];
    const std::string why = Disagreement(row, cycle_s);
    row.agrees = why.empty();
    if (!row.agrees && comparison.agrees) {
      comparison.agrees = false;
      comparison.first_disagreement = "decision " + std::to_string(i + 1) + ": " + why;
    }
    comparison.rows.push_back(std::move(row));
  }
  return comparison;
}

std::string ComparisonTable(const Comparison& comparison) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-3s  %-10s  %-14s  %9s  %-14s  %9s  %7s  %s\n", "#",
                "decision", "real worker", "real", "sim worker", "sim", "apart", "verdict");
  out += line;
  for (std::size_t i = 0; i < comparison.rows.size(); ++i) {
    const ComparedRow& row = comparison.rows[i];
    const DecisionEvent none{"-", "-", 0};
    const DecisionEvent& real = row.real.value_or(none);
    const DecisionEvent& simulated = row.simulated.value_or(none);
    const std::string apart =
        row.real && row.simulated ? SecondsText(simulated.t_s - real.t_s) : std::string("-");
    std::snprintf(line, sizeof line, "%-3zu  %-10s  %-14s  %9s  %-14s  %9s  %7s  %s\n", i + 1,
                  (row.real ? real.what : simulated.what).c_str(), real.worker.c_str(),
                  row.real ? SecondsText(real.t_s).c_str() : "-", simulated.worker.c_str(),
                  row.simulated ? SecondsText(simulated.t_s).c_str() : "-", apart.c_str(),
                  row.agrees ? "agrees" : "DIFFERS");
    out += line;
  }
  out += comparison.agrees
             ? "agree: " + std::to_string(comparison.rows.size()) +
                   " promotions and demotions, in the same order, each within a cycle (" +
                   SecondsText(comparison.cycle_s) + ")\n"
             : "disagree: " + comparison.first_disagreement + "\n";
  return out;
}

std::string ComparisonJson(const Comparison& comparison) {
  using Json = nlohmann::json;
  const auto event = [](const std::optional<DecisionEvent>& e) {
    return e ? Json{{"decision", e->what}, {"worker", e->worker}, {"t", e->t_s}} : Json();
  };
  Json rows = Json::array();
  for (const ComparedRow& row : comparison.rows) {
    rows.push_back(
        {{"real", event(row.real)}, {"simulated", event(row.simulated)}, {"agrees", row.agrees}});
  }
  Json out{{"agree", comparison.agrees}, {"cycle", comparison.cycle_s}, {"rows", std::move(rows)}};
  if (!comparison.agrees) out["first_disagreement"] = comparison.first_disagreement;
  return JsonText(out, 2) + "\n";
}

}  // namespace mc::pool
