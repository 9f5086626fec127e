// The agent: the DaemonSet's process (docs/dra/agent.md). It:
//  - finds the node's render nodes, from liken's slices or from sysfs;
//  - queries each driver once, in a child;
//  - publishes the devices in ResourceSlices;
//  - keeps them published against deletions and outside edits;
//  - serves the kubelet plugin with each device's health.
//
// One thread decides and writes.
// The watches and the plugin run on threads of their own and only hand it events.
// So the state the agent publishes has one owner.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "common/kube/kube_client.h"
#include "common/kube/list_watch.h"
#include "dra/agent/agent_options.h"
#include "dra/agent/liken_render_nodes.h"
#include "dra/plugin/kubelet_plugin.h"
#include "probe/pipeline/probe_pipeline.h"

namespace mc::dra {

using AgentLog = std::function<void(const std::string& line)>;

class Agent {
 public:
  // The client must outlive the agent.
  Agent(AgentOptions options, kube::KubeClient& client, AgentLog log);
  ~Agent();

  // Run serves until Stop, and gives the process's exit status:
  //  - 0 after Stop;
  //  - 1 when the agent could not start (its reason logged).
  int Run();
  // Stop may be called from any thread, a signal-waiting one included.
  void Stop();

 private:
  struct Event {
    enum class Source { kOwnSlices, kLikenSlices, kStop };
    Source source = Source::kStop;
    kube::WatchUpdate update;
  };
  struct State;

  void Push(Event event);
  // Waits for events until `until`, and takes them all.
  std::vector<Event> Take(std::chrono::steady_clock::time_point until);
  std::vector<std::string> QueryNewRenderNodes(State& state);
  // Evicts the agent's own pod when it lacks a render node.
  // The guard must allow it.
  void AskForNewPodIfMissing(State& state);
  void QuerySysfsGpus(State& state);
  // Takes the events as they come and acts on them, until one says stop.
  void ServeEvents(State& state, bool from_liken);
  // Applies the slices' updates; true when one of the events is a stop.
  bool ApplyEvents(State& state, std::vector<Event>& events, bool& liken_changed);
  // Publishes what the queries found; gives when to try again after a failure.
  std::optional<std::chrono::steady_clock::time_point> PublishDevices(State& state);

  AgentOptions options_;
  kube::KubeClient& client_;
  AgentLog log_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Event> events_;
};

// LikenDeviceReports queries the given liken render nodes.
// It gives one report per node, named as liken names it.
// A node whose render node sysfs does not show is reported failed, never left out.
std::vector<probe::DeviceReport> LikenDeviceReports(const std::vector<LikenRenderNode>& nodes,
                                                    const probe::DiscoveryRoots& roots,
                                                    const probe::QueryCommand& query);

}  // namespace mc::dra
