// The pool manager's Kubernetes side against the real control plane of tests/cluster: the
// workers' StatefulSet of deploy/worker/ (with a fake of what only a kubelet would use),
// the device classes of deploy/, and the manager authenticated as the ServiceAccount of
// deploy/pool/ with exactly its Role. The pool is opened through its module, as the binary
// opens it. The real kube-controller-manager makes the pods and their claims, and the real
// kube-scheduler allocates the claims from slices that hold what the probe states of
// recorded NVIDIA GPUs (tests/fakenv).
//
// Not a ctest test: it needs a control plane, which `make test-cluster` starts, and it fails
// (never skips) without one:
//
//   tests/cluster/start-control-plane /tmp/cp
//   MEDIA_CAP_CLUSTER_DIR=/tmp/cp build/tests/pool/kube/pool_kube_cluster_tests
//
// The tests run in the order written: the AV1 worker waits on a cluster of GPUs that encode
// no AV1 before the GeForce, which does, joins it.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/kube/kube_client.h"
#include "common/kube/kube_config.h"
#include "common/kube/list_watch.h"
#include "pool/kube/kubernetes_channel.h"
#include "pool/kube/pool_module.h"
#include "support/cluster_suite.h"
#include "support/eventually.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::pool {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kRepo = MEDIA_CAP_REPO_DIR;
constexpr char kNamespace[] = "peertube-workers";
constexpr char kWorkers[] = "peertube-worker";
constexpr char kAv1Workers[] = "peertube-worker-av1";
constexpr char kSelector[] = "app.kubernetes.io/name=peertube-worker";
constexpr char kAv1Selector[] = "app.kubernetes.io/name=peertube-worker-av1";

// The API server is polled four times a second while a test waits on the cluster.
mc::testing::Polling PollCluster(int seconds) {
  return {.timeout = std::chrono::seconds(seconds), .every = std::chrono::milliseconds(250)};
}

// The cluster and what every test shares: made once, for the whole suite.
struct Cluster {
  fs::path dir;
  std::map<std::string, std::string> env;
  mc::testing::TempDir files;
  std::unique_ptr<kube::KubeClient> admin;
  fs::path pool_kubeconfig;
  std::string setup_error;

  std::string Kubectl(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {env["KUBECTL"], "--kubeconfig", env["ADMIN_KUBECONFIG"]};
    argv.insert(argv.end(), args.begin(), args.end());
    const probe::ChildOutcome outcome = mc::testing::RunCommand(argv);
    if (outcome.kind != probe::ChildOutcome::Kind::kExited || outcome.code != 0) {
      std::string command;
      for (const std::string& arg : args) command += " " + arg;
      throw std::runtime_error("kubectl" + command + ": " + outcome.err + outcome.out);
    }
    return outcome.out;
  }
  void Apply(const fs::path& file) {
    Kubectl({"apply", "--server-side", "--force-conflicts", "-f", file.string()});
  }

  Json Get(const std::string& target) {
    Result<kube::HttpResponse> response = admin->Send({.target = target});
    if (!response) throw std::runtime_error(response.error_message());
    if (response->status != 200)
      throw std::runtime_error(target + ": " + kube::StatusMessage(*response));
    return Json::parse(response->body);
  }
  void Create(const std::string& target, const Json& object) {
    Result<kube::HttpResponse> response =
        admin->Send({.method = "POST", .target = target, .body = object.dump()});
    if (!response) throw std::runtime_error(response.error_message());
    if (response->status != 201 && response->status != 409)
      throw std::runtime_error(target + ": " + kube::StatusMessage(*response));
  }
};

Cluster* cluster = nullptr;

void ReadEnv(Cluster& c) {
  Result<std::map<std::string, std::string>> env = mc::testing::ReadClusterEnv(c.dir);
  if (!env) throw std::runtime_error(env.error_message());
  c.env = std::move(env).value();
}

// The media.liken.sh slice of a node whose one GPU the record describes: the devices are
// what `probe --output json` prints for it, exactly as the agent would publish them.
Json MediaSlice(const std::string& node, const std::string& record) {
  const probe::ChildOutcome probe =
      mc::testing::RunCommand({(kRepo / "tests/fakenv/probe-record").string(),
                               (kRepo / "tests/fakenv/records" / record).string()},
                              {"MEDIA_CAP_BUILD=" MEDIA_CAP_BUILD_DIR});
  if (probe.kind != probe::ChildOutcome::Kind::kExited || probe.code != 0)
    throw std::runtime_error("probe-record " + record + ": " + probe.err);
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", node + "-media.liken.sh"}}},
          {"spec",
           {{"driver", "media.liken.sh"},
            {"nodeName", node},
            {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", Json::parse(probe.out)}}}};
}

// liken's slice of the same node: the GPU's render node, shareable, paired with the media
// device through the PCI address (deploy/worker's claim asks for both, matched on it).
Json LikenSlice(const std::string& node, const std::string& address) {
  Json device = {{"name", "pci-0000-01-00-0"},
                 {"allowMultipleAllocations", true},
                 {"attributes",
                  {{"renderNode", {{"bool", true}}},
                   {"address", {{"string", address}}},
                   {"resource.kubernetes.io/pciBusID", {{"string", address}}}}}};
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", node + "-liken.sh"}}},
          {"spec",
           {{"driver", "liken.sh"},
            {"nodeName", node},
            {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", Json::array({device})}}}};
}

// The same GPU as NVIDIA's DRA driver would publish it, which cannot run here; the NVIDIA
// claims pair it with the encoder through the PCI address.
Json NvidiaSlice(const std::string& node, const std::string& address) {
  Json device = {{"name", "gpu-0"},
                 {"attributes", {{"resource.kubernetes.io/pciBusID", {{"string", address}}}}}};
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", node + "-gpu.nvidia.com"}}},
          {"spec",
           {{"driver", "gpu.nvidia.com"},
            {"nodeName", node},
            {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", Json::array({device})}}}};
}

// A stand-in of NVIDIA's DeviceClass, for the slices above.
Json NvidiaDeviceClass() {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "DeviceClass"},
          {"metadata", {{"name", "gpu.nvidia.com"}}},
          {"spec",
           {{"selectors",
             Json::array({{{"cel", {{"expression", "device.driver == \"gpu.nvidia.com\""}}}}})}}}};
}

void AddGpuNode(Cluster& c, const std::string& node, const std::string& record) {
  const probe::ChildOutcome created = mc::testing::RunCommand(
      {(kRepo / "tests/cluster/create-node").string(), c.dir.string(), node});
  if (created.kind != probe::ChildOutcome::Kind::kExited || created.code != 0)
    throw std::runtime_error("create-node " + node + ": " + created.err);
  c.Create("/apis/resource.k8s.io/v1/resourceslices", MediaSlice(node, record));
  c.Create("/apis/resource.k8s.io/v1/resourceslices", LikenSlice(node, "0000:01:00.0"));
  c.Create("/apis/resource.k8s.io/v1/resourceslices", NvidiaSlice(node, "0000:01:00.0"));
}

// The name of deploy/worker's claim template for GeForce boards: it carries a digest.
std::string GeforceClaimTemplate() {
  for (const YAML::Node& document :
       YAML::LoadAllFromFile((kRepo / "deploy/worker/claim-template.yaml").string())) {
    const std::string name = document["metadata"]["name"].as<std::string>();
    if (name.starts_with("peertube-worker-nvidia-geforce-")) return name;
  }
  throw std::runtime_error("deploy/worker/claim-template.yaml has no GeForce template");
}

// deploy/worker's StatefulSet as this cluster can place it: no kubelet runs here, so its
// state volume is an emptyDir instead of a claim on storage no provisioner would make.
// Everything the scheduler reads (the GPU claim, the resources) is as shipped. `name` and
// `template` make a sibling StatefulSet of another class of workers.
YAML::Node WorkerStatefulSet(const std::string& name, const std::string& claim_template,
                             int replicas) {
  for (YAML::Node document :
       YAML::LoadAllFromFile((kRepo / "deploy/worker/statefulset.yaml").string())) {
    if (document["kind"].as<std::string>() != "StatefulSet") continue;
    document["metadata"]["name"] = name;
    document["metadata"]["labels"]["app.kubernetes.io/name"] = name;
    document["spec"]["replicas"] = replicas;
    document["spec"]["serviceName"] = name;
    document["spec"]["selector"]["matchLabels"]["app.kubernetes.io/name"] = name;
    YAML::Node pod = document["spec"]["template"];
    pod["metadata"]["labels"]["app.kubernetes.io/name"] = name;
    pod["spec"]["resourceClaims"][0]["resourceClaimTemplateName"] = claim_template;
    YAML::Node state;
    state["name"] = "state";
    state["emptyDir"] = YAML::Node(YAML::NodeType::Map);
    pod["spec"]["volumes"].push_back(state);
    document["spec"].remove("volumeClaimTemplates");
    return document;
  }
  throw std::runtime_error("deploy/worker/statefulset.yaml has no StatefulSet");
}

// ToJson is the object kubectl would read from the YAML: a quoted scalar stays a string
// (yaml-cpp's emitter would drop the quotes of "3"), and a number with a leading 0 is octal,
// as YAML 1.1, which Kubernetes reads, has it (defaultMode: 0400).
Json ToJson(const YAML::Node& node) {
  if (node.IsMap()) {
    Json object = Json::object();
    for (const auto& member : node) object[member.first.as<std::string>()] = ToJson(member.second);
    return object;
  }
  if (node.IsSequence()) {
    Json array = Json::array();
    for (const YAML::Node& element : node) array.push_back(ToJson(element));
    return array;
  }
  if (!node.IsScalar()) return nullptr;
  const std::string text = node.Scalar();
  if (node.Tag() == "!") return text;
  if (text == "true" || text == "false") return text == "true";
  if (text == "null" || text == "~") return nullptr;
  if (!text.empty() && text.find_first_not_of("0123456789") == std::string::npos)
    return std::stoll(text, nullptr, text.size() > 1 && text[0] == '0' ? 8 : 10);
  return text;
}

fs::path WriteYaml(Cluster& c, const std::string& file, const YAML::Node& node) {
  return c.files.Write(file + ".json", ToJson(node).dump());
}

// A kubeconfig that is the pool manager's ServiceAccount: a token for it from the
// TokenRequest API, as the kubelet would mount into its pod.
fs::path PoolKubeconfig(Cluster& c) {
  std::string token =
      c.Kubectl({"create", "token", "media-pool", "-n", kNamespace, "--duration=2h"});
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  return c.files.Write("pool.kubeconfig",
                       "apiVersion: v1\nkind: Config\n"
                       "clusters: [{name: test, cluster: {server: '" +
                           c.env["APISERVER_URL"] + "', certificate-authority: '" +
                           c.env["CA_FILE"] +
                           "'}}]\n"
                           "users: [{name: pool, user: {token: '" +
                           token +
                           "'}}]\n"
                           "contexts: [{name: pool, context: {cluster: test, user: pool}}]\n"
                           "current-context: pool\n");
}

void SetUpCluster(Cluster& c) {
  ReadEnv(c);
  Result<kube::KubeConfig> admin = kube::LoadKubeconfig(c.env["ADMIN_KUBECONFIG"]);
  if (!admin) throw std::runtime_error(admin.error_message());
  c.admin = kube::KubeClient::Create(std::move(admin).value()).value();

  c.Apply(kRepo / "deploy/device-classes.yaml");
  c.Apply(WriteYaml(c, "namespace.yaml",
                    YAML::Load(c.Kubectl(
                        {"create", "namespace", kNamespace, "--dry-run=client", "-o", "yaml"}))));
  c.Apply(kRepo / "deploy/pool/service-account.yaml");
  c.Apply(kRepo / "deploy/pool/rbac.yaml");
  c.Apply(kRepo / "deploy/worker/claim-template.yaml");
  c.Create("/apis/resource.k8s.io/v1/deviceclasses", NvidiaDeviceClass());
  c.Apply(WriteYaml(c, "workers.yaml", WorkerStatefulSet(kWorkers, GeforceClaimTemplate(), 0)));
  c.pool_kubeconfig = PoolKubeconfig(c);

  // The first GPU of the cluster: an RTX A4000, which encodes H.264 and HEVC and no AV1.
  AddGpuNode(c, "ampere-node", "ampere-rtx-a4000.json");
}

KubernetesPoolOptions OptionsFor(const std::string& statefulset, const std::string& selector) {
  return {.kubeconfig = cluster->pool_kubeconfig.string(),
          .ns = kNamespace,
          .statefulset = statefulset,
          .selector = selector,
          .instance = "pool-cluster-test"};
}

std::unique_ptr<KubernetesPool> OpenPool(const std::string& statefulset,
                                         const std::string& selector) {
  Result<std::unique_ptr<KubernetesPool>> pool =
      OpenKubernetesPool(OptionsFor(statefulset, selector), MEDIA_CAP_POOL_MODULE);
  EXPECT_TRUE(pool) << pool.error_message();
  return pool ? std::move(pool).value() : nullptr;
}

// The worker-API channel's fake: no worker runs here to answer its control API.
class RecordingChannel : public pool::ControlChannel {
 public:
  std::vector<std::string> applied;
  Result<void> Apply(const pool::Action& action, const pool::WorkerEndpoint& worker) override {
    applied.push_back(std::string(pool::ActionKindName(action.kind)) + " " + worker.name);
    return Ok();
  }
  std::string Describe(const pool::Action& action,
                       const pool::WorkerEndpoint& worker) const override {
    return std::string(pool::ActionKindName(action.kind)) + " " + worker.name;
  }
};

pool::Action ActionOf(pool::ActionKind kind, const std::string& worker) {
  return {.kind = kind, .worker = worker, .reason = pool::ReasonCode::kWoken};
}

class PoolKubeCluster : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster = mc::testing::StartClusterSuite<Cluster>(SetUpCluster); }
  static void TearDownTestSuite() {
    delete cluster;
    cluster = nullptr;
  }
  void SetUp() override { ASSERT_EQ(cluster->setup_error, ""); }
};

TEST_F(PoolKubeCluster, TheManagersAccountMayDoNothingButWhatItsRoleGrants) {
  cluster->Apply(WriteYaml(*cluster, "av1-workers.yaml",
                           WorkerStatefulSet(kAv1Workers, "peertube-worker-av1-gpu", 0)));
  // Another StatefulSet of the namespace: its scale is not the manager's to change.
  auto other = OpenPool(kAv1Workers, kAv1Selector);
  ASSERT_TRUE(other);
  Result<void> scaled = other->ScaleTo(1);
  ASSERT_FALSE(scaled);
  EXPECT_TRUE(scaled.error().IsPermissionDenied()) << scaled.error_message();
  EXPECT_NE(scaled.error_message().find("HTTP 403"), std::string::npos) << scaled.error_message();
  Result<Scale> read = other->ReadScale();
  EXPECT_FALSE(read) << "the manager read another StatefulSet's scale";

  Result<kube::KubeConfig> config = kube::LoadKubeconfig(cluster->pool_kubeconfig);
  ASSERT_TRUE(config) << config.error_message();
  auto client = kube::KubeClient::Create(std::move(config).value()).value();
  const std::string ns = std::string("/api/v1/namespaces/") + kNamespace;
  const std::string workers =
      std::string("/apis/apps/v1/namespaces/") + kNamespace + "/statefulsets/" + kWorkers;
  struct Refused {
    const char* what;
    kube::HttpRequest request;
  };
  const std::vector<Refused> refused = {
      {"delete a pod", {.method = "DELETE", .target = ns + "/pods/peertube-worker-0"}},
      {"create a pod",
       {.method = "POST",
        .target = ns + "/pods",
        .body =
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[{"name":"x","image":"x"}]}})"}},
      {"change the StatefulSet's spec",
       {.method = "PATCH",
        .target = workers,
        .body = R"({"spec":{"replicas":5}})",
        .content_type = "application/merge-patch+json"}},
      {"delete the StatefulSet", {.method = "DELETE", .target = workers}},
      {"read a Secret", {.target = ns + "/secrets/peertube-worker"}},
      {"list StatefulSets",
       {.target = std::string("/apis/apps/v1/namespaces/") + kNamespace + "/statefulsets"}},
      {"list pods elsewhere", {.target = "/api/v1/namespaces/liken-system/pods"}},
  };
  for (const Refused& attempt : refused) {
    Result<kube::HttpResponse> response = client->Send(attempt.request);
    ASSERT_TRUE(response) << attempt.what << ": " << response.error_message();
    EXPECT_EQ(response->status, 403) << attempt.what << ": " << kube::StatusMessage(*response);
  }
}

TEST_F(PoolKubeCluster, AnAv1WorkerOnGpusThatEncodeNoAv1StaysPendingWithTheSchedulersReason) {
  // The AV1 class's claim: deploy/worker's, asking for an AV1 encoder instead of H.264. It
  // asks no encodeSessions: the A4000 publishes no session cap, so AV1 is all it lacks.
  YAML::Node av1 = YAML::LoadFile((kRepo / "deploy/worker/claim-template.yaml").string());
  av1["metadata"]["name"] = "peertube-worker-av1-gpu";
  YAML::Node encoder = av1["spec"]["spec"]["devices"]["requests"][1]["exactly"];
  encoder["selectors"][0]["cel"]["expression"] =
      R"(device.attributes["media.liken.sh"].encodeAV1Main)";
  encoder.remove("capacity");
  cluster->Apply(WriteYaml(*cluster, "av1-claim.yaml", av1));
  // The manager may not scale this StatefulSet (above), so the cluster's owner does.
  cluster->Apply(WriteYaml(*cluster, "av1-workers.yaml",
                           WorkerStatefulSet(kAv1Workers, "peertube-worker-av1-gpu", 1)));

  auto pool = OpenPool(kAv1Workers, kAv1Selector);
  ASSERT_TRUE(pool);
  std::vector<WorkerPod> pods;
  std::string last;
  ASSERT_TRUE(mc::testing::Eventually(
      [&] {
        Result<std::vector<WorkerPod>> listed = pool->WorkerPods();
        if (!listed) return last = listed.error_message(), false;
        pods = *listed;
        last = std::to_string(pods.size()) + " pods" +
               (pods.empty() ? ""
                             : ", the first " + pods[0].phase + " '" + pods[0].unschedulable + "'");
        return pods.size() == 1 && !pods[0].unschedulable.empty();
      },
      PollCluster(60)))
      << last;
  EXPECT_EQ(pods[0].name, "peertube-worker-av1-0");
  EXPECT_EQ(pods[0].ordinal, 0);
  EXPECT_EQ(pods[0].phase, "Pending");
  EXPECT_TRUE(pods[0].node_name.empty());
  EXPECT_NE(pods[0].unschedulable.find("cannot allocate all claims"), std::string::npos)
      << pods[0].unschedulable;
  EXPECT_TRUE(ReachableEndpoints(pods, {}).empty());
  std::cout << "the AV1 worker waits: " << pods[0].unschedulable << "\n";

  // It goes before the GeForce (which encodes AV1) joins the cluster. A pod never placed
  // has no kubelet to wait for, so the API server deletes it at once.
  cluster->Kubectl({"delete", "statefulset", kAv1Workers, "-n", kNamespace, "--wait=true"});
  ASSERT_TRUE(mc::testing::Eventually(
      [&] {
        Json list = cluster->Get(std::string("/api/v1/namespaces/") + kNamespace +
                                 "/pods?labelSelector=" + kube::UrlEncode(kAv1Selector));
        last = std::to_string(list["items"].size()) + " AV1 pods left";
        return list["items"].empty();
      },
      PollCluster(60)))
      << last;
}

TEST_F(PoolKubeCluster, TwoWakesScaleTheWorkersFromZeroToTwoOnGeforcesThatEncodeH264) {
  // Two GeForce RTX 4090s join: each encodes H.264 and its driver caps it at 8 encode
  // sessions, which deploy/worker's GeForce claim consumes 3 at a time. The claim pairs the
  // encoder with NVIDIA's device of the same GPU, which one worker holds.
  AddGpuNode(*cluster, "geforce-node", "ada-geforce-rtx4090.json");
  AddGpuNode(*cluster, "geforce-node-b", "ada-geforce-rtx4090.json");

  auto pool = OpenPool(kWorkers, kSelector);
  ASSERT_TRUE(pool);
  Result<int> replicas = pool->Replicas();
  ASSERT_TRUE(replicas) << replicas.error_message();
  ASSERT_EQ(*replicas, 0);
  RecordingChannel workers;
  std::vector<std::string> log;
  KubernetesChannel channel(*pool, workers,
                            {.log = [&](const std::string& line) { log.push_back(line); }});
  for (const char* worker : {"peertube-worker-0", "peertube-worker-1"}) {
    Result<void> woken = channel.Apply(ActionOf(pool::ActionKind::kWake, worker), {.name = worker});
    ASSERT_TRUE(woken) << woken.error_message();
  }
  EXPECT_TRUE(log.empty()) << log[0];
  EXPECT_TRUE(workers.applied.empty());
  replicas = pool->Replicas();
  ASSERT_TRUE(replicas) << replicas.error_message();
  EXPECT_EQ(*replicas, 2);

  std::vector<WorkerPod> pods;
  std::string last;
  ASSERT_TRUE(mc::testing::Eventually(
      [&] {
        Result<std::vector<WorkerPod>> listed = pool->WorkerPods();
        if (!listed) return last = listed.error_message(), false;
        pods = *listed;
        last = std::to_string(pods.size()) + " pods";
        for (const WorkerPod& pod : pods)
          last += "; " + pod.name + " on '" + pod.node_name + "' " + pod.unschedulable;
        return pods.size() == 2 && !pods[0].node_name.empty() && !pods[1].node_name.empty();
      },
      PollCluster(90)))
      << last;

  // Each pod's claim: a GeForce's media device, consuming 3 of its encodeSessions, and
  // NVIDIA's device of the same GPU, allocated by the scheduler, one GPU a pod.
  EXPECT_NE(pods[0].node_name, pods[1].node_name);
  for (int ordinal = 0; ordinal < 2; ++ordinal) {
    const WorkerPod& pod = pods[ordinal];
    EXPECT_EQ(pod.ordinal, ordinal);
    EXPECT_TRUE(pod.node_name.starts_with("geforce-node")) << pod.name << " on " << pod.node_name;
    const Json slice = cluster->Get("/apis/resource.k8s.io/v1/resourceslices/" + pod.node_name +
                                    "-media.liken.sh");
    const Json device = slice["spec"]["devices"][0];
    ASSERT_TRUE(device["attributes"]["encodeH264"]["bool"].get<bool>());
    EXPECT_EQ(pod.phase, "Pending") << "no kubelet runs " << pod.name;
    const Json object =
        cluster->Get(std::string("/api/v1/namespaces/") + kNamespace + "/pods/" + pod.name);
    const std::string claim_name =
        object["status"]["resourceClaimStatuses"][0]["resourceClaimName"];
    const Json claim = cluster->Get(std::string("/apis/resource.k8s.io/v1/namespaces/") +
                                    kNamespace + "/resourceclaims/" + claim_name);
    std::map<std::string, Json> results;
    for (const Json& result : claim["status"]["allocation"]["devices"]["results"])
      results[result["request"]] = result;
    ASSERT_EQ(results.size(), 2u) << claim.dump();
    EXPECT_EQ(results["encoder"]["driver"], "media.liken.sh");
    EXPECT_EQ(results["encoder"]["pool"], pod.node_name);
    EXPECT_EQ(results["encoder"]["device"], device["name"]);
    EXPECT_EQ(results["encoder"]["consumedCapacity"]["encodeSessions"], "3");
    EXPECT_EQ(results["nvidia-gpu"]["driver"], "gpu.nvidia.com");
    EXPECT_EQ(results["nvidia-gpu"]["pool"], pod.node_name);
  }
}

TEST_F(PoolKubeCluster, EveryScaleLeftAnEventOnTheStatefulSet) {
  const Json statefulset = cluster->Get(std::string("/apis/apps/v1/namespaces/") + kNamespace +
                                        "/statefulsets/" + kWorkers);
  const Json events =
      cluster->Get(std::string("/api/v1/namespaces/") + kNamespace + "/events?fieldSelector=" +
                   kube::UrlEncode("involvedObject.kind=StatefulSet,involvedObject.name=" +
                                   std::string(kWorkers) + ",reason=ScaledUp"));
  std::vector<std::string> messages;
  for (const Json& event : events["items"]) {
    EXPECT_EQ(event["involvedObject"]["uid"], statefulset["metadata"]["uid"]);
    EXPECT_EQ(event["type"], "Normal");
    EXPECT_EQ(event["source"]["component"], "media-capabilities-pool");
    EXPECT_EQ(event["reportingInstance"], "pool-cluster-test");
    messages.push_back(event["message"]);
  }
  std::sort(messages.begin(), messages.end());
  EXPECT_EQ(messages, (std::vector<std::string>{
                          "peertube-worker-0: wake: scaled from 0 to 1 replicas (policy: woken)",
                          "peertube-worker-1: wake: scaled from 1 to 2 replicas (policy: woken)"}));
}

TEST_F(PoolKubeCluster, OnlyTheHighestOrdinalCanBeSuspendedAndTheRefusalIsAWarning) {
  auto pool = OpenPool(kWorkers, kSelector);
  ASSERT_TRUE(pool);
  RecordingChannel workers;
  KubernetesChannel channel(*pool, workers, {.log = [](const std::string&) {}});
  Result<void> refused = channel.Apply(ActionOf(pool::ActionKind::kSuspend, "peertube-worker-0"),
                                       {.name = "peertube-worker-0"});
  ASSERT_FALSE(refused);
  EXPECT_TRUE(refused.error().IsUnsupported()) << refused.error_message();
  Result<void> suspended = channel.Apply(ActionOf(pool::ActionKind::kSuspend, "peertube-worker-1"),
                                         {.name = "peertube-worker-1"});
  ASSERT_TRUE(suspended) << suspended.error_message();
  Result<int> replicas = pool->Replicas();
  ASSERT_TRUE(replicas) << replicas.error_message();
  EXPECT_EQ(*replicas, 1);
  const Json warnings = cluster->Get(
      std::string("/api/v1/namespaces/") + kNamespace + "/events?fieldSelector=" +
      kube::UrlEncode("involvedObject.name=" + std::string(kWorkers) + ",reason=ScaleDownFailed"));
  ASSERT_EQ(warnings["items"].size(), 1u);
  EXPECT_EQ(warnings["items"][0]["type"], "Warning");
}

}  // namespace
}  // namespace mc::pool
