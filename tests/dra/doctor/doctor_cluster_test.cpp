// The doctor's cluster checks against the real control plane of tests/cluster: the real
// kube-apiserver answers (and, with DRAConsumableCapacity off, drops what the gate guards),
// and the real kube-scheduler says why a claim cannot be allocated. The doctor runs as the
// binary, which opens its cluster module as it would on a node.
//
// Not a ctest test: it needs a control plane, which `make test-cluster` starts, and it fails
// (never skips) without one:
//
//   tests/cluster/start-control-plane /tmp/cp
//   MEDIA_CAP_CLUSTER_DIR=/tmp/cp build/tests/dra/doctor/doctor_cluster_tests
//
// The tests run in the order written; the last restarts the apiserver with the gate off, and
// then on again.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/kube/kube_client.h"
#include "common/kube/kube_config.h"
#include "support/cluster_suite.h"
#include "support/eventually.h"
#include "support/fake_sysfs.h"
#include "support/run_command.h"
#include "support/temp_dir.h"

namespace mc::dra {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kRepo = MEDIA_CAP_REPO_DIR;
constexpr char kNamespace[] = "doctor-test";

struct Line {
  std::string status;
  std::string finding;
  std::string remedy;
};

struct Cluster {
  fs::path dir;
  std::map<std::string, std::string> env;
  testing::TempDir files;
  std::unique_ptr<kube::KubeClient> admin;
  std::string setup_error;

  probe::ChildOutcome Script(const std::string& name, const std::vector<std::string>& args,
                             const std::vector<std::string>& extra_env = {}) {
    std::vector<std::string> argv = {(kRepo / "tests/cluster" / name).string(), dir.string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::RunCommand(argv, extra_env, std::chrono::seconds(120));
  }
  void Kubectl(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {env["KUBECTL"], "--kubeconfig", env["ADMIN_KUBECONFIG"]};
    argv.insert(argv.end(), args.begin(), args.end());
    const probe::ChildOutcome outcome = testing::RunCommand(argv);
    if (outcome.kind != probe::ChildOutcome::Kind::kExited || outcome.code != 0)
      throw std::runtime_error("kubectl: " + outcome.err + outcome.out);
  }
  long Create(const std::string& target, const Json& object) {
    Result<kube::HttpResponse> response =
        admin->Send({.method = "POST", .target = target, .body = object.dump()});
    if (!response) throw std::runtime_error(response.error_message());
    if (response->status != 201 && response->status != 409 && response->status != 403)
      throw std::runtime_error(target + ": " + kube::StatusMessage(*response));
    return response->status;
  }
  Json Get(const std::string& target) {
    Result<kube::HttpResponse> response = admin->Send({.target = target});
    if (!response) throw std::runtime_error(response.error_message());
    return Json::parse(response->body, nullptr, false);
  }
  void AddNode(const std::string& name) {
    const probe::ChildOutcome created = Script("create-node", {name});
    if (created.code != 0) throw std::runtime_error("create-node " + name + ": " + created.err);
  }
};

Cluster* cluster = nullptr;

void ReadEnv(Cluster& c) {
  Result<std::map<std::string, std::string>> env = mc::testing::ReadClusterEnv(c.dir);
  if (!env) throw std::runtime_error(env.error_message());
  c.env = std::move(env).value();
}

Json Slice(const std::string& node, const std::string& driver, const Json& devices) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", node + "-" + driver}}},
          {"spec",
           {{"driver", driver},
            {"nodeName", node},
            {"pool", {{"name", node}, {"generation", 1}, {"resourceSliceCount", 1}}},
            {"devices", devices}}}};
}

// A media device that decodes H.264 and no AV1, as the agent publishes one.
Json MediaDevice() {
  return {{"name", "pci-0000-01-00-0"},
          {"allowMultipleAllocations", true},
          {"attributes",
           {{"decodeH264", {{"bool", true}}},
            {"decodeAV1Main", {{"bool", false}}},
            {"decodeAV1Main10", {{"bool", false}}},
            {"resource.kubernetes.io/pciBusID", {{"string", "0000:01:00.0"}}}}}};
}

Json LikenDevice(bool with_pci_bus_id) {
  Json device = {{"name", "pci-0000-01-00-0"},
                 {"allowMultipleAllocations", true},
                 {"attributes",
                  {{"renderNode", {{"bool", true}}}, {"address", {{"string", "0000:01:00.0"}}}}}};
  if (with_pci_bus_id)
    device["attributes"]["resource.kubernetes.io/pciBusID"] = {{"string", "0000:01:00.0"}};
  return device;
}

void SetUpCluster(Cluster& c) {
  ReadEnv(c);
  Result<kube::KubeConfig> admin = kube::LoadKubeconfig(c.env["ADMIN_KUBECONFIG"]);
  if (!admin) throw std::runtime_error(admin.error_message());
  c.admin = kube::KubeClient::Create(std::move(admin).value()).value();
  c.Kubectl({"apply", "--server-side", "--force-conflicts", "-f",
             (kRepo / "deploy/device-classes.yaml").string()});
  const std::string slices = "/apis/resource.k8s.io/v1/resourceslices";
  c.AddNode("doctor-node");
  c.Create(slices, Slice("doctor-node", "media.liken.sh", Json::array({MediaDevice()})));
  c.Create(slices, Slice("doctor-node", "liken.sh", Json::array({LikenDevice(true)})));
  c.AddNode("doctor-bare-node");
  c.AddNode("doctor-old-liken-node");
  c.Create(slices, Slice("doctor-old-liken-node", "media.liken.sh", Json::array({MediaDevice()})));
  c.Create(slices, Slice("doctor-old-liken-node", "liken.sh", Json::array({LikenDevice(false)})));
  c.Create("/api/v1/namespaces",
           {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", kNamespace}}}});
}

// RunDoctor runs the binary on an empty machine (its node checks are not what these tests
// read) against the cluster, and gives the report.
Json RunDoctor(const std::string& node, const std::string& kubeconfig) {
  const fs::path machine = cluster->files.path() / "machine";
  fs::create_directories(machine / "sys/class/drm");
  fs::create_directories(machine / "dev");
  const probe::ChildOutcome run =
      testing::RunCommand(testing::CommandLine({{MEDIA_CAP_BINARY, "doctor", "--output", "json",
                                                 "--kubeconfig", kubeconfig, "--node-name", node},
                                                testing::FakeMachineFlags(machine),
                                                {"--proc-root", (machine / "proc").string()}}));
  EXPECT_EQ(run.kind, probe::ChildOutcome::Kind::kExited) << run.err;
  const Json report = Json::parse(run.out, nullptr, false);
  EXPECT_FALSE(report.is_discarded()) << run.out << run.err;
  return report;
}

std::vector<Line> Lines(const Json& report, const std::string& id) {
  std::vector<Line> lines;
  if (!report.is_object()) return lines;
  for (const Json& check : report["checks"]) {
    if (check["id"] == id) lines.push_back({check["status"], check["finding"], check["remedy"]});
  }
  return lines;
}

Line Only(const Json& report, const std::string& id) {
  const std::vector<Line> lines = Lines(report, id);
  EXPECT_EQ(lines.size(), 1u) << id << ": " << report.dump(2);
  return lines.empty() ? Line{} : lines.front();
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class DoctorCluster : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { cluster = mc::testing::StartClusterSuite<Cluster>(SetUpCluster); }
  static void TearDownTestSuite() {
    delete cluster;
    cluster = nullptr;
  }
  void SetUp() override { ASSERT_EQ(cluster->setup_error, ""); }
  static std::string Admin() { return cluster->env["ADMIN_KUBECONFIG"]; }
};

TEST_F(DoctorCluster, ANodeWithItsSlicesPassesEveryClusterCheck) {
  const Json report = RunDoctor("doctor-node", Admin());
  EXPECT_EQ(Only(report, "resource-api").status, "ok") << report.dump(2);
  const Line capacity = Only(report, "consumable-capacity");
  EXPECT_EQ(capacity.status, "ok") << capacity.finding;
  const Line slices = Only(report, "media-slices");
  EXPECT_EQ(slices.status, "ok") << slices.finding;
  EXPECT_EQ(slices.finding, "doctor-node-media.liken.sh: 1 device");
  EXPECT_EQ(Only(report, "liken-pci-bus-id").status, "ok");
  // The dry run stored nothing.
  EXPECT_EQ(
      cluster->Get("/apis/resource.k8s.io/v1/resourceslices/media-capabilities-doctor-doctor-node")
          .value("code", 0),
      404);
}

TEST_F(DoctorCluster, ANodeWithoutItsMediaSliceFailsAndSaysWhereToLook) {
  const Json report = RunDoctor("doctor-bare-node", Admin());
  const Line slices = Only(report, "media-slices");
  EXPECT_EQ(slices.status, "fail");
  EXPECT_EQ(slices.finding, "no media.liken.sh ResourceSlice for node doctor-bare-node");
  EXPECT_TRUE(Has(slices.remedy, "--field-selector spec.nodeName=doctor-bare-node"))
      << slices.remedy;
  EXPECT_EQ(Only(report, "liken-pci-bus-id").status, "fail");
}

TEST_F(DoctorCluster, LikensRenderNodesWithoutAPciBusIdFail) {
  const Json report = RunDoctor("doctor-old-liken-node", Admin());
  EXPECT_EQ(Only(report, "media-slices").status, "ok");
  const Line liken = Only(report, "liken-pci-bus-id");
  EXPECT_EQ(liken.status, "fail");
  EXPECT_TRUE(Has(liken.finding,
                  "render nodes pci-0000-01-00-0 on doctor-old-liken-node carry no "
                  "resource.kubernetes.io/pciBusID"))
      << liken.finding;
}

TEST_F(DoctorCluster, AClaimTheSchedulerCannotAllocateFailsWithTheSchedulersReason) {
  const std::string ns = std::string("/api/v1/namespaces/") + kNamespace;
  cluster->Create(
      std::string("/apis/resource.k8s.io/v1/namespaces/") + kNamespace + "/resourceclaims",
      {{"apiVersion", "resource.k8s.io/v1"},
       {"kind", "ResourceClaim"},
       {"metadata", {{"name", "wants-av1"}}},
       {"spec",
        {{"devices",
          {{"requests",
            Json::array(
                {{{"name", "gpu"}, {"exactly", {{"deviceClassName", "media-decode-av1"}}}}})}}}}}});
  const Json pod = {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", "transcoder"}}},
      // On this test's node, whose one media device decodes no AV1: the control plane is
      // shared with other tests, whose nodes may well have a GPU that does.
      {"spec",
       {{"nodeSelector", {{"kubernetes.io/hostname", "doctor-node"}}},
        {"resourceClaims", Json::array({{{"name", "gpu"}, {"resourceClaimName", "wants-av1"}}})},
        {"containers",
         Json::array({{{"name", "t"},
                       {"image", "registry.invalid/transcoder"},
                       {"resources", {{"claims", Json::array({{{"name", "gpu"}}})}}}}})}}}};
  // A namespace's pods can be created once the controller-manager made its default
  // ServiceAccount.
  const testing::Polling every_quarter_second{.timeout = std::chrono::seconds(30),
                                              .every = std::chrono::milliseconds(250)};
  long created = 0;
  ASSERT_TRUE(testing::Eventually(
      [&] {
        created = cluster->Create(ns + "/pods", pod);
        return created != 403;
      },
      every_quarter_second))
      << "the pod could not be created: the namespace has no ServiceAccount";
  std::string scheduled;
  Json seen;
  ASSERT_TRUE(testing::Eventually(
      [&] {
        seen = cluster->Get(ns + "/pods/transcoder");
        for (const Json& condition : seen["status"]["conditions"]) {
          if (condition.value("type", "") == "PodScheduled" &&
              condition.value("status", "") == "False")
            scheduled = condition.value("message", "");
        }
        return !scheduled.empty();
      },
      every_quarter_second))
      << "the scheduler never said why the pod waits: " << seen.dump(2);

  const Json report = RunDoctor("doctor-node", Admin());
  bool found = false;
  for (const Line& line : Lines(report, "pending-claims")) {
    if (!Has(line.finding, "claim doctor-test/wants-av1")) continue;
    found = true;
    EXPECT_EQ(line.status, "fail");
    EXPECT_EQ(line.finding,
              "claim doctor-test/wants-av1 (pod doctor-test/transcoder) is not "
              "allocated: " +
                  scheduled);
  }
  EXPECT_TRUE(found) << report.dump(2);
}

TEST_F(DoctorCluster, AKubeconfigThatCannotBeReadFailsTheResourceApiCheckAndNamesTheFile) {
  const Json report = RunDoctor("doctor-node", "/nonexistent/kubeconfig");
  const Line api = Only(report, "resource-api");
  EXPECT_EQ(api.status, "fail");
  EXPECT_TRUE(Has(api.finding, "/nonexistent/kubeconfig")) << api.finding;
  EXPECT_EQ(Only(report, "media-slices").status, "warn");
}

TEST_F(DoctorCluster, AnApiServerWithConsumableCapacityOffFailsTheCapacityCheck) {
  ASSERT_EQ(cluster->Script("stop-control-plane", {"kube-apiserver"}).code, 0);
  const probe::ChildOutcome off = cluster->Script(
      "start-control-plane", {}, {"EXTRA_FEATURE_GATES=DRAConsumableCapacity=false"});
  ASSERT_EQ(off.code, 0) << off.err;
  const Json report = RunDoctor("doctor-node", Admin());
  // The apiserver of every other test, whatever this one found.
  EXPECT_EQ(cluster->Script("stop-control-plane", {"kube-apiserver"}).code, 0);
  const probe::ChildOutcome on = cluster->Script("start-control-plane", {});
  EXPECT_EQ(on.code, 0) << on.err;

  const Line capacity = Only(report, "consumable-capacity");
  EXPECT_EQ(capacity.status, "fail");
  EXPECT_TRUE(Has(capacity.finding,
                  "dropped allowMultipleAllocations and "
                  "capacity.encodeSessions.requestPolicy"))
      << capacity.finding;
  EXPECT_TRUE(Has(capacity.remedy, "turn on DRAConsumableCapacity")) << capacity.remedy;
}

}  // namespace
}  // namespace mc::dra
