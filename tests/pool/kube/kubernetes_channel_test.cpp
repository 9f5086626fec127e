// The Kubernetes channel over a fake pool and a recording worker channel: the scale carries
// COLD <-> SPARE, the worker's own API carries the rest, and every action leaves an Event.
#include "pool/kube/kubernetes_channel.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pool/kube/pod_endpoints.h"

namespace mc::pool {
namespace {

using pool::Action;
using pool::ActionKind;
using pool::WorkerEndpoint;

struct RecordedEvent {
  EventType type;
  std::string reason;
  std::string message;
};

// FakePool holds a StatefulSet's scale and pods in memory, as the API server would.
class FakePool : public KubernetesPool {
 public:
  int replicas = 0;
  int version = 1;
  std::vector<WorkerPod> pods;
  std::vector<RecordedEvent> events;
  bool refuse_events = false;
  std::vector<std::string> writes;  // "replicas@version"

  Result<Scale> ReadScale() override { return Scale{replicas, std::to_string(version)}; }
  Result<void> WriteScale(int to, const std::string& resource_version) override {
    writes.push_back(std::to_string(to) + "@" + resource_version);
    if (!resource_version.empty() && resource_version != std::to_string(version))
      return Conflict("scale: the object has been modified");
    replicas = to;
    ++version;
    return Ok();
  }
  Result<std::vector<WorkerPod>> WorkerPods() override { return pods; }
  Result<void> RecordEvent(EventType type, const std::string& reason,
                           const std::string& message) override {
    if (refuse_events) return PermissionDenied("events: HTTP 403");
    events.push_back({type, reason, message});
    return Ok();
  }
};

// RecordingChannel stands in for the worker-API channel.
class RecordingChannel : public pool::ControlChannel {
 public:
  std::vector<std::string> applied;
  bool fail = false;

  Result<void> Apply(const Action& action, const WorkerEndpoint& worker) override {
    applied.push_back(std::string(pool::ActionKindName(action.kind)) + " " + worker.name);
    if (fail) return Unavailable(worker.name + ": drain: the control API answered 503");
    return Ok();
  }
  std::string Describe(const Action& action, const WorkerEndpoint& worker) const override {
    return "POST " + worker.url + "/" + std::string(pool::ActionKindName(action.kind));
  }
};

WorkerPod PodOf(int ordinal) {
  WorkerPod pod;
  pod.name = "peertube-worker-" + std::to_string(ordinal);
  pod.ordinal = ordinal;
  pod.phase = "Running";
  pod.pod_ip = "10.0.0." + std::to_string(10 + ordinal);
  return pod;
}

Action ActionOf(ActionKind kind, const std::string& worker) {
  return Action{.kind = kind, .worker = worker, .reason = pool::ReasonCode::kWoken};
}

WorkerEndpoint Endpoint(const std::string& name) { return {.name = name, .url = "http://w"}; }

class KubernetesChannelTest : public ::testing::Test {
 protected:
  FakePool pool_;
  RecordingChannel workers_;
  std::vector<std::string> log_;
  KubernetesChannel channel_{
      pool_, workers_, {.log = [this](const std::string& line) { log_.push_back(line); }}};
};

TEST_F(KubernetesChannelTest, AWakeScalesUpByOneAgainstTheVersionItRead) {
  pool_.replicas = 1;
  ASSERT_TRUE(channel_.Apply(ActionOf(ActionKind::kWake, "peertube-worker-1"),
                             Endpoint("peertube-worker-1")));
  EXPECT_EQ(pool_.replicas, 2);
  EXPECT_EQ(pool_.writes, std::vector<std::string>{"2@1"});
  EXPECT_TRUE(workers_.applied.empty());
  ASSERT_EQ(pool_.events.size(), 1u);
  EXPECT_EQ(pool_.events[0].type, EventType::kNormal);
  EXPECT_EQ(pool_.events[0].reason, "ScaledUp");
  EXPECT_EQ(pool_.events[0].message,
            "peertube-worker-1: wake: scaled from 1 to 2 replicas (policy: woken)");
}

TEST_F(KubernetesChannelTest, ASuspendOfTheHighestOrdinalScalesDownByOne) {
  pool_.replicas = 3;
  pool_.pods = {PodOf(0), PodOf(1), PodOf(2)};
  ASSERT_TRUE(channel_.Apply(ActionOf(ActionKind::kSuspend, "peertube-worker-2"),
                             Endpoint("peertube-worker-2")));
  EXPECT_EQ(pool_.replicas, 2);
  ASSERT_EQ(pool_.events.size(), 1u);
  EXPECT_EQ(pool_.events[0].reason, "ScaledDown");
  EXPECT_NE(pool_.events[0].message.find("removing pod peertube-worker-2"), std::string::npos);
}

TEST_F(KubernetesChannelTest, ASuspendOfAnotherOrdinalIsRefusedWithWhyAndAWarning) {
  pool_.replicas = 3;
  pool_.pods = {PodOf(0), PodOf(1), PodOf(2)};
  Result<void> result = channel_.Apply(ActionOf(ActionKind::kSuspend, "peertube-worker-0"),
                                       Endpoint("peertube-worker-0"));
  ASSERT_FALSE(result);
  EXPECT_TRUE(result.error().IsUnsupported());
  EXPECT_EQ(result.error_message(),
            "peertube-worker-0: suspend: pod peertube-worker-0 is ordinal 0, but a StatefulSet "
            "of 3 replicas gives back ordinal 2 first; suspend that worker first, or keep this "
            "one drained");
  EXPECT_EQ(pool_.replicas, 3);
  EXPECT_TRUE(pool_.writes.empty());
  ASSERT_EQ(pool_.events.size(), 1u);
  EXPECT_EQ(pool_.events[0].type, EventType::kWarning);
  EXPECT_EQ(pool_.events[0].reason, "ScaleDownFailed");
}

TEST_F(KubernetesChannelTest, ASuspendOfAWorkerWithNoPodIsNotFound) {
  pool_.replicas = 1;
  pool_.pods = {PodOf(0)};
  Result<void> result =
      channel_.Apply(ActionOf(ActionKind::kSuspend, "gpu-box:gpu0"), Endpoint("gpu-box:gpu0"));
  ASSERT_FALSE(result);
  EXPECT_TRUE(result.error().IsNotFound());
  EXPECT_EQ(result.error_message(),
            "gpu-box:gpu0: suspend: no pod of the StatefulSet is this worker");
}

TEST_F(KubernetesChannelTest, ASuspendFindsThePodByItsRunnerNameAnnotation) {
  pool_.replicas = 2;
  pool_.pods = {PodOf(0), PodOf(1)};
  pool_.pods[1].runner_name = "w1:gpu0";
  ASSERT_TRUE(channel_.Apply(ActionOf(ActionKind::kSuspend, "w1:gpu0"), Endpoint("w1:gpu0")));
  EXPECT_EQ(pool_.replicas, 1);
}

TEST_F(KubernetesChannelTest, AScaleThatKeepsLosingTheRaceIsAConflictForTheNextCycle) {
  // Someone writes between every read and its write: each write names an old version.
  class RacingPool : public FakePool {
   public:
    Result<Scale> ReadScale() override {
      Scale scale{replicas, std::to_string(version)};
      ++version;
      return scale;
    }
  } racing;
  KubernetesChannel channel(racing, workers_, {.log = [](const std::string&) {}});
  Result<void> result = channel.Apply(ActionOf(ActionKind::kWake, "peertube-worker-0"),
                                      Endpoint("peertube-worker-0"));
  ASSERT_FALSE(result);
  EXPECT_TRUE(result.error().IsConflict());
  EXPECT_EQ(racing.replicas, 0);
  EXPECT_EQ(racing.writes.size(), 5u);
  ASSERT_EQ(racing.events.size(), 1u);
  EXPECT_EQ(racing.events[0].reason, "ScaleUpFailed");
}

TEST_F(KubernetesChannelTest, AConflictIsRetriedWithAFreshReadThatChecksTheOrdinalAgain) {
  // The StatefulSet controller writes its status between the read and the first write.
  class OnceRacingPool : public FakePool {
   public:
    bool raced = false;
    Result<Scale> ReadScale() override {
      Scale scale{replicas, std::to_string(version)};
      if (!raced) ++version, raced = true;
      return scale;
    }
  } pool;
  pool.replicas = 2;
  pool.pods = {PodOf(0), PodOf(1)};
  KubernetesChannel channel(pool, workers_, {.log = [](const std::string&) {}});
  ASSERT_TRUE(channel.Apply(ActionOf(ActionKind::kSuspend, "peertube-worker-1"),
                            Endpoint("peertube-worker-1")));
  EXPECT_EQ(pool.writes, (std::vector<std::string>{"1@1", "1@2"}));
  EXPECT_EQ(pool.replicas, 1);
}

TEST_F(KubernetesChannelTest, EnableDrainClassesAndProbeGoToTheWorkersOwnChannel) {
  for (ActionKind kind :
       {ActionKind::kEnable, ActionKind::kDrain, ActionKind::kSetClasses, ActionKind::kProbe}) {
    ASSERT_TRUE(channel_.Apply(ActionOf(kind, "peertube-worker-0"), Endpoint("peertube-worker-0")));
  }
  EXPECT_EQ(workers_.applied,
            (std::vector<std::string>{"enable peertube-worker-0", "drain peertube-worker-0",
                                      "set-classes peertube-worker-0", "probe peertube-worker-0"}));
  EXPECT_TRUE(pool_.writes.empty());
  ASSERT_EQ(pool_.events.size(), 4u);
  EXPECT_EQ(pool_.events[0].reason, "WorkerEnabled");
  EXPECT_EQ(pool_.events[1].reason, "WorkerDraining");
  EXPECT_EQ(pool_.events[1].message,
            "peertube-worker-0: drain: POST http://w/drain (policy: woken)");
  EXPECT_EQ(pool_.events[2].reason, "WorkerClassesSet");
  EXPECT_EQ(pool_.events[3].reason, "WorkerProbed");
}

TEST_F(KubernetesChannelTest, AFailureOfTheWorkersChannelIsAWarningWithItsOwnMessage) {
  workers_.fail = true;
  Result<void> result = channel_.Apply(ActionOf(ActionKind::kDrain, "peertube-worker-0"),
                                       Endpoint("peertube-worker-0"));
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error_message(), "peertube-worker-0: drain: the control API answered 503");
  ASSERT_EQ(pool_.events.size(), 1u);
  EXPECT_EQ(pool_.events[0].type, EventType::kWarning);
  EXPECT_EQ(pool_.events[0].reason, "DrainFailed");
}

TEST_F(KubernetesChannelTest, AnEventThatCannotBeRecordedIsLoggedAndTheActionStands) {
  pool_.refuse_events = true;
  ASSERT_TRUE(channel_.Apply(ActionOf(ActionKind::kWake, "peertube-worker-0"),
                             Endpoint("peertube-worker-0")));
  EXPECT_EQ(pool_.replicas, 1);
  ASSERT_EQ(log_.size(), 1u);
  EXPECT_EQ(log_[0], "pool: the ScaledUp Event could not be recorded: events: HTTP 403");
}

TEST_F(KubernetesChannelTest, DescribeSaysWhatItWouldDoAndDoesNothing) {
  EXPECT_EQ(channel_.Describe(ActionOf(ActionKind::kWake, "w"), Endpoint("w")),
            "scale the StatefulSet up by one replica (PUT .../scale), for w");
  EXPECT_EQ(channel_.Describe(ActionOf(ActionKind::kDrain, "w"), Endpoint("w")),
            "POST http://w/drain");
  EXPECT_TRUE(pool_.writes.empty());
  EXPECT_TRUE(pool_.events.empty());
}

TEST(PodEndpoints, ARunningPodIsItsIpWithTheStatusPortAndItsControlApiOverTlsUnderItsStableName) {
  WorkerPod pod = PodOf(1);
  const WorkerEndpoint endpoint =
      EndpointOf(pod, {.port = 9464,
                       .control_port = 9466,
                       .control_ca_file = "/run/secrets/media-pool-control/ca.crt",
                       .control_key_file = "/run/secrets/media-pool-control/key",
                       .tls_name_suffix = ".peertube-worker.peertube-workers.svc"});
  EXPECT_EQ(endpoint.name, "peertube-worker-1");
  EXPECT_EQ(endpoint.url, "http://10.0.0.11:9464");
  EXPECT_EQ(endpoint.control_url, "https://10.0.0.11:9466");
  EXPECT_EQ(endpoint.control_tls_name, "peertube-worker-1.peertube-worker.peertube-workers.svc");
  EXPECT_EQ(endpoint.control_ca_file, "/run/secrets/media-pool-control/ca.crt");
  EXPECT_EQ(endpoint.control_key_file, "/run/secrets/media-pool-control/key");
  EXPECT_TRUE(endpoint.control_token_file.empty()) << "each pod's token is derived, never shared";
  EXPECT_FALSE(endpoint.wakeable);
  pod.pod_ip = "fd00::7";
  EXPECT_EQ(EndpointOf(pod, {}).url, "http://[fd00::7]:9464");
  EXPECT_EQ(EndpointOf(pod, {}).control_url, "https://[fd00::7]:9466");
  pod.runner_name = "w1:gpu0";
  EXPECT_EQ(EndpointOf(pod, {}).name, "w1:gpu0");
}

TEST(PodEndpoints, OnlyPodsWithAnAddressAndNoDeletionAreReachable) {
  WorkerPod pending = PodOf(0);
  pending.pod_ip.clear();
  pending.phase = "Pending";
  WorkerPod leaving = PodOf(1);
  leaving.terminating = true;
  const std::vector<WorkerEndpoint> endpoints =
      ReachableEndpoints({pending, leaving, PodOf(2)}, {});
  ASSERT_EQ(endpoints.size(), 1u);
  EXPECT_EQ(endpoints[0].name, "peertube-worker-2");
}

TEST(PodEndpoints, OnlyTheHighestOrdinalLeftInTheStatefulSetMayBePutToSleep) {
  WorkerPod leaving = PodOf(2);
  leaving.terminating = true;
  std::vector<WorkerEndpoint> endpoints = ReachableEndpoints({PodOf(0), PodOf(1), leaving}, {});
  ASSERT_EQ(endpoints.size(), 2u);
  EXPECT_FALSE(endpoints[0].wakeable);
  EXPECT_TRUE(endpoints[1].wakeable);
  // A higher ordinal that is still Pending goes first: nothing below it may be given back.
  WorkerPod pending = PodOf(2);
  pending.pod_ip.clear();
  endpoints = ReachableEndpoints({PodOf(0), PodOf(1), pending}, {});
  ASSERT_EQ(endpoints.size(), 2u);
  EXPECT_FALSE(endpoints[0].wakeable);
  EXPECT_FALSE(endpoints[1].wakeable);
}

TEST(PodEndpoints, APodTheSchedulerCannotPlaceNamesItsClassAndTheSchedulersWords) {
  WorkerPod waiting = PodOf(0);
  waiting.pod_ip.clear();
  waiting.phase = "Pending";
  waiting.unschedulable = "0/2 nodes are available: 2 cannot allocate all claims.";
  WorkerPod leaving = waiting;
  leaving.name = "peertube-worker-1";
  leaving.terminating = true;
  const std::vector<std::string> lines =
      UnservableLines({waiting, leaving, PodOf(2)}, "peertube-worker");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "statefulset peertube-worker: pod peertube-worker-0 cannot be placed, so this class of "
            "workers has no worker: 0/2 nodes are available: 2 cannot allocate all claims.");
  EXPECT_TRUE(UnservableLines({PodOf(1)}, "peertube-worker").empty());
}

}  // namespace
}  // namespace mc::pool
