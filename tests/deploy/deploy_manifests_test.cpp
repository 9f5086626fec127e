// The DRA driver's manifests under deploy/, checked without a cluster. The workers' and the
// pool manager's are checked in worker_manifests_test.cpp and pool_manifests_test.cpp.
//
// These tests read the YAML a cluster owner applies and hold it to what the design promises:
// the DaemonSet's security settings, RBAC that grants exactly what the agent uses, an admission
// policy that pins the agent's writes to its own node, and CEL selectors that name only
// attributes the devices really carry. The attribute names come from the generated reference,
// docs/reference/attributes.md, so that a renamed or removed attribute fails here instead of
// leaving a class that never matches (or that aborts every allocation: reading a missing
// attribute in CEL is an error, not false).
//
// What only a real apiserver can say (that every object validates, what `kubectl auth can-i`
// answers, that the policy refuses another node's slice) is checked by check-against-apiserver,
// next to this file, against a control plane from tests/cluster.

#include <gtest/gtest.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "dra/agent/agent_options.h"

namespace {

namespace fs = std::filesystem;

const fs::path kRepo = MEDIA_CAP_REPO_DIR;
const fs::path kDeploy = kRepo / "deploy";
const fs::path kExamples = kDeploy / "examples";
const fs::path kAttributeReference = kRepo / "docs" / "reference" / "attributes.md";

constexpr char kDriver[] = "media.liken.sh";
constexpr char kPairingAttribute[] = "resource.kubernetes.io/pciBusID";

// One object of a manifest file.
struct Object {
  fs::path file;
  YAML::Node node;

  std::string Kind() const { return node["kind"] ? node["kind"].as<std::string>() : ""; }
  std::string Name() const {
    return node["metadata"] && node["metadata"]["name"] ? node["metadata"]["name"].as<std::string>()
                                                        : "";
  }
};

// Every non-empty YAML document of a file. A parse error fails the calling test with the
// file's name, through the exception gtest reports.
std::vector<Object> LoadFile(const fs::path& path) {
  std::vector<Object> objects;
  for (const YAML::Node& document : YAML::LoadAllFromFile(path.string())) {
    if (document.IsNull()) continue;
    objects.push_back({path, document});
  }
  return objects;
}

// The Helm chart, deploy/helm/: its templates are no manifests until Helm renders them
// (tools/render-deploy renders them into the files these tests read).
bool InHelmChart(const fs::path& path) {
  const fs::path relative = path.lexically_relative(kDeploy);
  return !relative.empty() && *relative.begin() == "helm";
}

std::vector<fs::path> YamlFilesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string extension = entry.path().extension().string();
    if (entry.is_regular_file() && (extension == ".yaml" || extension == ".yml") &&
        !InHelmChart(entry.path()))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

YAML::Node Kustomization() { return YAML::LoadFile((kDeploy / "kustomization.yaml").string()); }

std::vector<fs::path> BaseFiles() {
  std::vector<fs::path> files;
  for (const YAML::Node& resource : Kustomization()["resources"])
    files.push_back(kDeploy / resource.as<std::string>());
  return files;
}

std::vector<Object> LoadFiles(const std::vector<fs::path>& files) {
  std::vector<Object> objects;
  for (const fs::path& file : files) {
    std::vector<Object> more = LoadFile(file);
    objects.insert(objects.end(), more.begin(), more.end());
  }
  return objects;
}

std::vector<Object> Base() { return LoadFiles(BaseFiles()); }
std::vector<Object> Examples() { return LoadFiles(YamlFilesUnder(kExamples)); }
std::vector<Object> Everything() {
  std::vector<Object> objects = Base();
  std::vector<Object> examples = Examples();
  objects.insert(objects.end(), examples.begin(), examples.end());
  return objects;
}

std::vector<Object> OfKind(const std::vector<Object>& objects, const std::string& kind) {
  std::vector<Object> found;
  for (const Object& object : objects) {
    if (object.Kind() == kind) found.push_back(object);
  }
  return found;
}

std::optional<Object> Find(const std::vector<Object>& objects, const std::string& kind,
                           const std::string& name) {
  for (const Object& object : objects) {
    if (object.Kind() == kind && object.Name() == name) return object;
  }
  return std::nullopt;
}

std::set<std::string> Strings(const YAML::Node& sequence) {
  std::set<std::string> values;
  for (const YAML::Node& value : sequence) values.insert(value.as<std::string>());
  return values;
}

Object DaemonSet() {
  std::optional<Object> daemonset = Find(Base(), "DaemonSet", "media-capabilities");
  if (!daemonset) throw std::runtime_error("the base has no DaemonSet media-capabilities");
  return *daemonset;
}

YAML::Node PodSpec() { return DaemonSet().node["spec"]["template"]["spec"]; }

YAML::Node AgentContainer() {
  for (const YAML::Node& container : PodSpec()["containers"]) {
    if (container["name"].as<std::string>() == "agent") return container;
  }
  throw std::runtime_error("the DaemonSet has no container named agent");
}

// --- The attribute reference ------------------------------------------------------------------

// What the devices publish, as docs/reference/attributes.md states it.
struct Published {
  std::set<std::string> attributes;  // bare names are media.liken.sh's; others are fully qualified
  std::set<std::string> capacities;
};

std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {  // row[0] is the leading '|'
    if (row[i] == '|') {
      cells.push_back(cell);
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}

std::vector<std::string> Backticked(const std::string& text) {
  std::vector<std::string> names;
  static const std::regex kCode("`([^`]+)`");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kCode);
       it != std::sregex_iterator(); ++it) {
    names.push_back((*it)[1].str());
  }
  return names;
}

// Reads the backticked names in the first column of each table; a table whose header's first
// cell is "Capacity" lists capacities, every other table attributes.
Published ReadAttributeReference() {
  Published published;
  std::ifstream in(kAttributeReference);
  std::string line;
  bool in_table = false;
  bool capacity_table = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != '|') {
      in_table = false;
      continue;
    }
    std::vector<std::string> cells = Cells(line);
    if (cells.empty()) continue;
    if (!in_table) {  // the header row
      in_table = true;
      capacity_table = cells[0].find("Capacity") != std::string::npos;
      continue;
    }
    if (cells[0].find("---") != std::string::npos) continue;  // the separator row
    for (const std::string& name : Backticked(cells[0])) {
      (capacity_table ? published.capacities : published.attributes).insert(name);
    }
  }
  return published;
}

// liken's own attributes of its render nodes (docs/dra/agent.md). They are another driver's, so
// the reference does not list them.
const std::set<std::string> kLikenAttributes = {
    "bus",    "address", "driver", "class",  "classCode",  "subsystem",   "modalias",
    "vendor", "product", "name",   "serial", "renderNode", "displayNode",
};

// --- CEL --------------------------------------------------------------------------------------

// One attribute or capacity that a CEL expression reads.
struct Reference {
  std::string what;    // "attributes" or "capacity"
  std::string domain;  // as written, such as media.liken.sh
  std::string name;    // the identifier after the domain
};

// Finds device.attributes["DOMAIN"].NAME, device.attributes["DOMAIN"]["NAME"] and the same
// with capacity, optional selection (.?NAME, [?"NAME"]) included. A use of device.attributes
// or device.capacity that is not of these forms is returned with an empty name, so that a
// test can refuse what it cannot read rather than pass over it.
std::vector<Reference> ReferencesIn(const std::string& expression) {
  static const std::regex kReference(
      R"re(device\s*\.\s*(attributes|capacity)\s*\[\s*(["'])([^"']+)\2\s*\]\s*(?:\.\s*\??\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*\??\s*(["'])([^"']+)\5\s*\]))re");
  static const std::regex kAnyUse(R"re(device\s*\.\s*(attributes|capacity)\b)re");
  std::vector<Reference> references;
  size_t matched = 0;
  for (auto it = std::sregex_iterator(expression.begin(), expression.end(), kReference);
       it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    references.push_back({m[1].str(), m[3].str(), m[4].matched ? m[4].str() : m[6].str()});
    ++matched;
  }
  size_t uses = std::distance(std::sregex_iterator(expression.begin(), expression.end(), kAnyUse),
                              std::sregex_iterator());
  for (size_t i = matched; i < uses; ++i) references.push_back({"unreadable", "", ""});
  return references;
}

// Every CEL expression anywhere in a node: any map with a `cel` member holding `expression`.
void CollectCel(const YAML::Node& node, std::vector<std::string>& out) {
  if (node.IsMap()) {
    if (node["cel"] && node["cel"]["expression"])
      out.push_back(node["cel"]["expression"].as<std::string>());
    for (const auto& member : node) CollectCel(member.second, out);
  } else if (node.IsSequence()) {
    for (const YAML::Node& item : node) CollectCel(item, out);
  }
}

std::vector<std::string> CelOf(const Object& object) {
  std::vector<std::string> expressions;
  CollectCel(object.node, expressions);
  return expressions;
}

// Why a reference names nothing the devices publish, or "" when it is fine.
std::string Unpublished(const Reference& reference, const Published& published) {
  if (reference.what == "unreadable")
    return "a use of device.attributes or device.capacity the test cannot read";
  if (reference.what == "capacity") {
    if (reference.domain == kDriver && published.capacities.count(reference.name)) return "";
    return "capacity " + reference.domain + "/" + reference.name + " is not in the reference";
  }
  if (reference.domain == kDriver) {
    return published.attributes.count(reference.name) ? ""
                                                      : reference.name + " is not in the reference";
  }
  if (reference.domain == "liken.sh") {
    return kLikenAttributes.count(reference.name)
               ? ""
               : reference.name + " is not an attribute liken publishes";
  }
  const std::string qualified = reference.domain + "/" + reference.name;
  if (published.attributes.count(qualified)) return "";
  return qualified + " is not in the reference (and " + reference.domain +
         " is no domain this project reads)";
}

// The claim spec of a ResourceClaimTemplate or a ResourceClaim.
YAML::Node ClaimSpec(const Object& object) {
  return object.Kind() == "ResourceClaimTemplate" ? object.node["spec"]["spec"]
                                                  : object.node["spec"];
}

std::vector<Object> Claims(const std::vector<Object>& objects) {
  std::vector<Object> claims = OfKind(objects, "ResourceClaimTemplate");
  std::vector<Object> more = OfKind(objects, "ResourceClaim");
  claims.insert(claims.end(), more.begin(), more.end());
  return claims;
}

// Memory in bytes from a Kubernetes quantity with a binary or decimal suffix.
double Bytes(const std::string& quantity) {
  static const std::map<std::string, double> kUnits = {
      {"", 1},    {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0},
      {"k", 1e3}, {"M", 1e6},     {"G", 1e9},
  };
  size_t end = 0;
  double value = std::stod(quantity, &end);
  auto unit = kUnits.find(quantity.substr(end));
  if (unit == kUnits.end()) throw std::runtime_error("cannot read the quantity " + quantity);
  return value * unit->second;
}

// --- The kustomization ------------------------------------------------------------------------

TEST(Kustomization, EveryFileItListsExistsAndParses) {
  std::vector<fs::path> files = BaseFiles();
  ASSERT_FALSE(files.empty());
  for (const fs::path& file : files) {
    ASSERT_TRUE(fs::is_regular_file(file))
        << file << " is listed in kustomization.yaml but does not exist";
    EXPECT_FALSE(LoadFile(file).empty()) << file << " holds no object";
  }
}

// InApplicationOfItsOwn says whether `file` lies in a folder below deploy/ with its own
// kustomization.yaml (deploy/worker/): an application applied on its own, not the base.
bool InApplicationOfItsOwn(const fs::path& file) {
  for (fs::path dir = file.parent_path(); dir != kDeploy && dir.has_relative_path();
       dir = dir.parent_path()) {
    if (fs::exists(dir / "kustomization.yaml")) return true;
  }
  return false;
}

TEST(Kustomization, ListsEveryManifestOutsideTheExamples) {
  std::vector<fs::path> listed = BaseFiles();
  for (const fs::path& file : YamlFilesUnder(kDeploy)) {
    if (file.filename() == "kustomization.yaml" || file.parent_path() == kExamples ||
        InApplicationOfItsOwn(file))
      continue;
    EXPECT_NE(std::find(listed.begin(), listed.end(), file), listed.end())
        << file
        << " is in deploy/ but kustomization.yaml does not list it, so `kubectl apply -k` skips it";
  }
}

TEST(Kustomization, PutsEveryNamespacedObjectInLikenSystem) {
  ASSERT_EQ(Kustomization()["namespace"].as<std::string>(), "liken-system");
  const std::set<std::string> cluster_scoped = {"Namespace",
                                                "ClusterRole",
                                                "ClusterRoleBinding",
                                                "DeviceClass",
                                                "ValidatingAdmissionPolicy",
                                                "ValidatingAdmissionPolicyBinding"};
  for (const Object& object : Base()) {
    if (cluster_scoped.count(object.Kind())) continue;
    const YAML::Node ns = object.node["metadata"]["namespace"];
    EXPECT_TRUE(!ns || ns.as<std::string>() == "liken-system")
        << object.Kind() << " " << object.Name() << " names another namespace";
  }
  ASSERT_TRUE(Find(Base(), "Namespace", "liken-system"));
}

// A Prometheus rule file of deploy/monitoring/ holds rule groups, not Kubernetes objects.
// tests/deploy/monitoring/check-monitoring checks it, and the PrometheusRule made from it.
bool IsPrometheusRuleFile(const fs::path& file) {
  return file.parent_path() == kDeploy / "monitoring" &&
         file.filename().string().starts_with("prometheus_");
}

TEST(Manifests, EveryYamlFileUnderDeployParsesIntoObjectsWithKindAndName) {
  for (const fs::path& file : YamlFilesUnder(kDeploy)) {
    if (file.filename() == "kustomization.yaml" || IsPrometheusRuleFile(file)) continue;
    std::vector<Object> objects = LoadFile(file);
    EXPECT_FALSE(objects.empty()) << file;
    for (const Object& object : objects) {
      EXPECT_TRUE(object.node["apiVersion"]) << file << ": an object without apiVersion";
      EXPECT_FALSE(object.Kind().empty()) << file << ": an object without kind";
      EXPECT_FALSE(object.Name().empty()) << file << ": a " << object.Kind() << " without a name";
    }
  }
}

// --- The DaemonSet ----------------------------------------------------------------------------

TEST(DaemonSet, DropsEveryCapabilityAndKeepsTheRootFilesystemReadOnly) {
  const YAML::Node security = AgentContainer()["securityContext"];
  ASSERT_TRUE(security);
  EXPECT_EQ(Strings(security["capabilities"]["drop"]), std::set<std::string>{"ALL"});
  EXPECT_FALSE(security["capabilities"]["add"]) << "the agent needs no capability";
  EXPECT_TRUE(security["readOnlyRootFilesystem"].as<bool>());
  EXPECT_FALSE(security["allowPrivilegeEscalation"].as<bool>());
  EXPECT_FALSE(security["privileged"] && security["privileged"].as<bool>());
}

TEST(DaemonSet, UsesTheRuntimesDefaultSeccompProfile) {
  YAML::Node profile = AgentContainer()["securityContext"]["seccompProfile"];
  if (!profile) profile = PodSpec()["securityContext"]["seccompProfile"];
  ASSERT_TRUE(profile) << "no seccompProfile on the container or the pod";
  EXPECT_EQ(profile["type"].as<std::string>(), "RuntimeDefault");
}

TEST(DaemonSet, ReplacesOnePodAtATimeWithNoSurge) {
  const YAML::Node strategy = DaemonSet().node["spec"]["updateStrategy"];
  EXPECT_EQ(strategy["type"].as<std::string>(), "RollingUpdate");
  EXPECT_EQ(strategy["rollingUpdate"]["maxSurge"].as<std::string>(), "0")
      << "two agents on one node would fight over the kubelet plugin's sockets";
  EXPECT_EQ(strategy["rollingUpdate"]["maxUnavailable"].as<std::string>(), "1");
}

TEST(DaemonSet, RunsAtSystemNodeCriticalPriorityAndToleratesEveryTaint) {
  EXPECT_EQ(PodSpec()["priorityClassName"].as<std::string>(), "system-node-critical");
  bool tolerates_everything = false;
  for (const YAML::Node& toleration : PodSpec()["tolerations"]) {
    if (toleration["operator"].as<std::string>() == "Exists" && !toleration["key"] &&
        !toleration["effect"]) {
      tolerates_everything = true;
    }
  }
  EXPECT_TRUE(tolerates_everything) << "no toleration {operator: Exists} without key and effect";
}

TEST(DaemonSet, TakesNodeNameAndPodIdentityFromTheDownwardApi) {
  std::map<std::string, std::string> field_of;
  for (const YAML::Node& env : AgentContainer()["env"]) {
    if (env["valueFrom"] && env["valueFrom"]["fieldRef"]) {
      field_of[env["name"].as<std::string>()] =
          env["valueFrom"]["fieldRef"]["fieldPath"].as<std::string>();
    }
  }
  EXPECT_EQ(field_of["NODE_NAME"], "spec.nodeName");
  EXPECT_EQ(field_of["POD_NAME"], "metadata.name");
  EXPECT_EQ(field_of["POD_NAMESPACE"], "metadata.namespace");
}

TEST(DaemonSet, MountsOnlyTheKubeletPluginDirectoriesFromTheHost) {
  std::map<std::string, std::string> host_path_of_volume;
  for (const YAML::Node& volume : PodSpec()["volumes"]) {
    if (volume["hostPath"]) {
      host_path_of_volume[volume["name"].as<std::string>()] =
          volume["hostPath"]["path"].as<std::string>();
    }
  }
  std::set<std::string> host_paths;
  for (const auto& [volume, path] : host_path_of_volume) host_paths.insert(path);
  EXPECT_EQ(host_paths, (std::set<std::string>{"/var/lib/kubelet/plugins/media.liken.sh",
                                               "/var/lib/kubelet/plugins_registry"}));
  // The registration names dra.sock by its path, which the kubelet resolves on the host.
  for (const YAML::Node& mount : AgentContainer()["volumeMounts"]) {
    auto host = host_path_of_volume.find(mount["name"].as<std::string>());
    if (host != host_path_of_volume.end()) {
      EXPECT_EQ(mount["mountPath"].as<std::string>(), host->second);
    }
  }
  EXPECT_FALSE(PodSpec()["hostNetwork"] && PodSpec()["hostNetwork"].as<bool>());
  EXPECT_FALSE(PodSpec()["hostPID"] && PodSpec()["hostPID"].as<bool>());
}

TEST(DaemonSet, ProbesLivezAndReadyzOnTheHealthPort) {
  const YAML::Node container = AgentContainer();
  std::set<std::string> health_port_names;
  for (const YAML::Node& port : container["ports"]) {
    if (port["containerPort"].as<int>() == 8081)
      health_port_names.insert(port["name"].as<std::string>());
  }
  ASSERT_EQ(health_port_names.size(), 1u) << "no container port 8081";
  const std::string port = *health_port_names.begin();
  EXPECT_EQ(container["livenessProbe"]["httpGet"]["path"].as<std::string>(), "/livez");
  EXPECT_EQ(container["livenessProbe"]["httpGet"]["port"].as<std::string>(), port);
  EXPECT_EQ(container["readinessProbe"]["httpGet"]["path"].as<std::string>(), "/readyz");
  EXPECT_EQ(container["readinessProbe"]["httpGet"]["port"].as<std::string>(), port);
}

// The kubelet's httpGet probes connect to the pod's IP, so the agent's default health
// address, which the DaemonSet does not override, must listen on every interface of the pod
// and on the port the probes name (docs/dra/agent.md, "Health").
TEST(DaemonSet, TheAgentsDefaultHealthAddressIsOnThePodsIpAndThePortTheProbesName) {
  const std::string address = mc::dra::AgentOptions{}.health_address;
  const std::size_t colon = address.rfind(':');
  ASSERT_NE(colon, std::string::npos) << address;
  EXPECT_EQ(address.substr(0, colon), "0.0.0.0");
  const YAML::Node container = AgentContainer();
  bool health_port = false;
  for (const YAML::Node& port : container["ports"]) {
    if (port["name"].as<std::string>() == "health")
      health_port = port["containerPort"].as<std::string>() == address.substr(colon + 1);
  }
  EXPECT_TRUE(health_port) << "no container port named health on " << address;
  for (const YAML::Node& arg : container["args"]) {
    EXPECT_FALSE(arg.as<std::string>().starts_with("--health-address")) << arg;
  }
  EXPECT_FALSE(PodSpec()["hostNetwork"] && PodSpec()["hostNetwork"].as<bool>());
}

TEST(DaemonSet, HoldsEveryRenderNodeThroughItsOwnClaimTemplate) {
  std::set<std::string> container_claims;
  for (const YAML::Node& claim : AgentContainer()["resources"]["claims"]) {
    container_claims.insert(claim["name"].as<std::string>());
  }
  EXPECT_EQ(container_claims, std::set<std::string>{"render-nodes"});
  const YAML::Node pod_claims = PodSpec()["resourceClaims"];
  ASSERT_EQ(pod_claims.size(), 1u);
  EXPECT_EQ(pod_claims[0]["name"].as<std::string>(), "render-nodes");
  const std::string template_name = pod_claims[0]["resourceClaimTemplateName"].as<std::string>();
  EXPECT_EQ(template_name, "media-capabilities");

  std::optional<Object> claim = Find(Base(), "ResourceClaimTemplate", template_name);
  ASSERT_TRUE(claim) << "the base has no ResourceClaimTemplate " << template_name;
  const YAML::Node requests = ClaimSpec(*claim)["devices"]["requests"];
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0]["name"].as<std::string>(), "render-nodes");
  EXPECT_EQ(requests[0]["exactly"]["deviceClassName"].as<std::string>(), "media-render");
  EXPECT_EQ(requests[0]["exactly"]["allocationMode"].as<std::string>(), "All");
}

TEST(DaemonSet, RunsTheAgentAsItsOwnServiceAccount) {
  EXPECT_EQ(PodSpec()["serviceAccountName"].as<std::string>(), "media-capabilities");
  EXPECT_TRUE(Find(Base(), "ServiceAccount", "media-capabilities"));
  EXPECT_EQ(AgentContainer()["args"][0].as<std::string>(), "agent");
}

// A query-nvidia child peaked at 127 MiB of RSS on the H200 (the comment in daemonset.yaml
// has the measurement); a limit below the parent plus one such child kills every NVIDIA query.
TEST(DaemonSet, HasAMemoryLimitThatHoldsTheParentAndOneNvidiaQuery) {
  const YAML::Node resources = AgentContainer()["resources"];
  ASSERT_TRUE(resources["limits"]["memory"]);
  ASSERT_TRUE(resources["requests"]["memory"]);
  ASSERT_TRUE(resources["requests"]["cpu"]);
  const double limit = Bytes(resources["limits"]["memory"].as<std::string>());
  EXPECT_GE(limit, Bytes("136Mi"));
  EXPECT_LE(Bytes(resources["requests"]["memory"].as<std::string>()), limit);
}

// --- RBAC -------------------------------------------------------------------------------------

TEST(Rbac, TheClusterRoleGrantsExactlyTheVerbsTheAgentUses) {
  std::optional<Object> role = Find(Base(), "ClusterRole", "media-capabilities");
  ASSERT_TRUE(role);
  std::map<std::string, std::set<std::string>> verbs_of;  // "group/resource" -> verbs
  for (const YAML::Node& rule : role->node["rules"]) {
    EXPECT_FALSE(rule["nonResourceURLs"]);
    for (const YAML::Node& group : rule["apiGroups"]) {
      for (const YAML::Node& resource : rule["resources"]) {
        for (const YAML::Node& verb : rule["verbs"]) {
          verbs_of[group.as<std::string>() + "/" + resource.as<std::string>()].insert(
              verb.as<std::string>());
        }
      }
    }
  }
  const std::map<std::string, std::set<std::string>> expected = {
      {"resource.k8s.io/resourceslices", {"get", "list", "watch", "create", "update", "delete"}},
      {"/nodes", {"get"}},
      {"resource.k8s.io/resourceclaims", {"get"}},
  };
  EXPECT_EQ(verbs_of, expected);
}

TEST(Rbac, TheOnlyGrantOnPodsIsTheEvictionOfAPodInTheAgentsOwnNamespace) {
  std::vector<std::string> grants;  // "Kind name (namespace): resource verbs"
  for (const std::string kind : {"ClusterRole", "Role"}) {
    for (const Object& role : OfKind(Everything(), kind)) {
      for (const YAML::Node& rule : role.node["rules"]) {
        for (const YAML::Node& resource : rule["resources"]) {
          const std::string name = resource.as<std::string>();
          if (name != "pods" && name.rfind("pods/", 0) != 0 && name != "*") continue;
          std::string grant = kind + " " + role.Name() + " (" +
                              (role.node["metadata"]["namespace"]
                                   ? role.node["metadata"]["namespace"].as<std::string>()
                                   : "") +
                              "): " + name;
          for (const YAML::Node& verb : rule["verbs"]) grant += " " + verb.as<std::string>();
          grants.push_back(grant);
        }
      }
    }
  }
  EXPECT_EQ(grants, std::vector<std::string>{
                        "Role media-capabilities-own-pod (liken-system): pods/eviction create"});
}

TEST(Rbac, TheBindingGivesTheClusterRoleToTheAgentsServiceAccountAlone) {
  std::optional<Object> binding = Find(Base(), "ClusterRoleBinding", "media-capabilities");
  ASSERT_TRUE(binding);
  EXPECT_EQ(binding->node["roleRef"]["kind"].as<std::string>(), "ClusterRole");
  EXPECT_EQ(binding->node["roleRef"]["name"].as<std::string>(), "media-capabilities");
  const YAML::Node subjects = binding->node["subjects"];
  ASSERT_EQ(subjects.size(), 1u);
  EXPECT_EQ(subjects[0]["kind"].as<std::string>(), "ServiceAccount");
  EXPECT_EQ(subjects[0]["name"].as<std::string>(), "media-capabilities");
  EXPECT_EQ(subjects[0]["namespace"].as<std::string>(), "liken-system");
}

// --- The admission policy ---------------------------------------------------------------------

Object Policy(const std::string& name = "media-capabilities-own-node-slices") {
  std::optional<Object> policy = Find(Base(), "ValidatingAdmissionPolicy", name);
  if (!policy) throw std::runtime_error("the base has no ValidatingAdmissionPolicy " + name);
  return *policy;
}

// Every CEL text of a policy: variables, validations and their message expressions.
std::string PolicyCel(const std::string& name = "media-capabilities-own-node-slices") {
  std::string all;
  const YAML::Node spec = Policy(name).node["spec"];
  for (const char* list : {"variables", "validations", "matchConditions"}) {
    for (const YAML::Node& item : spec[list]) {
      for (const char* field : {"expression", "messageExpression"}) {
        if (item[field]) all += item[field].as<std::string>() + "\n";
      }
    }
  }
  return all;
}

TEST(AdmissionPolicy, CoversEveryWriteToResourceSlicesAndFailsClosed) {
  const YAML::Node spec = Policy().node["spec"];
  EXPECT_EQ(spec["failurePolicy"].as<std::string>(), "Fail");
  const YAML::Node rules = spec["matchConstraints"]["resourceRules"];
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(Strings(rules[0]["apiGroups"]), std::set<std::string>{"resource.k8s.io"});
  EXPECT_EQ(Strings(rules[0]["resources"]), std::set<std::string>{"resourceslices"});
  EXPECT_EQ(Strings(rules[0]["operations"]), (std::set<std::string>{"CREATE", "UPDATE", "DELETE"}));
}

TEST(AdmissionPolicy, TheAgentMayEvictOnlyThePodItsTokenIsBoundTo) {
  const YAML::Node spec = Policy("media-capabilities-own-pod-eviction").node["spec"];
  EXPECT_EQ(spec["failurePolicy"].as<std::string>(), "Fail");
  const YAML::Node rules = spec["matchConstraints"]["resourceRules"];
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(Strings(rules[0]["resources"]), std::set<std::string>{"pods/eviction"});
  EXPECT_EQ(Strings(rules[0]["operations"]), std::set<std::string>{"CREATE"});
  const std::string cel = PolicyCel("media-capabilities-own-pod-eviction");
  EXPECT_NE(cel.find("authentication.kubernetes.io/pod-name"), std::string::npos) << cel;
  EXPECT_NE(cel.find("request.name == variables.tokenPod"), std::string::npos) << cel;
  EXPECT_NE(cel.find("system:serviceaccount:liken-system:media-capabilities"), std::string::npos);
}

TEST(AdmissionPolicy, SelectsTheAgentsServiceAccountByItsFullUserName) {
  const std::string user =
      "system:serviceaccount:" + Kustomization()["namespace"].as<std::string>() + ":" +
      PodSpec()["serviceAccountName"].as<std::string>();
  const YAML::Node conditions = Policy().node["spec"]["matchConditions"];
  ASSERT_EQ(conditions.size(), 1u);
  const std::string expression = conditions[0]["expression"].as<std::string>();
  EXPECT_NE(expression.find("request.userInfo.username"), std::string::npos) << expression;
  EXPECT_NE(expression.find('"' + user + '"'), std::string::npos)
      << "the policy must name " << user
      << " (a namespace moved by an overlay must be patched here too)";
}

TEST(AdmissionPolicy, PinsTheSliceToTheTokensNodeAndToDriverMediaLikenSh) {
  const std::string cel = PolicyCel();
  EXPECT_NE(cel.find("authentication.kubernetes.io/node-name"), std::string::npos);
  EXPECT_NE(cel.find("request.userInfo"), std::string::npos);
  EXPECT_NE(cel.find("nodeName"), std::string::npos);
  EXPECT_NE(cel.find("oldObject"), std::string::npos)
      << "a delete has no new object: the policy must read the old one";
  EXPECT_NE(cel.find("spec.driver == \"media.liken.sh\""), std::string::npos);
}

TEST(AdmissionPolicy, EachPolicyIsBoundToDenyWhatItRefuses) {
  const std::vector<Object> policies = OfKind(Base(), "ValidatingAdmissionPolicy");
  const std::vector<Object> bindings = OfKind(Base(), "ValidatingAdmissionPolicyBinding");
  ASSERT_EQ(bindings.size(), policies.size());
  std::set<std::string> bound;
  for (const Object& binding : bindings) {
    bound.insert(binding.node["spec"]["policyName"].as<std::string>());
    EXPECT_EQ(Strings(binding.node["spec"]["validationActions"]), std::set<std::string>{"Deny"})
        << binding.Name();
  }
  std::set<std::string> names;
  for (const Object& policy : policies) names.insert(policy.Name());
  EXPECT_EQ(bound, names);
}

// --- Device classes and CEL -------------------------------------------------------------------

TEST(AttributeReference, ListsTheAttributesAndTheCapacityTheseTestsRelyOn) {
  const Published published = ReadAttributeReference();
  for (const char* name :
       {"decodeHEVCMain10", "scale10bit", "decodeAV1Main", "decodeAV1Main10", "encodeH264",
        "encodeHEVCMain", "encodeHEVCMain10", "vendor", "product", kPairingAttribute}) {
    EXPECT_TRUE(published.attributes.count(name)) << name << " is not in " << kAttributeReference;
  }
  EXPECT_EQ(published.capacities, std::set<std::string>{"encodeSessions"});
  EXPECT_FALSE(published.attributes.count("encodeSessions"));
}

TEST(Cel, TheReaderFindsEveryFormOfAttributeAndCapacityReference) {
  const std::vector<Reference> found = ReferencesIn(
      R"(device.driver == "media.liken.sh" && device.attributes["media.liken.sh"].decodeVP9 && )"
      R"(has(device.attributes['liken.sh'].renderNode) && device.attributes["media.liken.sh"]["scale8bit"] && )"
      R"(device.attributes["media.liken.sh"].?vaDriver.orValue("") != "" && )"
      R"(device.capacity["media.liken.sh"].encodeSessions.compareTo(quantity("1")) >= 0 && device.attributes[d].x)");
  ASSERT_EQ(found.size(), 6u);
  EXPECT_EQ(found[0].name, "decodeVP9");
  EXPECT_EQ(found[1].domain, "liken.sh");
  EXPECT_EQ(found[1].name, "renderNode");
  EXPECT_EQ(found[2].name, "scale8bit");
  EXPECT_EQ(found[3].name, "vaDriver");
  EXPECT_EQ(found[4].what, "capacity");
  EXPECT_EQ(found[4].name, "encodeSessions");
  EXPECT_EQ(found[5].what, "unreadable");
}

TEST(Cel, EveryExpressionNamesOnlyAttributesTheDevicesPublish) {
  const Published published = ReadAttributeReference();
  size_t references = 0;
  for (const Object& object : Everything()) {
    if (object.Kind() == "ValidatingAdmissionPolicy")
      continue;  // its CEL reads requests, not devices
    for (const std::string& expression : CelOf(object)) {
      for (const Reference& reference : ReferencesIn(expression)) {
        ++references;
        const std::string problem = Unpublished(reference, published);
        EXPECT_EQ(problem, "") << object.file.filename() << ", " << object.Kind() << " "
                               << object.Name() << ": " << expression;
      }
    }
  }
  EXPECT_GE(references, 8u)
      << "the reader found too few references to be reading the selectors at all";
}

TEST(DeviceClasses, TheBaseShipsTheRenderClassAndTheFourMediaClasses) {
  std::set<std::string> names;
  for (const Object& object : OfKind(Base(), "DeviceClass")) names.insert(object.Name());
  EXPECT_EQ(names,
            (std::set<std::string>{"media-render", "media-capabilities", "media-decode-10bit",
                                   "media-decode-av1", "media-encode"}));
}

// A class's selector runs on every device of every driver, and reading an attribute another
// driver's device lacks is an error that stops the allocation; `device.driver == D && ...`
// keeps CEL from reading it.
TEST(DeviceClasses, EachTestsTheDriverBeforeReadingItsAttributes) {
  static const std::regex kDriverTest(R"re(^\s*device\.driver\s*==\s*["']([^"']+)["'])re");
  for (const Object& object : OfKind(Base(), "DeviceClass")) {
    for (const std::string& expression : CelOf(object)) {
      std::smatch m;
      ASSERT_TRUE(std::regex_search(expression, m, kDriverTest))
          << object.Name() << ": " << expression;
      const std::string driver = m[1].str();
      EXPECT_TRUE(driver == kDriver || driver == "liken.sh") << object.Name();
      for (const Reference& reference : ReferencesIn(expression)) {
        EXPECT_EQ(reference.domain, driver) << object.Name() << " reads another driver's attribute";
      }
    }
  }
  const std::string render = CelOf(*Find(Base(), "DeviceClass", "media-render"))[0];
  EXPECT_NE(render.find(R"(has(device.attributes["liken.sh"].renderNode))"), std::string::npos)
      << render;
}

// --- The examples -----------------------------------------------------------------------------

// The DeviceClasses whose selectors pin driver media.liken.sh.
std::set<std::string> MediaClasses() {
  std::set<std::string> names;
  for (const Object& object : OfKind(Base(), "DeviceClass")) {
    for (const std::string& expression : CelOf(object)) {
      if (expression.find(R"(device.driver == "media.liken.sh")") != std::string::npos)
        names.insert(object.Name());
    }
  }
  return names;
}

TEST(Examples, PairTheirDevicesThroughThePciBusIdAttribute) {
  std::vector<Object> claims = Claims(Examples());
  ASSERT_GE(claims.size(), 3u) << "the guide's VA-API, NVIDIA and encodeSessions claims";
  for (const Object& claim : claims) {
    const YAML::Node devices = ClaimSpec(claim)["devices"];
    std::set<std::string> requests;
    for (const YAML::Node& request : devices["requests"])
      requests.insert(request["name"].as<std::string>());
    ASSERT_GE(requests.size(), 2u) << claim.Name() << ": a GPU and its media.liken.sh device";
    ASSERT_TRUE(devices["constraints"]) << claim.Name() << " pairs nothing";
    for (const YAML::Node& constraint : devices["constraints"]) {
      EXPECT_EQ(constraint["matchAttribute"].as<std::string>(), kPairingAttribute) << claim.Name();
      EXPECT_EQ(Strings(constraint["requests"]), requests)
          << claim.Name() << ": the constraint must cover the GPU and the media device";
    }
  }
}

TEST(Examples, SelectMediaDevicesOnlyThroughClassesThatPinTheDriver) {
  const std::set<std::string> media_classes = MediaClasses();
  std::set<std::string> known_classes = {"gpu.nvidia.com"};  // shipped by NVIDIA's DRA driver
  for (const Object& object : OfKind(Base(), "DeviceClass")) known_classes.insert(object.Name());
  size_t media_requests = 0;
  for (const Object& claim : Claims(Examples())) {
    for (const YAML::Node& request : ClaimSpec(claim)["devices"]["requests"]) {
      const std::string class_name = request["exactly"]["deviceClassName"].as<std::string>();
      EXPECT_TRUE(known_classes.count(class_name))
          << claim.Name() << " names an unknown class " << class_name;
      std::vector<std::string> expressions;
      CollectCel(request, expressions);
      for (const std::string& expression : expressions) {
        for (const Reference& reference : ReferencesIn(expression)) {
          if (reference.domain == kDriver) {
            EXPECT_TRUE(media_classes.count(class_name))
                << claim.Name() << "/" << request["name"]
                << " reads media.liken.sh attributes through class " << class_name
                << ", which does not pin the driver";
          }
        }
      }
      if (media_classes.count(class_name)) ++media_requests;
    }
  }
  EXPECT_GE(media_requests, 3u);
}

TEST(Examples, ConsumeEncodeSessionsByTheCapacitysPublishedName) {
  const Published published = ReadAttributeReference();
  size_t capacity_requests = 0;
  for (const Object& claim : Claims(Examples())) {
    for (const YAML::Node& request : ClaimSpec(claim)["devices"]["requests"]) {
      const YAML::Node capacity = request["exactly"]["capacity"];
      if (!capacity) continue;
      for (const auto& entry : capacity["requests"]) {
        ++capacity_requests;
        // The allocator looks the request up by the device's own key, which is bare.
        EXPECT_TRUE(published.capacities.count(entry.first.as<std::string>()))
            << claim.Name() << " requests " << entry.first.as<std::string>();
        EXPECT_EQ(entry.second.as<std::string>(), "1");
        EXPECT_TRUE(MediaClasses().count(request["exactly"]["deviceClassName"].as<std::string>()));
      }
    }
  }
  EXPECT_EQ(capacity_requests, 1u);
}

TEST(Examples, EveryWorkloadUsesTheClaimTemplateItsFileDefines) {
  for (const fs::path& file : YamlFilesUnder(kExamples)) {
    const std::vector<Object> objects = LoadFile(file);
    size_t workloads = 0;
    for (const Object& object : objects) {
      YAML::Node pod;
      if (object.Kind() == "Pod")
        pod = object.node["spec"];
      else if (object.Kind() == "Deployment")
        pod = object.node["spec"]["template"]["spec"];
      else
        continue;
      ++workloads;
      std::set<std::string> pod_claims;
      for (const YAML::Node& claim : pod["resourceClaims"]) {
        pod_claims.insert(claim["name"].as<std::string>());
        EXPECT_TRUE(Find(objects, "ResourceClaimTemplate",
                         claim["resourceClaimTemplateName"].as<std::string>()))
            << file.filename();
      }
      std::set<std::string> used;
      for (const YAML::Node& container : pod["containers"]) {
        for (const YAML::Node& claim : container["resources"]["claims"])
          used.insert(claim["name"].as<std::string>());
      }
      EXPECT_EQ(used, pod_claims) << file.filename()
                                  << ": a container must use the claim for the devices to reach it";
    }
    EXPECT_EQ(workloads, 1u) << file.filename();
  }
}

}  // namespace
