// Per-pod control certificates (deploy/worker/cert-manager/, deploy/pool/cert-manager/): each
// worker pod's certificate and key come from cert-manager's csi-driver for the pod's own stable
// name, the name the pool manager checks, and the manager trusts the authority that signs them.
// Without these components every pod mounts one wildcard key, which stays a documented option.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "manifest_reading.h"

namespace mc::deploy_test::control_certificates {
namespace {

namespace fs = std::filesystem;

const fs::path kWorker = DeployDir() / "worker";
const fs::path kPool = DeployDir() / "pool";
const fs::path kWorkerComponent = kWorker / "cert-manager";
const fs::path kPoolComponent = kPool / "cert-manager";
constexpr char kCsiDriver[] = "csi.cert-manager.io";

YAML::Node WorkerStatefulSet() {
  return OfKind(ObjectsOfApplication(kWorker), "StatefulSet").at(0).node;
}

YAML::Node PoolConfig() {
  const YAML::Node map = OfKind(ObjectsOfApplication(kPool), "ConfigMap").at(0).node;
  return YAML::Load(map["data"]["pool.yaml"].as<std::string>());
}

// The value of `--NAME=VALUE` among a container's args, or "" where it has none.
std::string ArgOf(const YAML::Node& container, const std::string& name) {
  for (const YAML::Node& arg : container["args"]) {
    const std::string text = arg.as<std::string>();
    if (text.starts_with("--" + name + "=")) return text.substr(name.size() + 3);
  }
  return "";
}

// The volume of `pod` that its container `container` mounts at the folder holding `file`.
std::string VolumeHolding(const YAML::Node& container, const std::string& file) {
  for (const YAML::Node& mount : container["volumeMounts"]) {
    if (fs::path(file).parent_path() == fs::path(mount["mountPath"].as<std::string>()))
      return mount["name"].as<std::string>();
  }
  return "";
}

YAML::Node VolumeNamed(const YAML::Node& pod, const std::string& name) {
  for (const YAML::Node& volume : pod["volumes"]) {
    if (volume["name"].as<std::string>() == name) return volume;
  }
  return YAML::Node();
}

// A component's own file, and its patch of `kind`.
YAML::Node Component(const fs::path& dir) {
  return YAML::LoadFile((dir / "kustomization.yaml").string());
}

YAML::Node PatchOf(const fs::path& dir, const std::string& kind) {
  for (const YAML::Node& patch : Component(dir)["patches"]) {
    const YAML::Node object = YAML::LoadFile((dir / patch["path"].as<std::string>()).string());
    if (object["kind"].as<std::string>() == kind) return object;
  }
  throw std::runtime_error(dir.string() + " has no patch of a " + kind);
}

std::vector<Manifest> ComponentObjects(const fs::path& dir) {
  std::vector<Manifest> objects;
  for (const YAML::Node& resource : Component(dir)["resources"]) {
    std::vector<Manifest> more = ObjectsOfFile(dir / resource.as<std::string>());
    objects.insert(objects.end(), more.begin(), more.end());
  }
  return objects;
}

// The worker container's control certificate volume as the component makes it.
YAML::Node PatchedControlVolume() {
  const YAML::Node container = WorkerStatefulSet()["spec"]["template"]["spec"]["containers"][0];
  const std::string volume = VolumeHolding(container, ArgOf(container, "control-tls-cert"));
  EXPECT_FALSE(volume.empty()) << "no mount holds --control-tls-cert";
  EXPECT_EQ(volume, VolumeHolding(container, ArgOf(container, "control-tls-key")));
  return VolumeNamed(PatchOf(kWorkerComponent, "StatefulSet")["spec"]["template"]["spec"], volume);
}

TEST(WorkerControlCertificates, TheComponentAsksTheCsiDriverForEachPodsOwnStableName) {
  EXPECT_EQ(Component(kWorkerComponent)["kind"].as<std::string>(), "Component");
  const YAML::Node statefulset = WorkerStatefulSet();
  const YAML::Node patch = PatchOf(kWorkerComponent, "StatefulSet");
  EXPECT_EQ(patch["metadata"]["name"].as<std::string>(),
            statefulset["metadata"]["name"].as<std::string>());
  const YAML::Node volume = PatchedControlVolume();
  ASSERT_TRUE(volume) << "the component does not replace the certificate's volume";
  // The Secret's source is removed, not merged beside the driver's.
  ASSERT_TRUE(volume["secret"]);
  EXPECT_TRUE(volume["secret"].IsNull());
  EXPECT_EQ(volume["csi"]["driver"].as<std::string>(), kCsiDriver);
  EXPECT_TRUE(volume["csi"]["readOnly"].as<bool>());
  const YAML::Node attributes = volume["csi"]["volumeAttributes"];

  // The pool checks POD.STATEFULSET.NAMESPACE.svc; the driver fills in the pod's name and
  // namespace, which is the StatefulSet's.
  const YAML::Node config = PoolConfig()["kubernetes"];
  EXPECT_EQ(config["namespace"].as<std::string>(),
            statefulset["metadata"]["namespace"].as<std::string>());
  EXPECT_EQ(statefulset["spec"]["serviceName"].as<std::string>(),
            config["statefulset"].as<std::string>());
  EXPECT_EQ(attributes["csi.cert-manager.io/dns-names"].as<std::string>(),
            "${POD_NAME}." + config["statefulset"].as<std::string>() + ".${POD_NAMESPACE}.svc");
  EXPECT_NE(attributes["csi.cert-manager.io/key-usages"].as<std::string>().find("server auth"),
            std::string::npos);

  // The files where the worker's options look, readable by the pod's group alone.
  const YAML::Node pod = statefulset["spec"]["template"]["spec"];
  const YAML::Node container = pod["containers"][0];
  EXPECT_EQ(attributes["csi.cert-manager.io/certificate-file"].as<std::string>(),
            fs::path(ArgOf(container, "control-tls-cert")).filename().string());
  EXPECT_EQ(attributes["csi.cert-manager.io/privatekey-file"].as<std::string>(),
            fs::path(ArgOf(container, "control-tls-key")).filename().string());
  EXPECT_EQ(attributes["csi.cert-manager.io/fs-group"].as<std::string>(),
            pod["securityContext"]["runAsGroup"].as<std::string>());

  // Signed by the component's own Issuer, in the workers' namespace.
  EXPECT_EQ(attributes["csi.cert-manager.io/issuer-kind"].as<std::string>(), "Issuer");
  const Manifest issuer = Named(ComponentObjects(kWorkerComponent), "Issuer",
                                attributes["csi.cert-manager.io/issuer-name"].as<std::string>());
  EXPECT_EQ(issuer.node["metadata"]["namespace"].as<std::string>(),
            statefulset["metadata"]["namespace"].as<std::string>());
}

// The Secret of the authority that signs the workers' certificates.
std::string AuthoritySecret() {
  const YAML::Node volume = PatchedControlVolume();
  const std::string name =
      volume["csi"]["volumeAttributes"]["csi.cert-manager.io/issuer-name"].as<std::string>();
  return Named(ComponentObjects(kWorkerComponent), "Issuer", name)
      .node["spec"]["ca"]["secretName"]
      .as<std::string>();
}

TEST(WorkerControlCertificates, TheIssuerSignsWithAnAuthorityOfItsOwn) {
  const std::vector<Manifest> objects = ComponentObjects(kWorkerComponent);
  const std::string secret = AuthoritySecret();
  bool made = false;
  for (const Manifest& certificate : OfKind(objects, "Certificate")) {
    if (certificate.node["spec"]["secretName"].as<std::string>() != secret) continue;
    made = true;
    EXPECT_TRUE(certificate.node["spec"]["isCA"].as<bool>());
    const YAML::Node issuer = certificate.node["spec"]["issuerRef"];
    const Manifest signer = Named(objects, "Issuer", issuer["name"].as<std::string>());
    EXPECT_TRUE(signer.node["spec"]["selfSigned"]) << "the authority signs itself";
  }
  EXPECT_TRUE(made) << "no Certificate makes the Secret " << secret;
}

TEST(PoolControlCertificates, TheManagerTrustsTheAuthorityOfTheWorkersCertificatesNotItsKey) {
  EXPECT_EQ(Component(kPoolComponent)["kind"].as<std::string>(), "Component");
  const YAML::Node patch = PatchOf(kPoolComponent, "Deployment");
  const YAML::Node config = PoolConfig()["kubernetes"];
  const fs::path ca = config["control_ca_file"].as<std::string>();
  const fs::path key = config["control_key_file"].as<std::string>();
  ASSERT_EQ(ca.parent_path(), key.parent_path());
  const YAML::Node deployment = OfKind(ObjectsOfApplication(kPool), "Deployment").at(0).node;
  const std::string name =
      VolumeHolding(deployment["spec"]["template"]["spec"]["containers"][0], ca.string());
  const YAML::Node volume = VolumeNamed(patch["spec"]["template"]["spec"], name);
  ASSERT_TRUE(volume) << "the component does not replace the volume of " << ca;
  ASSERT_TRUE(volume["secret"]);
  EXPECT_TRUE(volume["secret"].IsNull());
  // file -> (Secret, key)
  std::map<std::string, std::pair<std::string, std::string>> files;
  for (const YAML::Node& source : volume["projected"]["sources"]) {
    for (const YAML::Node& item : source["secret"]["items"]) {
      files[item["path"].as<std::string>()] = {source["secret"]["name"].as<std::string>(),
                                               item["key"].as<std::string>()};
    }
  }
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {ca.filename().string(), {AuthoritySecret(), "tls.crt"}},
      {key.filename().string(), {"media-pool-control", "key"}},
  };
  EXPECT_EQ(files, expected);
}

TEST(ExampleOverlay, RendersEachWorkerWithACertificateOfItsOwnAndNoSharedKey) {
  const std::optional<std::string> kubectl = FindKubectl();
  ASSERT_TRUE(kubectl)
      << "no kubectl on PATH to render the overlay with: install one or set KUBECTL";
  const std::vector<Manifest> rendered = Render(*kubectl, DeployDir() / "overlays" / "example");
  const YAML::Node pod = OfKind(rendered, "StatefulSet").at(0).node["spec"]["template"]["spec"];
  const YAML::Node shipped = WorkerStatefulSet()["spec"]["template"]["spec"];
  const std::string volume_name = PatchedControlVolume()["name"].as<std::string>();
  const std::string shared = VolumeNamed(shipped, volume_name)["secret"]["secretName"].Scalar();
  ASSERT_FALSE(shared.empty());
  for (const YAML::Node& volume : pod["volumes"]) {
    if (volume["secret"]) {
      EXPECT_NE(volume["secret"]["secretName"].as<std::string>(), shared) << "the shared key";
    }
  }
  const YAML::Node volume = VolumeNamed(pod, volume_name);
  EXPECT_EQ(volume.size(), 2u) << "a name and one source";
  EXPECT_EQ(volume["csi"]["driver"].as<std::string>(), kCsiDriver);
  Named(rendered, "Issuer",
        volume["csi"]["volumeAttributes"]["csi.cert-manager.io/issuer-name"].as<std::string>());
  const YAML::Node manager = OfKind(rendered, "Deployment").at(0).node["spec"]["template"]["spec"];
  const YAML::Node control = VolumeNamed(manager, "control");
  EXPECT_FALSE(control["secret"]);
  EXPECT_EQ(control["projected"]["sources"][1]["secret"]["name"].as<std::string>(),
            AuthoritySecret());
}

}  // namespace
}  // namespace mc::deploy_test::control_certificates
