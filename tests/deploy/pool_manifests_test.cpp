// The pool manager's manifests (deploy/pool/), checked without a cluster: RBAC that grants
// exactly what the manager uses on the workers' own StatefulSet, a Deployment that runs
// unprivileged with every secret as a file, and a configuration that names the workers of
// deploy/worker/ as they are. check-against-apiserver holds the same files to a real
// apiserver (validation, and `kubectl auth can-i` as the manager's ServiceAccount).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pool/service/service_config.h"

namespace {

namespace fs = std::filesystem;

const fs::path kManifestRoot = fs::path(MEDIA_CAP_REPO_DIR) / "deploy";
const fs::path kPool = kManifestRoot / "pool";
const fs::path kWorker = kManifestRoot / "worker";

std::vector<YAML::Node> ObjectsIn(const fs::path& dir) {
  std::vector<YAML::Node> objects;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml" || entry.path().filename() == "kustomization.yaml")
      continue;
    for (const YAML::Node& document : YAML::LoadAllFromFile(entry.path().string())) {
      if (!document.IsNull()) objects.push_back(document);
    }
  }
  return objects;
}

YAML::Node Find(const fs::path& dir, const std::string& kind) {
  for (const YAML::Node& object : ObjectsIn(dir)) {
    if (object["kind"].as<std::string>() == kind) return object;
  }
  throw std::runtime_error(dir.string() + " has no " + kind);
}

std::string WorkerStatefulSet() {
  return Find(kWorker, "StatefulSet")["metadata"]["name"].as<std::string>();
}
std::string WorkerNamespace() {
  return Find(kWorker, "StatefulSet")["metadata"]["namespace"].as<std::string>();
}
YAML::Node PoolPod() { return Find(kPool, "Deployment")["spec"]["template"]["spec"]; }
YAML::Node PoolConfig() {
  return YAML::Load(Find(kPool, "ConfigMap")["data"]["pool.yaml"].as<std::string>());
}

TEST(PoolManifests, TheKustomizationListsEveryFileAndPutsThemBesideTheWorkers) {
  const YAML::Node kustomization = YAML::LoadFile((kPool / "kustomization.yaml").string());
  std::set<std::string> listed;
  for (const YAML::Node& resource : kustomization["resources"])
    listed.insert(resource.as<std::string>());
  for (const auto& entry : fs::directory_iterator(kPool)) {
    const std::string name = entry.path().filename().string();
    // systemd/ holds the bare-metal unit, which is no Kubernetes object.
    if (name == "kustomization.yaml" || entry.is_directory()) continue;
    EXPECT_TRUE(listed.contains(name)) << name << " is not in deploy/pool/kustomization.yaml";
  }
  EXPECT_EQ(kustomization["namespace"].as<std::string>(), WorkerNamespace());
  for (const YAML::Node& object : ObjectsIn(kPool))
    EXPECT_EQ(object["metadata"]["namespace"].as<std::string>(), WorkerNamespace());
}

TEST(PoolRbac, TheRoleGrantsExactlyWhatTheManagerUsesOnTheWorkersStatefulSet) {
  const YAML::Node role = Find(kPool, "Role");
  // "group/resource[name]" -> verbs
  std::map<std::string, std::set<std::string>> verbs_of;
  for (const YAML::Node& rule : role["rules"]) {
    EXPECT_FALSE(rule["nonResourceURLs"]);
    std::vector<std::string> names = {""};
    if (rule["resourceNames"]) {
      names.clear();
      for (const YAML::Node& name : rule["resourceNames"]) names.push_back(name.as<std::string>());
    }
    for (const YAML::Node& group : rule["apiGroups"]) {
      for (const YAML::Node& resource : rule["resources"]) {
        for (const std::string& name : names) {
          for (const YAML::Node& verb : rule["verbs"]) {
            const std::string key = group.as<std::string>() + "/" + resource.as<std::string>() +
                                    (name.empty() ? "" : "[" + name + "]");
            verbs_of[key].insert(verb.as<std::string>());
          }
        }
      }
    }
  }
  const std::string workers = WorkerStatefulSet();
  const std::map<std::string, std::set<std::string>> expected = {
      {"apps/statefulsets/scale[" + workers + "]", {"get", "update", "patch"}},
      {"apps/statefulsets[" + workers + "]", {"get"}},
      {"/pods", {"get", "list", "watch"}},
      {"/events", {"create", "patch"}},
  };
  EXPECT_EQ(verbs_of, expected);
}

TEST(PoolRbac, NothingIsAWildcard) {
  for (const YAML::Node& rule : Find(kPool, "Role")["rules"]) {
    for (const char* field : {"apiGroups", "resources", "verbs", "resourceNames"}) {
      for (const YAML::Node& value : rule[field]) {
        const std::string text = value.as<std::string>();
        EXPECT_EQ(text.find('*'), std::string::npos) << field << ": " << text;
      }
    }
  }
  for (const YAML::Node& object : ObjectsIn(kPool))
    EXPECT_NE(object["kind"].as<std::string>(), "ClusterRole");
}

TEST(PoolRbac, TheBindingGivesTheRoleToTheManagersServiceAccountAlone) {
  const YAML::Node binding = Find(kPool, "RoleBinding");
  EXPECT_EQ(binding["roleRef"]["kind"].as<std::string>(), "Role");
  EXPECT_EQ(binding["roleRef"]["name"].as<std::string>(),
            Find(kPool, "Role")["metadata"]["name"].as<std::string>());
  ASSERT_EQ(binding["subjects"].size(), 1u);
  const YAML::Node subject = binding["subjects"][0];
  EXPECT_EQ(subject["kind"].as<std::string>(), "ServiceAccount");
  EXPECT_EQ(subject["name"].as<std::string>(),
            Find(kPool, "ServiceAccount")["metadata"]["name"].as<std::string>());
  EXPECT_EQ(subject["namespace"].as<std::string>(), WorkerNamespace());
  EXPECT_EQ(PoolPod()["serviceAccountName"].as<std::string>(), subject["name"].as<std::string>());
}

TEST(PoolDeployment, RunsOneManagerOfTheConfigFileAtATime) {
  const YAML::Node deployment = Find(kPool, "Deployment");
  EXPECT_EQ(deployment["spec"]["replicas"].as<int>(), 1);
  EXPECT_EQ(deployment["spec"]["strategy"]["type"].as<std::string>(), "Recreate");
  const YAML::Node container = PoolPod()["containers"][0];
  std::vector<std::string> args;
  for (const YAML::Node& arg : container["args"]) args.push_back(arg.as<std::string>());
  EXPECT_EQ(args,
            (std::vector<std::string>{"pool", "run", "--config", "/etc/media-pool/pool.yaml"}));
  bool config_mounted = false;
  for (const YAML::Node& mount : container["volumeMounts"]) {
    if (mount["mountPath"].as<std::string>() == "/etc/media-pool") config_mounted = true;
  }
  EXPECT_TRUE(config_mounted);
  EXPECT_TRUE(container["resources"]["requests"]["cpu"]);
  EXPECT_TRUE(container["resources"]["requests"]["memory"]);
  EXPECT_TRUE(container["resources"]["limits"]["memory"]);
}

TEST(PoolDeployment, RunsUnprivilegedOnAReadOnlyRootFilesystem) {
  const YAML::Node pod = PoolPod();
  EXPECT_TRUE(pod["securityContext"]["runAsNonRoot"].as<bool>());
  EXPECT_NE(pod["securityContext"]["runAsUser"].as<int>(), 0);
  EXPECT_EQ(pod["securityContext"]["seccompProfile"]["type"].as<std::string>(), "RuntimeDefault");
  EXPECT_FALSE(pod["hostNetwork"]);
  const YAML::Node security = pod["containers"][0]["securityContext"];
  EXPECT_TRUE(security["readOnlyRootFilesystem"].as<bool>());
  EXPECT_FALSE(security["allowPrivilegeEscalation"].as<bool>());
  EXPECT_EQ(security["capabilities"]["drop"][0].as<std::string>(), "ALL");
}

// The directories where the Deployment mounts a Secret, read-only.
std::set<std::string> SecretMounts() {
  std::set<std::string> secret_volumes;
  for (const YAML::Node& volume : PoolPod()["volumes"]) {
    if (volume["secret"]) secret_volumes.insert(volume["name"].as<std::string>());
  }
  std::set<std::string> mounts;
  for (const YAML::Node& mount : PoolPod()["containers"][0]["volumeMounts"]) {
    if (!secret_volumes.contains(mount["name"].as<std::string>())) continue;
    EXPECT_TRUE(mount["readOnly"] && mount["readOnly"].as<bool>())
        << mount["name"].as<std::string>();
    mounts.insert(mount["mountPath"].as<std::string>());
  }
  return mounts;
}

bool UnderASecretMount(const std::string& file) {
  for (const std::string& mount : SecretMounts()) {
    if (file.starts_with(mount + "/")) return true;
  }
  return false;
}

TEST(PoolDeployment, SecretsComeOnlyAsFiles) {
  const YAML::Node container = PoolPod()["containers"][0];
  EXPECT_FALSE(container["envFrom"]);
  for (const YAML::Node& variable : container["env"]) {
    EXPECT_FALSE(variable["valueFrom"] && variable["valueFrom"]["secretKeyRef"])
        << variable["name"].as<std::string>();
  }
  EXPECT_EQ(SecretMounts().size(), 2u);
  const YAML::Node config = PoolConfig();
  for (const std::string& file : {config["kubernetes"]["control_key_file"].as<std::string>(),
                                  config["kubernetes"]["control_ca_file"].as<std::string>(),
                                  config["peertube"]["credentials_file"].as<std::string>()}) {
    EXPECT_TRUE(UnderASecretMount(file)) << file << " is not in a mounted Secret";
  }
}

// The Secret a pod volume of `pod` holds, by the volume's name; empty for another volume.
std::string SecretOfVolume(const YAML::Node& pod, const std::string& volume) {
  for (const YAML::Node& entry : pod["volumes"]) {
    if (entry["name"].as<std::string>() == volume && entry["secret"])
      return entry["secret"]["secretName"].as<std::string>();
  }
  return "";
}

std::set<std::string> SecretsMountedBy(const YAML::Node& pod, const YAML::Node& container) {
  std::set<std::string> secrets;
  for (const YAML::Node& mount : container["volumeMounts"]) {
    const std::string secret = SecretOfVolume(pod, mount["name"].as<std::string>());
    if (!secret.empty()) secrets.insert(secret);
  }
  return secrets;
}

// Each worker's control token is derived from the pool's key by an init container; the
// worker's own container, where uploads are decoded, never mounts the key.
TEST(WorkerStatefulSet, TheWorkersContainerHoldsItsOwnControlTokenAndNeverThePoolsKey) {
  const YAML::Node worker_pod = Find(kWorker, "StatefulSet")["spec"]["template"]["spec"];
  const std::string key_secret = SecretOfVolume(PoolPod(), "control");
  ASSERT_FALSE(key_secret.empty());
  EXPECT_FALSE(SecretsMountedBy(worker_pod, worker_pod["containers"][0]).contains(key_secret));
  bool derived = false;
  for (const YAML::Node& init : worker_pod["initContainers"]) {
    if (!SecretsMountedBy(worker_pod, init).contains(key_secret)) continue;
    const std::string args = YAML::Dump(init["args"]);
    derived = args.find("control-token") != std::string::npos &&
              args.find("--out=/run/worker-control/token") != std::string::npos;
  }
  EXPECT_TRUE(derived) << "no init container derives the token from " << key_secret;
  const std::string worker_args = YAML::Dump(worker_pod["containers"][0]["args"]);
  EXPECT_NE(worker_args.find("--control-token-file=/run/worker-control/token"), std::string::npos);
  EXPECT_NE(worker_args.find("--control-tls-cert="), std::string::npos);
}

// A NetworkPolicy's rules that admit `port`, as the pod selectors of their sources.
std::vector<YAML::Node> SourcesOfPort(const YAML::Node& policy, int port) {
  std::vector<YAML::Node> sources;
  for (const YAML::Node& rule : policy["spec"]["ingress"]) {
    bool admits = false;
    for (const YAML::Node& allowed : rule["ports"]) admits |= allowed["port"].as<int>() == port;
    if (!admits) continue;
    for (const YAML::Node& from : rule["from"]) sources.push_back(from);
  }
  return sources;
}

bool Matches(const YAML::Node& selector, const YAML::Node& labels) {
  for (const auto& label : selector["matchLabels"]) {
    const YAML::Node value = labels[label.first.as<std::string>()];
    if (!value || value.as<std::string>() != label.second.as<std::string>()) return false;
  }
  return true;
}

TEST(WorkerNetworkPolicy, OnlyThePoolManagersPodsReachTheControlPort) {
  const YAML::Node policy = Find(kWorker, "NetworkPolicy");
  const YAML::Node statefulset = Find(kWorker, "StatefulSet");
  EXPECT_TRUE(Matches(policy["spec"]["podSelector"],
                      statefulset["spec"]["template"]["metadata"]["labels"]));
  const std::vector<YAML::Node> control =
      SourcesOfPort(policy, PoolConfig()["kubernetes"]["control_port"].as<int>());
  ASSERT_EQ(control.size(), 1u);
  EXPECT_FALSE(control[0]["namespaceSelector"]) << "the pool's own namespace only";
  EXPECT_TRUE(Matches(control[0]["podSelector"],
                      Find(kPool, "Deployment")["spec"]["template"]["metadata"]["labels"]));
  // The status port: the pool and the scrapers, never everyone.
  for (const YAML::Node& source :
       SourcesOfPort(policy, PoolConfig()["kubernetes"]["worker_port"].as<int>()))
    EXPECT_TRUE(source["podSelector"] && source["podSelector"]["matchLabels"]);
}

TEST(PoolNetworkPolicy, OnlyScrapersReachTheReport) {
  std::vector<YAML::Node> sources;
  for (const YAML::Node& policy : ObjectsIn(kPool)) {
    if (policy["kind"].as<std::string>() != "NetworkPolicy") continue;
    EXPECT_TRUE(Matches(policy["spec"]["podSelector"],
                        Find(kPool, "Deployment")["spec"]["template"]["metadata"]["labels"]));
    for (const YAML::Node& source : SourcesOfPort(policy, 9465)) sources.push_back(source);
  }
  ASSERT_EQ(sources.size(), 1u);
  EXPECT_EQ(
      sources[0]["podSelector"]["matchLabels"]["media-capabilities.io/scraper"].as<std::string>(),
      "true");
}

TEST(PoolConfig, IsAFileThePoolServiceReads) {
  const std::string text = Find(kPool, "ConfigMap")["data"]["pool.yaml"].as<std::string>();
  mc::Result<mc::pool::ServiceConfig> config = mc::pool::ParseServiceConfig(text, "pool.yaml");
  ASSERT_TRUE(config) << config.error_message();
  EXPECT_EQ(config->control, mc::pool::ControlMode::kKubernetes);
  EXPECT_EQ(config->listen, "0.0.0.0:9465");
}

TEST(PoolConfig, NamesTheWorkersOfDeployWorkerAsTheyAre) {
  const YAML::Node config = PoolConfig();
  EXPECT_EQ(config["control"].as<std::string>(), "kubernetes");
  const YAML::Node kubernetes = config["kubernetes"];
  const YAML::Node statefulset = Find(kWorker, "StatefulSet");
  EXPECT_EQ(kubernetes["namespace"].as<std::string>(), WorkerNamespace());
  EXPECT_EQ(kubernetes["statefulset"].as<std::string>(), WorkerStatefulSet());
  // The selector is the StatefulSet's own, KEY=VALUE.
  std::string own;
  for (const auto& label : statefulset["spec"]["selector"]["matchLabels"]) {
    own += (own.empty() ? "" : ",") + label.first.as<std::string>() + "=" +
           label.second.as<std::string>();
  }
  EXPECT_EQ(kubernetes["selector"].as<std::string>(), own);
  const YAML::Node worker = statefulset["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(kubernetes["worker_port"].as<int>(), worker["ports"][0]["containerPort"].as<int>());
  EXPECT_EQ(kubernetes["control_port"].as<int>(), worker["ports"][1]["containerPort"].as<int>());
  EXPECT_NE(
      YAML::Dump(worker["args"])
          .find("--control-listen=0.0.0.0:" + std::to_string(kubernetes["control_port"].as<int>())),
      std::string::npos);
  // The pool checks each pod's certificate for POD.STATEFULSET.NAMESPACE.svc: the StatefulSet's
  // headless service must bear its name.
  EXPECT_EQ(statefulset["spec"]["serviceName"].as<std::string>(), WorkerStatefulSet());
  const YAML::Node service = Find(kWorker, "Service");
  EXPECT_EQ(service["metadata"]["name"].as<std::string>(), WorkerStatefulSet());
  EXPECT_EQ(service["spec"]["clusterIP"].as<std::string>(), "None");
  EXPECT_TRUE(config["peertube"]["url"].as<std::string>().starts_with("https://"));
}

}  // namespace
