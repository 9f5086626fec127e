// The transcoding workers' manifests (deploy/worker/), checked without a cluster.
// Each worker claims a render node and an encoder of one GPU, and takes the sessions its
// claim consumes. Only the step that registers the runner reads the registration token, and
// the systemd units of deploy/worker/systemd keep the same split.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "manifest_reading.h"

namespace mc::deploy_test {
namespace {

namespace fs = std::filesystem;

const fs::path kWorker = DeployDir() / "worker";

// The workers' own files: the YAML files of deploy/worker/ outside folders with a
// kustomization of their own (the cert-manager component).
std::vector<fs::path> WorkerFiles() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kWorker)) {
    const fs::path& file = entry.path();
    if (!entry.is_regular_file() || (file.extension() != ".yaml" && file.extension() != ".yml"))
      continue;
    if (file.parent_path() == kWorker) {
      files.push_back(file);
    } else {
      EXPECT_TRUE(fs::exists(file.parent_path() / "kustomization.yaml")) << file;
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The first object of that kind in the workers' files; the test fails (throws) without one.
Manifest Find(const std::string& kind) {
  std::vector<Manifest> objects;
  for (const fs::path& file : WorkerFiles()) {
    std::vector<Manifest> more = ObjectsOfFile(file);
    objects.insert(objects.end(), more.begin(), more.end());
  }
  for (const Manifest& object : objects) {
    if (object.node["kind"].as<std::string>() == kind) return object;
  }
  throw std::runtime_error("deploy/worker has no " + kind);
}

TEST(WorkerManifests, TheKustomizationListsEveryFileOfTheWorkers) {
  const YAML::Node kustomization = YAML::LoadFile((kWorker / "kustomization.yaml").string());
  std::set<fs::path> listed;
  for (const YAML::Node& resource : kustomization["resources"])
    listed.insert(kWorker / resource.as<std::string>());
  for (const fs::path& file : WorkerFiles()) {
    if (file.filename() == "kustomization.yaml") continue;
    EXPECT_TRUE(listed.contains(file)) << file << " is not in deploy/worker/kustomization.yaml";
  }
}

// Whether a claim template's name is the one of that GPU class: peertube-worker-CLASS, and for
// NVIDIA's classes, whose spec follows the chart's values, a digest of the spec after it (a
// template's spec cannot change, so new values make a new template).
bool IsClaimOfClass(const std::string& name, const std::string& gpu_class) {
  const std::string prefix = "peertube-worker-" + gpu_class;
  if (name == prefix) return true;
  if (!name.starts_with(prefix + "-") || name.size() != prefix.size() + 9) return false;
  return name.find_first_not_of("0123456789abcdef", prefix.size() + 1) == std::string::npos;
}

// The ResourceClaimTemplate of that GPU class in the workers' files; the test fails (throws)
// without one.
Manifest FindClaim(const std::string& gpu_class) {
  for (const fs::path& file : WorkerFiles()) {
    for (const Manifest& object : ObjectsOfFile(file)) {
      if (object.Kind() == "ResourceClaimTemplate" && IsClaimOfClass(object.Name(), gpu_class))
        return object;
    }
  }
  throw std::runtime_error("deploy/worker has no ResourceClaimTemplate of class " + gpu_class);
}

std::map<std::string, YAML::Node> RequestsOf(const Manifest& claim) {
  std::map<std::string, YAML::Node> requests;
  for (const YAML::Node& request : claim.node["spec"]["spec"]["devices"]["requests"])
    requests[request["name"].as<std::string>()] = request["exactly"];
  return requests;
}

std::string SelectorOf(const YAML::Node& request) {
  return request["selectors"][0]["cel"]["expression"].as<std::string>();
}

TEST(WorkerManifests, TheVaapiClaimPairsARenderNodeWithAnH264EncoderOfTheSameGpuAndNoSessions) {
  const Manifest claim = FindClaim("vaapi");
  std::map<std::string, YAML::Node> requests = RequestsOf(claim);
  ASSERT_TRUE(requests.contains("gpu") && requests.contains("encoder"));
  EXPECT_EQ(requests["gpu"]["deviceClassName"].as<std::string>(), "media-render");
  EXPECT_EQ(requests["encoder"]["deviceClassName"].as<std::string>(), "media-capabilities");
  const std::string selector = SelectorOf(requests["encoder"]);
  EXPECT_NE(selector.find("encodeH264LowPower"), std::string::npos);
  EXPECT_NE(selector.find(R"(.api == "vaapi")"), std::string::npos);
  // VA-API devices publish no encodeSessions, and a request for a capacity a device lacks
  // excludes the device: Intel's and AMD's GPUs could never take such a claim.
  EXPECT_FALSE(requests["encoder"]["capacity"]) << "VA-API devices publish no capacity";
  EXPECT_EQ(
      claim.node["spec"]["spec"]["devices"]["constraints"][0]["matchAttribute"].as<std::string>(),
      "resource.kubernetes.io/pciBusID");
}

TEST(WorkerManifests, TheStatefulSetClaimsItsGpuThroughATemplateOfItsFolder) {
  const YAML::Node claims = Find("StatefulSet").node["spec"]["template"]["spec"]["resourceClaims"];
  ASSERT_EQ(claims.size(), 1u);
  const std::string name = claims[0]["resourceClaimTemplateName"].as<std::string>();
  bool found = false;
  for (const fs::path& file : WorkerFiles()) {
    for (const Manifest& object : ObjectsOfFile(file))
      found = found || (object.Kind() == "ResourceClaimTemplate" && object.Name() == name);
  }
  EXPECT_TRUE(found) << "no ResourceClaimTemplate " << name << " beside the StatefulSet";
}

TEST(WorkerManifests, OnlyTheGeForceClaimConsumesSessionsAndAsManyAsTheWorkerOpens) {
  const YAML::Node container =
      Find("StatefulSet").node["spec"]["template"]["spec"]["containers"][0];
  std::string cap;
  for (const YAML::Node& variable : container["env"]) {
    if (variable["name"].as<std::string>() == "PT_WORKER_SESSIONS_CAP")
      cap = variable["value"].as<std::string>();
  }
  std::map<std::string, YAML::Node> geforce = RequestsOf(FindClaim("nvidia-geforce"));
  ASSERT_TRUE(geforce.contains("encoder"));
  EXPECT_EQ(cap, geforce["encoder"]["capacity"]["requests"]["encodeSessions"].as<std::string>());
  EXPECT_NE(SelectorOf(geforce["encoder"])
                .find(R"(has(device.capacity["media.liken.sh"].encodeSessions))"),
            std::string::npos);
  // A board without a cap (professional, datacenter) publishes no encodeSessions: its claim asks
  // for none, and keeps off GeForce boards, all of whose sessions a claim naming none would take.
  std::map<std::string, YAML::Node> professional = RequestsOf(FindClaim("nvidia"));
  ASSERT_TRUE(professional.contains("encoder"));
  EXPECT_FALSE(professional["encoder"]["capacity"]);
  EXPECT_NE(SelectorOf(professional["encoder"])
                .find(R"(!has(device.capacity["media.liken.sh"].encodeSessions))"),
            std::string::npos);
}

TEST(WorkerManifests, NvidiaClaimsTakeTheGpuFromNvidiasDriverPairedByPciBusId) {
  for (const std::string name : {"nvidia-geforce", "nvidia"}) {
    const Manifest claim = FindClaim(name);
    std::map<std::string, YAML::Node> requests = RequestsOf(claim);
    ASSERT_TRUE(requests.contains("nvidia-gpu")) << name;
    EXPECT_EQ(requests["nvidia-gpu"]["deviceClassName"].as<std::string>(), "gpu.nvidia.com");
    EXPECT_FALSE(requests.contains("gpu")) << name << ": NVIDIA nodes may have no render node";
    EXPECT_NE(SelectorOf(requests["encoder"]).find(R"(.api == "nvidia")"), std::string::npos);
    EXPECT_EQ(
        claim.node["spec"]["spec"]["devices"]["constraints"][0]["matchAttribute"].as<std::string>(),
        "resource.kubernetes.io/pciBusID");
  }
}

TEST(WorkerManifests, TokensComeFromFilesNeverFromTheCommandLine) {
  const YAML::Node pod = Find("StatefulSet").node["spec"]["template"]["spec"];
  bool token_files = false;
  for (const char* list : {"initContainers", "containers"}) {
    for (const YAML::Node& container : pod[list]) {
      for (const YAML::Node& arg : container["args"]) {
        const std::string text = arg.as<std::string>();
        EXPECT_EQ(text.find("ptrrt-"), std::string::npos) << text;
        EXPECT_EQ(text.find("--registration-token="), std::string::npos) << text;
        if (text.starts_with("--registration-token-file=/run/secrets/")) token_files = true;
      }
    }
  }
  EXPECT_TRUE(token_files);
  for (const YAML::Node& volume : pod["volumes"]) {
    if (volume["secret"]) {
      EXPECT_EQ(volume["secret"]["defaultMode"].Scalar(), "0400") << volume["name"].Scalar();
    }
  }
}

// The containers, init containers first, each with whether it is one.
std::vector<std::pair<YAML::Node, bool>> ContainersOf(const YAML::Node& pod) {
  std::vector<std::pair<YAML::Node, bool>> containers;
  for (const YAML::Node& container : pod["initContainers"]) containers.push_back({container, true});
  for (const YAML::Node& container : pod["containers"]) containers.push_back({container, false});
  return containers;
}

// Whether a pod's volume holds the registration-token key of the Secret peertube-worker: a
// volume of that Secret that lists its items holds those alone, one that lists none holds
// every key.
bool HoldsTheRegistrationToken(const YAML::Node& volume) {
  if (!volume["secret"] || volume["secret"]["secretName"].Scalar() != "peertube-worker")
    return false;
  if (!volume["secret"]["items"]) return true;
  for (const YAML::Node& item : volume["secret"]["items"]) {
    if (item["key"].Scalar() == "registration-token") return true;
  }
  return false;
}

TEST(WorkerManifests, OnlyTheInitContainerThatRegistersMountsTheRegistrationToken) {
  const YAML::Node pod = Find("StatefulSet").node["spec"]["template"]["spec"];
  std::set<std::string> token_volumes;
  for (const YAML::Node& volume : pod["volumes"]) {
    if (HoldsTheRegistrationToken(volume)) token_volumes.insert(volume["name"].Scalar());
  }
  ASSERT_FALSE(token_volumes.empty()) << "no volume holds the registration token";
  std::vector<std::string> mounting;
  for (const auto& [container, init] : ContainersOf(pod)) {
    for (const YAML::Node& mount : container["volumeMounts"]) {
      if (token_volumes.contains(mount["name"].Scalar())) {
        mounting.push_back(container["name"].Scalar());
        EXPECT_TRUE(init) << container["name"].Scalar()
                          << " mounts the registration token, and it runs for the pod's life";
        EXPECT_TRUE(mount["readOnly"] && mount["readOnly"].as<bool>());
      }
    }
  }
  EXPECT_EQ(mounting, std::vector<std::string>{"register"});
  const YAML::Node worker = pod["containers"][0];
  for (const YAML::Node& arg : worker["args"])
    EXPECT_EQ(arg.Scalar().find("registration-token"), std::string::npos) << arg.Scalar();
  for (const YAML::Node& variable : worker["env"])
    EXPECT_EQ(variable["name"].Scalar().find("REGISTRATION"), std::string::npos);
}

// The value of `--NAME=VALUE` among a container's args, or "" where it has none.
std::string ArgOf(const YAML::Node& container, const std::string& name) {
  for (const YAML::Node& arg : container["args"]) {
    if (arg.Scalar().starts_with("--" + name + "=")) return arg.Scalar().substr(name.size() + 3);
  }
  return "";
}

// A container's environment as text: each variable's name and its value or source.
std::map<std::string, std::string> EnvOf(const YAML::Node& container) {
  std::map<std::string, std::string> env;
  for (const YAML::Node& variable : container["env"]) {
    std::ostringstream value;
    value << (variable["value"] ? variable["value"] : variable["valueFrom"]);
    env[variable["name"].Scalar()] = value.str();
  }
  return env;
}

TEST(WorkerManifests, TheInitContainerRegistersTheRunnerUnderTheNameTheWorkerRunsAs) {
  const YAML::Node pod = Find("StatefulSet").node["spec"]["template"]["spec"];
  YAML::Node init;
  for (const YAML::Node& container : pod["initContainers"]) {
    if (container["name"].Scalar() == "register") init = container;
  }
  ASSERT_TRUE(init) << "no init container named register";
  const YAML::Node worker = pod["containers"][0];
  EXPECT_EQ(init["image"].Scalar(), worker["image"].Scalar());
  ASSERT_GE(init["args"].size(), 2u);
  EXPECT_EQ(init["args"][0].Scalar(), "worker");
  EXPECT_EQ(init["args"][1].Scalar(), "register");
  EXPECT_EQ(worker["args"][1].Scalar(), "run");
  // What decides the runner's name and where its registration is kept: the same in both.
  for (const char* option : {"gpu", "state-dir", "url", "runner-name", "probe-module"})
    EXPECT_EQ(ArgOf(init, option), ArgOf(worker, option)) << "--" << option;
  const std::map<std::string, std::string> init_env = EnvOf(init);
  const std::map<std::string, std::string> worker_env = EnvOf(worker);
  ASSERT_TRUE(worker_env.contains("PT_WORKER_RUNNER_NAME"));
  for (const char* variable :
       {"PEERTUBE_URL", "PT_WORKER_RUNNER_NAME", "PT_WORKER_GPU_DEVICES", "PT_WORKER_GPU_PROBE"}) {
    EXPECT_EQ(init_env.contains(variable) ? init_env.at(variable) : "",
              worker_env.contains(variable) ? worker_env.at(variable) : "")
        << variable;
  }
  // It writes the registration where the worker reads it.
  std::map<std::string, std::string> init_mounts;
  for (const YAML::Node& mount : init["volumeMounts"])
    init_mounts[mount["name"].Scalar()] = mount["mountPath"].Scalar();
  for (const YAML::Node& mount : worker["volumeMounts"]) {
    if (mount["name"].Scalar() == "state") {
      EXPECT_EQ(init_mounts["state"], mount["mountPath"].Scalar());
    }
  }
  EXPECT_FALSE(init["securityContext"]["allowPrivilegeEscalation"].as<bool>());
  EXPECT_EQ(init["securityContext"]["capabilities"]["drop"][0].as<std::string>(), "ALL");
}

TEST(WorkerManifests, TheWorkerRunsUnprivilegedAndWaitsForItsJobsOnStop) {
  const YAML::Node pod = Find("StatefulSet").node["spec"]["template"]["spec"];
  EXPECT_TRUE(pod["securityContext"]["runAsNonRoot"].as<bool>());
  EXPECT_FALSE(pod["containers"][0]["securityContext"]["allowPrivilegeEscalation"].as<bool>());
  EXPECT_EQ(pod["containers"][0]["securityContext"]["capabilities"]["drop"][0].as<std::string>(),
            "ALL");
  EXPECT_GE(pod["terminationGracePeriodSeconds"].as<int>(), 1800);
}

// The lines of a systemd unit of deploy/worker/systemd, continuation lines joined.
std::vector<std::string> UnitLines(const std::string& name) {
  std::ifstream file(kWorker / "systemd" / name);
  EXPECT_TRUE(file) << name;
  std::vector<std::string> lines;
  std::string line;
  bool continued = false;
  while (std::getline(file, line)) {
    if (continued) {
      lines.back() += line;
    } else if (!line.empty() && line[0] != '#') {
      lines.push_back(line);
    }
    continued = !line.empty() && line.back() == '\\' && !lines.empty();
  }
  return lines;
}

// The values of a unit's KEY= lines.
std::vector<std::string> UnitValues(const std::vector<std::string>& lines, const std::string& key) {
  std::vector<std::string> values;
  for (const std::string& line : lines) {
    if (line.starts_with(key + "=")) values.push_back(line.substr(key.size() + 1));
  }
  return values;
}

TEST(WorkerSystemdUnits, OnlyTheOneshotRegisterUnitLoadsTheRegistrationToken) {
  const std::vector<std::string> worker = UnitLines("media-worker@.service");
  const std::vector<std::string> registers = UnitLines("media-worker-register@.service");
  for (const std::string& line : worker)
    EXPECT_EQ(line.find("registration-token"), std::string::npos) << line;
  EXPECT_EQ(UnitValues(registers, "Type"), std::vector<std::string>{"oneshot"});
  EXPECT_EQ(UnitValues(registers, "LoadCredential"),
            std::vector<std::string>{"registration-token:/etc/media-worker/%i.registration-token"});
  const std::vector<std::string> start = UnitValues(registers, "ExecStart");
  ASSERT_EQ(start.size(), 1u);
  EXPECT_NE(start[0].find(" worker register "), std::string::npos) << start[0];
  EXPECT_NE(start[0].find("--registration-token-file ${CREDENTIALS_DIRECTORY}/registration-token"),
            std::string::npos)
      << start[0];
}

TEST(WorkerSystemdUnits, TheWorkerRequiresTheRegistrationAndSharesItsUserStateAndSettings) {
  const std::vector<std::string> worker = UnitLines("media-worker@.service");
  const std::vector<std::string> registers = UnitLines("media-worker-register@.service");
  EXPECT_EQ(UnitValues(worker, "Requires"),
            std::vector<std::string>{"media-worker-register@%i.service"});
  ASSERT_EQ(UnitValues(worker, "After").size(), 1u);
  EXPECT_NE(UnitValues(worker, "After")[0].find("media-worker-register@%i.service"),
            std::string::npos);
  for (const char* key : {"DynamicUser", "User", "StateDirectory", "EnvironmentFile"}) {
    EXPECT_FALSE(UnitValues(worker, key).empty()) << key;
    EXPECT_EQ(UnitValues(worker, key), UnitValues(registers, key)) << key;
  }
  // The options that name the runner and place its registration: the same in both.
  const std::string run = UnitValues(worker, "ExecStart").at(0);
  const std::string registering = UnitValues(registers, "ExecStart").at(0);
  for (const char* option :
       {"--gpu %i", "--state-dir ${STATE_DIRECTORY}", "--url ${PEERTUBE_URL}"}) {
    EXPECT_NE(run.find(option), std::string::npos) << option;
    EXPECT_NE(registering.find(option), std::string::npos) << option;
  }
}

}  // namespace
}  // namespace mc::deploy_test
