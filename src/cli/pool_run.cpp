#include "cli/pool_run.h"

#include <signal.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/daemon_support.h"
#include "common/base/html_text.h"
#include "common/base/read_file.h"
#include "common/http/client.h"
#include "common/http/http_server.h"
#include "common/http/url.h"
#include "common/peertube/admin_credentials.h"
#include "common/peertube/admin_session.h"
#include "common/peertube/plain_http.h"
#include "pool/kube/kubernetes_channel.h"
#include "pool/kube/pod_endpoints.h"
#include "pool/kube/pool_module.h"
#include "pool/page/pool_page.h"
#include "pool/service/command_channel.h"
#include "pool/service/dry_run_channel.h"
#include "pool/service/peertube_queue.h"
#include "pool/service/pool_report.h"
#include "pool/service/pool_service.h"
#include "pool/service/run_recorder.h"
#include "pool/service/service_config.h"
#include "pool/service/worker_api_channel.h"

namespace mc {

namespace {

using pool::ServiceConfig;
using pool::WorkerEndpoint;

// The Kubernetes side of a run:
//  - the pool over the API;
//  - the pods as workers;
//  - the ordinals the StatefulSet may still grow to, as COLD workers.
struct KubernetesSide {
  std::unique_ptr<pool::KubernetesPool> pool;
  pool::EndpointSettings endpoints;
  std::string statefulset;
  int max_replicas = 1;
  std::vector<std::string> unservable;

  Result<std::vector<WorkerEndpoint>> Workers() {
    Result<std::vector<pool::WorkerPod>> pods = pool->WorkerPods();
    if (!pods) return pods.error();
    unservable = pool::UnservableLines(*pods, statefulset);
    std::vector<WorkerEndpoint> workers = pool::ReachableEndpoints(*pods, endpoints);
    // The ordinals the StatefulSet has not grown to are the pool's COLD workers. They cannot
    // answer. A wake (one more replica) brings the lowest of them up.
    for (int ordinal = 0; ordinal < max_replicas; ++ordinal) {
      const std::string name = statefulset + "-" + std::to_string(ordinal);
      bool present = false;
      for (const pool::WorkerPod& pod : *pods) present |= pod.ordinal == ordinal;
      if (present) continue;
      WorkerEndpoint cold;
      cold.name = name;
      cold.wakeable = true;
      workers.push_back(std::move(cold));
    }
    return workers;
  }
};

std::unique_ptr<pool::ControlChannel> MakeBaseChannel(const ServiceConfig& config) {
  pool::WorkerApiOptions api;
  api.bounds = config.policy.gates.bounds;
  if (config.control == pool::ControlMode::kBareMetal) {
    return std::make_unique<pool::CommandChannel>(
        pool::CommandChannelOptions{.api = api, .log = Log});
  }
  return std::make_unique<pool::WorkerApiChannel>(api);
}

// The stop signals are blocked in every thread and waited for here, between cycles. So a
// cycle is never cut in half, and nothing runs inside a signal handler.
bool WaitForStop(const sigset_t& stop, pool::Duration wait) {
  const double seconds = std::max(0.0, wait.count());
  timespec timeout{static_cast<time_t>(seconds),
                   static_cast<long>((seconds - std::floor(seconds)) * 1e9)};
  return sigtimedwait(&stop, nullptr, &timeout) > 0;
}

// Blocks SIGTERM and SIGINT in every thread, so that WaitForStop takes them.
Result<ServiceConfig> ReadServiceConfig(const std::string& config_file) {
  Result<std::string> text = ReadFileText(config_file);
  if (!text) return text.error();
  return pool::ParseServiceConfig(*text, config_file);
}

// The channel the pool acts through, and what it stands on:
//  - the workers' own channel;
//  - the Kubernetes side over it, where the control is Kubernetes;
//  - a dry run over either.
struct Channels {
  std::unique_ptr<pool::ControlChannel> workers;
  KubernetesSide kubernetes;
  std::unique_ptr<pool::KubernetesChannel> kubernetes_channel;
  std::unique_ptr<pool::ControlChannel> dry_run;
  pool::ControlChannel* channel = nullptr;
};

// Opens the channels of the configured control, and sets how `inputs` lists the workers.
// `config` and `channels` must outlive `inputs`.
Result<void> OpenChannels(const ServiceConfig& config, Channels& channels,
                          pool::ServiceInputs& inputs) {
  channels.workers = MakeBaseChannel(config);
  channels.channel = channels.workers.get();
  if (config.control == pool::ControlMode::kKubernetes) {
    KubernetesSide& kubernetes = channels.kubernetes;
    pool::KubernetesPoolOptions options;
    options.kubeconfig = config.kubernetes.kubeconfig;
    options.ns = config.kubernetes.namespace_name;
    options.statefulset = config.kubernetes.statefulset;
    options.selector = config.kubernetes.selector;
    Result<std::unique_ptr<pool::KubernetesPool>> opened = pool::OpenKubernetesPool(options);
    if (!opened) return opened.error();
    kubernetes.pool = std::move(*opened);
    kubernetes.endpoints = {.port = config.kubernetes.worker_port,
                            .control_port = config.kubernetes.control_port,
                            .control_ca_file = config.kubernetes.control_ca_file,
                            .control_key_file = config.kubernetes.control_key_file,
                            .tls_name_suffix = "." + config.kubernetes.statefulset + "." +
                                               config.kubernetes.namespace_name + ".svc"};
    kubernetes.statefulset = config.kubernetes.statefulset;
    kubernetes.max_replicas = config.kubernetes.max_replicas;
    channels.kubernetes_channel = std::make_unique<pool::KubernetesChannel>(
        *kubernetes.pool, *channels.workers,
        pool::KubernetesChannelSettings{.endpoints = kubernetes.endpoints, .log = Log});
    channels.channel = channels.kubernetes_channel.get();
    inputs.list_workers = [&kubernetes] { return kubernetes.Workers(); };
    inputs.unservable = [&kubernetes] { return kubernetes.unservable; };
  } else {
    inputs.list_workers = [&config]() -> Result<std::vector<WorkerEndpoint>> {
      return config.workers;
    };
  }
  if (config.dry_run) {
    // The dry run describes what the real channel would do, and asks nothing of it.
    channels.dry_run = std::make_unique<pool::DryRunChannel>(*channels.channel, Log);
    channels.channel = channels.dry_run.get();
  }
  return Ok();
}

// The report's pages: / for the admin, /status as JSON, /metrics for Prometheus, and /livez.
http::Routes ReportRoutes(pool::PoolService& service, pool::Duration cycle) {
  http::Routes routes;
  // The page reloads itself once a cycle, within reason.
  const int refresh_s = static_cast<int>(std::clamp(std::round(cycle.count()), 5.0, 60.0));
  routes["/"] = [&service, refresh_s] {
    pool::PoolPageInput page;
    page.report = service.Report();
    page.history = service.History().samples();
    page.now_s =
        std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    page.refresh_s = refresh_s;
    page.links = true;
    return http::Response{.status = 200,
                          .content_type = "text/html; charset=utf-8",
                          .body = pool::PoolPageHtml(page),
                          .headers = {{"Content-Security-Policy", kPagePolicyHeader},
                                      {"X-Content-Type-Options", "nosniff"},
                                      {"Cache-Control", "no-store"}}};
  };
  routes["/status"] = [&service] {
    return http::Response{200, "application/json", pool::ReportToJson(service.Report())};
  };
  routes["/metrics"] = [&service] {
    return http::Response{200, "text/plain; version=0.0.4",
                          pool::ReportToPrometheus(service.Report())};
  };
  routes["/livez"] = [] { return http::Response{200, "text/plain", "ok\n"}; };
  return routes;
}

// A cycle every `cycle`, until SIGTERM or SIGINT.
void CycleUntilStopped(pool::PoolService& service, const sigset_t& stop, pool::Duration cycle) {
  while (true) {
    const auto started = std::chrono::system_clock::now();
    service.Cycle(pool::TimePoint(started.time_since_epoch()));
    const pool::Duration spent = std::chrono::system_clock::now() - started;
    if (WaitForStop(stop, cycle - spent)) break;
  }
}

}  // namespace

int RunPool(const std::string& config_file, const std::string& record_file) {
  const sigset_t stop = BlockStopSignals();
  Result<ServiceConfig> parsed = ReadServiceConfig(config_file);
  if (!parsed) return Log("pool run: " + parsed.error_message()), 1;
  const ServiceConfig config = std::move(*parsed);
  const http::Url peertube_url = *http::ParseUrl(config.peertube.url);
  if (const std::string warning = peertube::PlainHttpWarning(peertube_url, pool::kPeerTubeSecrets,
                                                             "peertube.allow_plain_http");
      !warning.empty()) {
    Log("pool: " + warning);
  }

  Result<peertube::AdminCredentials> credentials =
      peertube::ReadAdminCredentials(config.peertube.credentials_file);
  if (!credentials) return Log("pool run: " + credentials.error_message()), 1;
  peertube::AdminSessionOptions session_options;
  session_options.request_budget = config.peertube.request_budget;
  peertube::AdminSession session(peertube_url, std::move(*credentials), session_options);

  Channels channels;
  pool::ServiceInputs inputs;
  if (Result<void> opened = OpenChannels(config, channels, inputs); !opened)
    return Log("pool run: " + opened.error_message()), 1;
  pool::PeerTubeQueue queue(session, config.peertube.job_types, Log);
  inputs.read_queue = [&](double now_s) { return queue.Read(now_s); };
  inputs.requests_made = [&] { return static_cast<long>(session.requests_made()); };
  inputs.read_status = [](const WorkerEndpoint& worker) -> Result<std::string> {
    if (worker.url.empty()) return Unavailable(worker.name + ": no address yet");
    return http::GetOk(worker.url + "/status", std::chrono::milliseconds(5000));
  };

  pool::PoolService service(config.policy, config.peertube.poll, std::move(inputs),
                            *channels.channel, Log);
  std::optional<pool::RunRecorder> recorder;
  if (!record_file.empty()) {
    Result<pool::RunRecorder> opened =
        pool::RunRecorder::Open(record_file, config.policy, config.peertube.poll);
    if (!opened) return Log("pool run: --record: " + opened.error_message()), 1;
    recorder.emplace(std::move(*opened));
    // A record that cannot be written is said once; the pool goes on without it.
    service.SetRecord([&recorder, said = false](pool::CycleRecord cycle) mutable {
      Result<void> written = recorder->Write(std::move(cycle));
      if (!written && !said) Log("pool run: the record stops here: " + written.error_message());
      said |= !written;
    });
  }
  Result<std::unique_ptr<http::Server>> server =
      http::Server::Start(config.listen, ReportRoutes(service, config.policy.cycle));
  if (!server) return Log("pool run: " + server.error_message()), 1;
  Log("pool run: report on " + (*server)->address() + " (/ the page, /status, /metrics); control " +
      std::string(pool::ControlModeName(config.control)) +
      (config.dry_run ? " (dry run: no action is taken)" : "") + "; a cycle every " +
      pool::FormatDuration(config.policy.cycle));

  CycleUntilStopped(service, stop, config.policy.cycle);
  Log("pool run: stopping; the workers keep their admission as it is");
  return 0;
}

int RunPoolStatus(const std::string& url, bool json) {
  const std::string status_url = url + "/status";
  // A worker's port, or another program's, answers 404 or with a document of its own.
  const std::string listening = ": is `pool run` listening at " + url + "? (--url names another)";
  Result<http::Url> parsed = http::ParseUrl(status_url);
  if (!parsed) return Log("pool status: --url: " + parsed.error_message()), 2;
  Result<http::ClientResponse> answer =
      http::Request(*parsed, {.timeout = std::chrono::milliseconds(5000)});
  if (!answer) return Log("pool status: " + answer.error_message() + listening), 1;
  if (answer->status == 404)
    return Log("pool status: GET " + status_url + " answered 404" + listening), 1;
  if (answer->status != 200)
    return Log("pool status: GET " + status_url + " answered " + std::to_string(answer->status)), 1;
  Result<pool::PoolReport> report = pool::ReportFromJson(answer->body);
  if (!report) return Log(report.error_message() + listening), 1;
  std::cout << (json ? pool::ReportToJson(*report) : pool::ReportTable(*report));
  return 0;
}

}  // namespace mc
