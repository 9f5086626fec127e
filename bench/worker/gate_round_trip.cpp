// The admission gate's added latency on a small API round trip (docs/worker/gate.md): a POST
// with a 100-byte body answered with 1 KiB, on a new connection each time as the gate serves
// them, sent straight to an upstream and through the gate to the same upstream, interleaved
// in one process. The upstream is the project's reverse proxy answering every request
// itself, so both paths share it and the difference is the gate's. Target: at most 1 ms added
// at the median.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/http/client.h"
#include "common/http/reverse_proxy.h"
#include "worker/gate/admission_gate.h"

namespace {

using Clock = std::chrono::steady_clock;

double Percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  return values[static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1))];
}

// RoundTrip is one request's wall time in microseconds; negative when it failed.
double RoundTrip(const mc::http::Url& url, const mc::http::ClientRequest& request) {
  const auto start = Clock::now();
  mc::Result<mc::http::ClientResponse> answer = mc::http::Request(url, request);
  const double micros = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  return answer && answer->status == 200 && answer->body.size() == 1024 ? micros : -1;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 2000;
  mc::http::ProxyHooks answer_here{.plan = [](const mc::http::RequestHead&) {
    mc::http::Plan plan{.handling = mc::http::Handling::kAnswer};
    plan.answer.head.headers.push_back({"Content-Type", "application/json"});
    plan.answer.body = std::string(1024, 'a');
    return plan;
  }};
  auto upstream = mc::http::ReverseProxy::Start(
      "127.0.0.1:0", *mc::http::ParseUrl("http://127.0.0.1:1"), answer_here);
  if (!upstream) {
    std::fprintf(stderr, "gate_round_trip: %s\n", upstream.error_message().c_str());
    return 1;
  }
  const mc::http::Url upstream_url = *mc::http::ParseUrl("http://" + (*upstream)->address());
  mc::worker::JobBook book;
  auto gate = mc::worker::AdmissionGate::Start("127.0.0.1:0", upstream_url,
                                               [] { return mc::worker::Admission{}; }, book,
                                               {.log = [](const std::string&) {}});
  if (!gate) {
    std::fprintf(stderr, "gate_round_trip: %s\n", gate.error_message().c_str());
    return 1;
  }
  const std::string path = "/api/v1/runners/jobs/00000000-0000-4000-8000-000000000001/update";
  const mc::http::Url direct = *mc::http::ParseUrl(upstream_url.Origin() + path);
  const mc::http::Url through = *mc::http::ParseUrl((*gate)->origin() + path);
  const mc::http::ClientRequest request =
      mc::http::JsonRequest("POST", "{\"runnerToken\":\"" + std::string(84, 'x') + "\"}");

  std::vector<double> straight;
  std::vector<double> gated;
  for (int i = 0; i < rounds + 100; ++i) {
    const double a = RoundTrip(direct, request);
    const double b = RoundTrip(through, request);
    if (a < 0 || b < 0) {
      std::fprintf(stderr, "gate_round_trip: a round trip failed\n");
      return 1;
    }
    // The first hundred warm the caches and the threads up.
    if (i < 100) continue;
    straight.push_back(a);
    gated.push_back(b);
  }
  const double direct_median = Percentile(straight, 0.5);
  const double gate_median = Percentile(gated, 0.5);
  std::printf("POST, %zu-byte body, 1 KiB answer, %d round trips each, new connection each:\n",
              request.body.size(), rounds);
  std::printf("  direct     median %7.1f us  p90 %7.1f us\n", direct_median,
              Percentile(straight, 0.9));
  std::printf("  via gate   median %7.1f us  p90 %7.1f us\n", gate_median, Percentile(gated, 0.9));
  std::printf("  added at the median: %.1f us (target <= 1000 us), ratio %.2fx\n",
              gate_median - direct_median, gate_median / direct_median);
  return gate_median - direct_median <= 1000 ? 0 : 2;
}
