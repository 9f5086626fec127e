#include "dra/agent/agent.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <optional>
#include <set>

#include "common/base/text.h"
#include "dra/agent/agent_metrics.h"
#include "dra/agent/api_claim_checker.h"
#include "dra/agent/eviction_guard.h"
#include "dra/agent/health_server.h"
#include "dra/agent/pod_eviction.h"
#include "dra/agent/slice_api.h"
#include "dra/agent/slice_publisher.h"
#include "dra/plugin/health_board.h"

namespace mc::dra {
namespace {

using Clock = std::chrono::steady_clock;

// The loop wakes at least this often while nothing happens.
// So /livez can tell a loop that waits from one that is stuck.
constexpr std::chrono::seconds kHeartbeat{10};
// A loop that has not come round for this long is stuck.
// It is longer than the slowest query pass, with room to spare.
// That pass is each query's deadline of 20 s and the batch's grace.
constexpr std::chrono::seconds kStuckAfter{90};

// How soon a failed eviction is tried again when the server names no time.
// Also how soon the agent looks again once the guard gave up on every missing node.
constexpr std::chrono::seconds kEvictionRetry{30};
constexpr std::chrono::hours kGivenUpRecheck{1};

// The render nodes given to the agent whose device file this pod lacks.
// Such a node was published by liken after the pod's claim was allocated.
// One with no render node in sysfs is not counted.
// A new pod would not have it either.
std::vector<std::string> RenderNodesMissingFromPod(
    const std::map<std::string, probe::DeviceReport>& reports) {
  std::vector<std::string> missing;
  for (const auto& [name, report] : reports) {
    std::error_code error;
    if (!report.gpu.render_node.empty() && !std::filesystem::exists(report.gpu.render_node, error))
      missing.push_back(name);
  }
  return missing;
}

DeviceHealth HealthOf(const probe::DeviceReport& report) {
  if (report.failure) return {.healthy = false, .message = *report.failure};
  return {.healthy = true, .message = ""};
}

// The probes:
//  - /livez: the loop came round lately;
//  - /readyz: the plugin listens and is registered, and the slices hold the queries' findings.
HealthChecks AgentHealthChecks(const std::atomic<Clock::rep>& heartbeat,
                               const std::atomic<bool>& plugin_listening,
                               const std::atomic<bool>& published, const KubeletPlugin& plugin) {
  return {
      .live =
          [&heartbeat] {
            const Clock::time_point beat{Clock::duration(heartbeat.load())};
            if (Clock::now() - beat > kStuckAfter)
              return ProbeAnswer{false, "the agent's loop has not run for 90 s"};
            return ProbeAnswer{true, "ok"};
          },
      .ready =
          [&plugin_listening, &published, &plugin] {
            if (!plugin_listening) return ProbeAnswer{false, "the kubelet plugin is not listening"};
            if (!plugin.registered())
              return ProbeAnswer{false, "the kubelet has not accepted the plugin's registration"};
            if (!published)
              return ProbeAnswer{false, "the slices do not yet hold what the queries found"};
            return ProbeAnswer{true, "ok"};
          }};
}

}  // namespace

struct Agent::State {
  explicit State(kube::KubeClient& client, const AgentOptions& options, AgentLog log)
      : api(client), publisher(api, options.driver_name, options.node_name, std::move(log)) {}

  SliceApi api;
  SlicePublisher publisher;
  std::map<std::string, nlohmann::json> liken_slices;
  bool liken_listed = false;
  // What each render node's query found, by device name, and its liken render node.
  // A node is queried again only when it comes back or changes its address.
  std::map<std::string, probe::DeviceReport> reports;
  std::map<std::string, LikenRenderNode> queried;
  std::vector<std::string> liken_problems;
  // The agent's own eviction: done once asked.
  // It is not looked at again before the time.
  bool evicted = false;
  WallClock::time_point eviction_not_before;
  std::set<std::string> given_up_said;
  HealthBoard board;
  std::atomic<bool> plugin_listening{false};
  std::atomic<bool> published{false};
  std::atomic<Clock::rep> heartbeat{Clock::now().time_since_epoch().count()};
};

Agent::Agent(AgentOptions options, kube::KubeClient& client, AgentLog log)
    : options_(std::move(options)), client_(client), log_(std::move(log)) {}

Agent::~Agent() = default;

void Agent::Push(Event event) {
  {
    std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  wake_.notify_one();
}

void Agent::Stop() { Push({.source = Event::Source::kStop}); }

std::vector<Agent::Event> Agent::Take(Clock::time_point until) {
  std::unique_lock lock(mutex_);
  wake_.wait_until(lock, until, [this] { return !events_.empty(); });
  std::vector<Event> taken(std::make_move_iterator(events_.begin()),
                           std::make_move_iterator(events_.end()));
  events_.clear();
  return taken;
}

std::vector<std::string> Agent::QueryNewRenderNodes(State& state) {
  std::vector<nlohmann::json> slices;
  for (const auto& [name, slice] : state.liken_slices) slices.push_back(slice);
  LikenRenderNodes found = RenderNodesOfLikenSlices(slices);
  if (found.problems != state.liken_problems) {
    for (const std::string& problem : found.problems) log_("agent: warning: " + problem);
    state.liken_problems = found.problems;
  }

  std::vector<std::string> changed;
  for (auto it = state.queried.begin(); it != state.queried.end();) {
    if (std::ranges::find(found.nodes, it->second) != found.nodes.end()) {
      ++it;
      continue;
    }
    log_("capabilities: " + it->first +
         " is no longer among liken's render nodes; its device is removed");
    state.reports.erase(it->first);
    state.board.Remove(it->first);
    changed.push_back(it->first);
    it = state.queried.erase(it);
  }
  std::vector<LikenRenderNode> fresh;
  for (const LikenRenderNode& node : found.nodes) {
    if (!state.queried.contains(node.device_name)) fresh.push_back(node);
  }
  if (fresh.empty()) return changed;
  probe::ProbeRequest request{.roots = options_.roots, .query = options_.query};
  for (const LikenRenderNode& node : fresh)
    request.named_devices.push_back({node.pci_address, node.device_name});
  for (probe::DeviceReport& report : probe::ProbeGpus(request).reports) {
    for (const std::string& line : probe::LogLines(report)) log_(line);
    state.board.Set(report.device.name, HealthOf(report));
    changed.push_back(report.device.name);
    state.reports[report.device.name] = std::move(report);
  }
  for (const LikenRenderNode& node : fresh) state.queried[node.device_name] = node;
  return changed;
}

void Agent::AskForNewPodIfMissing(State& state) {
  if (state.evicted) return;
  const std::vector<std::string> missing = RenderNodesMissingFromPod(state.reports);
  const WallClock::time_point now = WallClock::now();
  if (missing.empty() || now < state.eviction_not_before) return;
  if (!options_.pod.known()) {
    log_("agent: warning: " + Joined(missing, ", ") +
         " is not in this pod's /dev, and the agent does not know its own pod (POD_NAME, "
         "POD_NAMESPACE) to be made again with it; its capabilities stay unknown until the pod "
         "is replaced");
    state.eviction_not_before = now + kGivenUpRecheck;
    return;
  }
  const std::filesystem::path file =
      options_.plugins_dir / options_.driver_name / "render-node-evictions.json";
  Result<EvictionRecords> records = LoadEvictionRecords(file);
  if (!records) {
    log_("agent: warning: the record of past evictions is unreadable, and is started again: " +
         records.error_message());
    records = EvictionRecords{};
  }
  const EvictionDecision decision = DecideSelfEviction(missing, *records, now);
  for (const std::string& node : decision.given_up) {
    if (!state.given_up_said.insert(node).second) continue;
    log_("agent: warning: " + node + " is still not in this pod's /dev after " +
         std::to_string(std::size(kEvictionWaits)) +
         " new pods; the agent asks for no more (is liken's kubelet plugin putting it in the "
         "claim?), and its capabilities stay unknown");
  }
  if (decision.evict_for.empty()) {
    const bool waiting = decision.next_due != WallClock::time_point{};
    if (waiting) {
      const auto minutes = std::chrono::ceil<std::chrono::minutes>(decision.next_due - now).count();
      log_("agent: warning: " + Joined(missing, ", ") +
           " is still not in this pod's /dev, though a pod was made again for it; the next "
           "eviction is due in " +
           std::to_string(minutes) + " min");
    }
    state.eviction_not_before = waiting ? decision.next_due : now + kGivenUpRecheck;
    return;
  }
  // The record is written before the eviction.
  // So an agent killed in between cannot evict again at once.
  // An eviction that fails puts the old record back.
  if (Result<void> saved =
          SaveEvictionRecords(file, AfterEviction(*records, missing, decision.evict_for, now));
      !saved) {
    log_("agent: warning: " + Joined(decision.evict_for, ", ") +
         " is not in this pod's /dev, but the record that keeps the agent from evicting its pod "
         "again and again cannot be written, so the pod stays: " +
         saved.error_message());
    state.eviction_not_before = now + kGivenUpRecheck;
    return;
  }
  const std::string pod = options_.pod.namespace_name + "/" + options_.pod.name;
  if (Result<void> evicted = EvictPod(client_, options_.pod); !evicted) {
    const std::chrono::seconds wait = evicted.error().retry_after.value_or(kEvictionRetry);
    log_("agent: the eviction of its own pod " + pod + " failed, tried again in " +
         std::to_string(wait.count()) + " s: " + evicted.error_message());
    if (Result<void> restored = SaveEvictionRecords(file, *records); !restored)
      log_("agent: warning: " + restored.error_message());
    state.eviction_not_before = now + wait;
    return;
  }
  state.evicted = true;
  log_("agent: " + Joined(decision.evict_for, ", ") +
       " is not in this pod's /dev (the pod's claim was allocated before liken published it); "
       "evicted its own pod " +
       pod + " so that the DaemonSet makes one whose claim holds it");
}

// In sysfs mode the node's GPUs are the render nodes and NVIDIA GPUs sysfs shows.
// They are asked once: nothing on a running node adds one without a new pod.
void Agent::QuerySysfsGpus(State& state) {
  for (probe::DeviceReport& report :
       probe::ProbeGpus({.roots = options_.roots, .query = options_.query}).reports) {
    for (const std::string& line : probe::LogLines(report)) log_(line);
    state.board.Set(report.device.name, HealthOf(report));
    state.reports[report.device.name] = std::move(report);
  }
}

bool Agent::ApplyEvents(State& state, std::vector<Event>& events, bool& liken_changed) {
  bool stopping = false;
  for (Event& event : events) {
    switch (event.source) {
      case Event::Source::kStop:
        stopping = true;
        break;
      case Event::Source::kOwnSlices:
        state.publisher.Apply(event.update);
        break;
      case Event::Source::kLikenSlices:
        kube::ApplyWatchUpdate(event.update, state.liken_slices);
        if (event.update.kind == kube::WatchUpdate::Kind::kReplaceAll) state.liken_listed = true;
        liken_changed = true;
        break;
    }
  }
  return stopping;
}

std::optional<Clock::time_point> Agent::PublishDevices(State& state) {
  std::vector<probe::Device> devices;
  for (const auto& [name, report] : state.reports) devices.push_back(report.device);
  const Result<void> published = state.publisher.Publish(devices);
  state.published = published.ok();
  return published
             ? std::nullopt
             : std::optional(Clock::now() + published.error().retry_after.value_or(kHeartbeat));
}

void Agent::ServeEvents(State& state, bool from_liken) {
  std::optional<Clock::time_point> retry_at;
  while (true) {
    std::vector<Event> events = Take(retry_at.value_or(Clock::now() + kHeartbeat));
    state.heartbeat = Clock::now().time_since_epoch().count();
    bool liken_changed = false;
    if (ApplyEvents(state, events, liken_changed)) break;
    if (from_liken && !state.liken_listed) continue;
    if (liken_changed && !QueryNewRenderNodes(state).empty()) state.published = false;
    if (from_liken) AskForNewPodIfMissing(state);
    if (!state.publisher.listed()) continue;
    if (retry_at && Clock::now() < *retry_at) continue;
    retry_at = PublishDevices(state);
    state.heartbeat = Clock::now().time_since_epoch().count();
  }
}

int Agent::Run() {
  const bool from_liken = options_.source == RenderNodeSource::kLiken;
  log_("agent: node " + options_.node_name + ", driver " + options_.driver_name +
       ", render nodes from " +
       (from_liken ? std::string(kLikenDriver) + " slices"
                   : "sysfs (" + options_.roots.sysfs + ")"));
  State state(client_, options_, log_);

  KubeletPluginConfig plugin_config{.driver_name = options_.driver_name,
                                    .plugins_dir = options_.plugins_dir,
                                    .registry_dir = options_.registry_dir,
                                    .health = {.pool_name = options_.node_name}};
  auto plugin = KubeletPlugin::Start(plugin_config, ApiClaimChecker(client_, options_.driver_name),
                                     state.board, log_);
  if (!plugin) {
    log_("agent: the kubelet plugin did not start: " + plugin.error_message());
    return 1;
  }
  state.plugin_listening = true;

  HealthChecks checks =
      AgentHealthChecks(state.heartbeat, state.plugin_listening, state.published, **plugin);
  // The HTTP thread reads only what is safe across threads: the board, two flags, the node.
  checks.metrics = [&state, &plugin = **plugin, node = options_.node_name] {
    return AgentMetricsText({.node = node,
                             .devices = state.board.Snapshot().devices,
                             .slices_published = state.published,
                             .plugin_registered = plugin.registered()});
  };
  auto health = HealthServer::Start(options_.health_address, std::move(checks));
  if (!health) {
    log_("agent: " + health.error_message());
    (*plugin)->Shutdown(std::chrono::seconds(1));
    return 1;
  }
  log_("agent: health probes on port " + std::to_string((*health)->port()) +
       " (/livez, /readyz, /metrics)");

  if (!from_liken) QuerySysfsGpus(state);

  kube::ListWatch own(
      client_,
      {.collection = kResourceSlicesPath,
       .field_selector = SliceSelector(options_.driver_name, options_.node_name)},
      [this](kube::WatchUpdate update) {
        Push({.source = Event::Source::kOwnSlices, .update = std::move(update)});
      },
      log_);
  std::optional<kube::ListWatch> liken;
  if (from_liken) {
    liken.emplace(
        client_,
        kube::ListWatchTarget{.collection = kResourceSlicesPath,
                              .field_selector = SliceSelector(kLikenDriver, options_.node_name)},
        [this](kube::WatchUpdate update) {
          Push({.source = Event::Source::kLikenSlices, .update = std::move(update)});
        },
        log_);
    liken->Start();
  }
  own.Start();

  ServeEvents(state, from_liken);

  log_("agent: stopping");
  own.Stop();
  if (liken) liken->Stop();
  state.plugin_listening = false;
  (*plugin)->Shutdown(std::chrono::seconds(5));
  return 0;
}

}  // namespace mc::dra
