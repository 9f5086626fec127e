// The pool service's one file (pool.yaml), described in docs/pool/operating.md:
//  - where PeerTube is, and how its admin reads it;
//  - how the workers are found and controlled;
//  - where the service answers;
//  - the policy's numbers, under `policy:`.
// Every secret is named by a file, never written here.
#pragma once

#include <string>
#include <vector>

#include "common/base/result.h"
#include "pool/policy/config.h"
#include "pool/service/worker_endpoint.h"

namespace mc::pool {

// How the policy's actions reach the workers.
enum class ControlMode {
  kWorkers,    // each worker's own control API; the workers are listed in the file
  kBareMetal,  // as kWorkers, plus each worker's start, wake and suspend commands
  kKubernetes  // the workers' StatefulSet: its scale for COLD <-> SPARE, its pods' control API
};

// What crosses the manager's connection to PeerTube: said where plain http:// is refused or
// allowed.
inline constexpr const char* kPeerTubeSecrets = "the admin's password and session tokens";

struct PeerTubeSettings {
  std::string url;               // the instance's origin, https://videos.example.org
  std::string credentials_file;  // the admin's username, then the password, one per line
  std::vector<std::string> job_types = {"vod-web-video-transcoding", "vod-hls-transcoding",
                                        "vod-audio-merge-transcoding"};
  pool::Duration poll = pool::Seconds(15);
  int request_budget = 40;  // requests per 10 s; PeerTube's default limit is 50 per IP
  // Plain http:// beyond this host, which carries the admin's password in clear: refused
  // unless set.
  bool allow_plain_http = false;
};

struct KubernetesSettings {
  std::string kubeconfig;  // empty: the pod's own service account
  std::string namespace_name;
  std::string statefulset;
  std::string selector;    // the workers' pods, app.kubernetes.io/name=peertube-worker
  int worker_port = 9464;  // /status and /metrics
  // The control API, over TLS: its port, and the authority its certificates chain to.
  // And the key each pod's own token is derived from.
  // A pod's certificate holds the name POD.STATEFULSET.NAMESPACE.svc.
  // That is its stable name under the StatefulSet's service.
  int control_port = 9466;
  std::string control_ca_file;
  std::string control_key_file;
  // The most workers the StatefulSet is scaled to.
  // The ordinals past its replicas are the pool's COLD workers.
  // A wake brings them up one at a time.
  int max_replicas = 1;
};

// The manager's report listens below the workers' ports (9464 + 10 N upward), so that a
// manager and the workers of every GPU share a host.
inline constexpr const char* kDefaultPoolListen = "127.0.0.1:9460";

struct ServiceConfig {
  PeerTubeSettings peertube;
  ControlMode control = ControlMode::kWorkers;
  bool dry_run = false;                     // log every action, take none
  std::string listen = kDefaultPoolListen;  // GET /status, /metrics and /livez
  // Each worker's /status is read every cycle (policy.cycle).
  std::vector<WorkerEndpoint> workers;  // kWorkers and kBareMetal
  KubernetesSettings kubernetes;        // kKubernetes
  pool::PoolConfig policy;
};

// ParseServiceConfig reads the YAML `text` of `file`; errors name the file and the key, such
// as "pool.yaml: workers[1].url: expected http://HOST:PORT".
Result<ServiceConfig> ParseServiceConfig(const std::string& text, const std::string& file);

std::string_view ControlModeName(ControlMode mode);

}  // namespace mc::pool
