// The NetworkPolicies of deploy/, read as the cluster reads them: the policies that select a
// pod add up, and a pod selected by a policy of a direction may use only what one of them
// allows in that direction. A worker reaches PeerTube and DNS alone; the pool manager PeerTube,
// its workers, DNS and the API server; the agent the API server alone; scrapers come only from
// namespaces listed by name. check-against-apiserver holds the same files to a real apiserver.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <yaml-cpp/yaml.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "manifest_reading.h"

namespace mc::deploy_test::network_policies {
namespace {

namespace fs = std::filesystem;

constexpr char kNamespaceName[] = "kubernetes.io/metadata.name";
constexpr char kScraperLabel[] = "media-capabilities.io/scraper";
constexpr char kMetadataService[] = "169.254.169.254";
constexpr char kMetadataServiceV6[] = "fd00:ec2::254";

const fs::path kWorker = DeployDir() / "worker";
const fs::path kPool = DeployDir() / "pool";

// A pod of a workload: its namespace and the labels of its template.
struct Pod {
  std::string ns;
  YAML::Node labels;
};

Pod PodOf(const fs::path& application, const std::string& kind) {
  const std::vector<Manifest> workloads = OfKind(ObjectsOfApplication(application), kind);
  if (workloads.size() != 1) throw std::runtime_error(application.string() + ": not one " + kind);
  const YAML::Node workload = workloads[0].node;
  return {workload["metadata"]["namespace"].as<std::string>(),
          workload["spec"]["template"]["metadata"]["labels"]};
}

Pod Agent() { return PodOf(DeployDir(), "DaemonSet"); }
Pod Worker() { return PodOf(kWorker, "StatefulSet"); }
Pod Manager() { return PodOf(kPool, "Deployment"); }

std::string Label(const YAML::Node& labels, const std::string& key) {
  return labels && labels[key] ? labels[key].as<std::string>() : "";
}

bool SelectsLabels(const YAML::Node& selector, const YAML::Node& labels) {
  EXPECT_FALSE(selector["matchExpressions"]) << "these tests read matchLabels alone";
  for (const auto& label : selector["matchLabels"]) {
    if (Label(labels, label.first.as<std::string>()) != label.second.as<std::string>())
      return false;
  }
  return true;
}

// The policies of the pod's namespace that select it, from every file under deploy/.
std::vector<Manifest> PoliciesOf(const Pod& pod) {
  std::vector<Manifest> selecting;
  for (const Manifest& policy : OfKind(ObjectsUnderDeploy(), "NetworkPolicy")) {
    if (policy.node["metadata"]["namespace"].as<std::string>() == pod.ns &&
        SelectsLabels(policy.node["spec"]["podSelector"], pod.labels))
      selecting.push_back(policy);
  }
  return selecting;
}

// One rule of one direction: its peers and its ports as "TCP/443".
struct Rule {
  std::string policy;
  YAML::Node peers;
  std::set<std::string> ports;
};

std::set<std::string> PortsOf(const YAML::Node& rule) {
  std::set<std::string> ports;
  for (const YAML::Node& port : rule["ports"]) {
    const std::string protocol = port["protocol"] ? port["protocol"].as<std::string>() : "TCP";
    ports.insert(protocol + "/" + port["port"].as<std::string>());
  }
  return ports;
}

// The rules of `direction` ("ingress" or "egress") in every policy given.
std::vector<Rule> RulesOf(const std::vector<Manifest>& policies, const std::string& direction) {
  const std::string peers = direction == "ingress" ? "from" : "to";
  std::vector<Rule> rules;
  for (const Manifest& policy : policies) {
    for (const YAML::Node& rule : policy.node["spec"][direction])
      rules.push_back({policy.Name(), rule[peers], PortsOf(rule)});
  }
  return rules;
}

std::set<std::string> Types(const Manifest& policy) {
  std::set<std::string> types;
  for (const YAML::Node& type : policy.node["spec"]["policyTypes"])
    types.insert(type.as<std::string>());
  return types;
}

// The namespaces a peer's namespaceSelector names one by one; none where it selects otherwise
// (an empty selector selects every namespace).
std::optional<std::set<std::string>> NamedNamespaces(const YAML::Node& peer) {
  const YAML::Node selector = peer["namespaceSelector"];
  if (!selector) return std::nullopt;
  std::set<std::string> names;
  if (selector["matchLabels"]) {
    if (selector["matchLabels"].size() != 1 || !selector["matchLabels"][kNamespaceName])
      return std::nullopt;
    names.insert(selector["matchLabels"][kNamespaceName].as<std::string>());
  }
  for (const YAML::Node& expression : selector["matchExpressions"]) {
    if (expression["key"].as<std::string>() != kNamespaceName ||
        expression["operator"].as<std::string>() != "In")
      return std::nullopt;
    for (const YAML::Node& value : expression["values"]) names.insert(value.as<std::string>());
  }
  if (names.empty()) return std::nullopt;
  return names;
}

bool IsScraper(const YAML::Node& peer) {
  return peer["podSelector"] && Label(peer["podSelector"]["matchLabels"], kScraperLabel) == "true";
}

bool IsKubeDns(const YAML::Node& peer) {
  const std::optional<std::set<std::string>> namespaces = NamedNamespaces(peer);
  return namespaces == std::set<std::string>{"kube-system"} && peer["podSelector"] &&
         Label(peer["podSelector"]["matchLabels"], "k8s-app") == "kube-dns";
}

// Whether a CIDR holds an address, both IPv4 or both IPv6.
bool Covers(const std::string& cidr, const std::string& address) {
  const size_t slash = cidr.find('/');
  const std::string network = cidr.substr(0, slash);
  const int prefix = std::stoi(cidr.substr(slash + 1));
  const int family = network.find(':') == std::string::npos ? AF_INET : AF_INET6;
  if ((address.find(':') == std::string::npos) != (family == AF_INET)) return false;
  std::array<unsigned char, 16> a{}, b{};
  if (inet_pton(family, network.c_str(), a.data()) != 1 ||
      inet_pton(family, address.c_str(), b.data()) != 1)
    throw std::runtime_error("not an address: " + cidr + " or " + address);
  for (int bit = 0; bit < prefix; ++bit) {
    const unsigned char mask = static_cast<unsigned char>(0x80 >> (bit % 8));
    if ((a[bit / 8] & mask) != (b[bit / 8] & mask)) return false;
  }
  return true;
}

// Whether a peer lets a pod reach `address`: an ipBlock holding it and no exception that does.
bool ReachesAddress(const YAML::Node& peer, const std::string& address) {
  if (!peer["ipBlock"]) return false;
  if (!Covers(peer["ipBlock"]["cidr"].as<std::string>(), address)) return false;
  for (const YAML::Node& except : peer["ipBlock"]["except"]) {
    if (Covers(except.as<std::string>(), address)) return false;
  }
  return true;
}

// What every egress rule of every policy must hold: named peers, named ports, no path to the
// cloud's metadata service.
void ExpectNarrowEgress(const std::vector<Rule>& rules) {
  for (const Rule& rule : rules) {
    EXPECT_TRUE(rule.peers && rule.peers.size() > 0) << rule.policy << ": a rule to everyone";
    EXPECT_FALSE(rule.ports.empty()) << rule.policy << ": a rule of every port";
    for (const YAML::Node& peer : rule.peers) {
      EXPECT_FALSE(ReachesAddress(peer, kMetadataService)) << rule.policy;
      EXPECT_FALSE(ReachesAddress(peer, kMetadataServiceV6)) << rule.policy;
      if (peer["namespaceSelector"]) {
        EXPECT_TRUE(NamedNamespaces(peer)) << rule.policy << ": namespaces not listed by name";
      }
    }
  }
}

// The policies of a pod, which must isolate both directions.
std::vector<Manifest> IsolatingPoliciesOf(const Pod& pod) {
  const std::vector<Manifest> policies = PoliciesOf(pod);
  EXPECT_FALSE(policies.empty()) << "no NetworkPolicy selects the pods of " << pod.ns;
  for (const Manifest& policy : policies)
    EXPECT_TRUE(Types(policy).contains("Egress")) << policy.Name() << " leaves egress open";
  return policies;
}

// Whether a rule is the one peer (an ipBlock, or a namespace and pod selection) of a policy
// whose name says what the owner sets in it.
bool IsOwnersRule(const Rule& rule, const std::string& suffix) {
  return rule.policy.ends_with(suffix) && rule.peers.size() == 1;
}

TEST(NetworkPolicies, EveryPolicyUnderDeployIsolatesEgressAsWellAsIngress) {
  const std::vector<Manifest> policies = OfKind(ObjectsUnderDeploy(), "NetworkPolicy");
  ASSERT_GE(policies.size(), 3u);
  for (const Manifest& policy : policies) {
    EXPECT_EQ(Types(policy), (std::set<std::string>{"Ingress", "Egress"}))
        << policy.file << ": " << policy.Name();
  }
}

TEST(NetworkPolicies, ScrapersAreAdmittedOnlyFromNamespacesListedByName) {
  size_t scrapers = 0;
  for (const Manifest& policy : OfKind(ObjectsUnderDeploy(), "NetworkPolicy")) {
    for (const Rule& rule : RulesOf({policy}, "ingress")) {
      for (const YAML::Node& peer : rule.peers) {
        if (peer["namespaceSelector"]) {
          EXPECT_TRUE(NamedNamespaces(peer)) << policy.Name() << ": every namespace, or unnamed";
        }
        if (!IsScraper(peer)) continue;
        ++scrapers;
        EXPECT_TRUE(NamedNamespaces(peer)) << policy.Name() << ": scrapers from where?";
      }
    }
  }
  // The agent's, the workers' and the manager's.
  EXPECT_EQ(scrapers, 3u);
}

TEST(AgentNetworkPolicy, TheHealthPortIsOpenOnlyToScrapersOfNamedNamespaces) {
  const std::vector<Manifest> policies = IsolatingPoliciesOf(Agent());
  const YAML::Node daemonset = OfKind(ObjectsOfApplication(DeployDir()), "DaemonSet")[0].node;
  std::set<std::string> listening;
  for (const YAML::Node& port : daemonset["spec"]["template"]["spec"]["containers"][0]["ports"])
    listening.insert("TCP/" + port["containerPort"].as<std::string>());
  ASSERT_EQ(listening, std::set<std::string>{"TCP/8081"});
  const std::vector<Rule> rules = RulesOf(policies, "ingress");
  ASSERT_FALSE(rules.empty()) << "the health port has no rule";
  for (const Rule& rule : rules) {
    EXPECT_EQ(rule.ports, listening) << rule.policy;
    for (const YAML::Node& peer : rule.peers) {
      EXPECT_TRUE(IsScraper(peer)) << rule.policy;
      EXPECT_TRUE(NamedNamespaces(peer)) << rule.policy;
    }
  }
  for (const Manifest& policy : policies) EXPECT_TRUE(Types(policy).contains("Ingress"));
}

TEST(AgentNetworkPolicy, TheAgentReachesTheApiServersPortsAloneAndNeverTheMetadataService) {
  const std::vector<Rule> rules = RulesOf(IsolatingPoliciesOf(Agent()), "egress");
  ASSERT_EQ(rules.size(), 1u) << "the API server alone";
  EXPECT_TRUE(rules[0].policy.ends_with("-to-apiserver")) << rules[0].policy;
  EXPECT_EQ(rules[0].ports, (std::set<std::string>{"TCP/443", "TCP/6443"}));
  ExpectNarrowEgress(rules);
}

TEST(WorkerNetworkPolicy, AWorkerReachesDnsAndPeerTubeAndNothingElse) {
  const std::vector<Rule> rules = RulesOf(IsolatingPoliciesOf(Worker()), "egress");
  ExpectNarrowEgress(rules);
  ASSERT_EQ(rules.size(), 2u) << "DNS and PeerTube";
  size_t dns = 0, peertube = 0;
  for (const Rule& rule : rules) {
    if (rule.peers.size() == 1 && IsKubeDns(rule.peers[0])) {
      ++dns;
      EXPECT_EQ(rule.ports, (std::set<std::string>{"UDP/53", "TCP/53"}));
    } else if (IsOwnersRule(rule, "-to-peertube")) {
      ++peertube;
      EXPECT_EQ(rule.ports, std::set<std::string>{"TCP/443"});
      // Shipped closed: an address reserved for documentation, until the owner sets theirs.
      EXPECT_EQ(rule.peers[0]["ipBlock"]["cidr"].as<std::string>(), "192.0.2.1/32");
    }
  }
  EXPECT_EQ(dns, 1u);
  EXPECT_EQ(peertube, 1u);
}

TEST(WorkerNetworkPolicy, OnlyThePoolManagerReachesTheControlPortAndScrapersTheStatusPort) {
  const std::vector<Rule> rules = RulesOf(IsolatingPoliciesOf(Worker()), "ingress");
  const Pod manager = Manager();
  for (const Rule& rule : rules) {
    for (const YAML::Node& peer : rule.peers) {
      const bool from_manager = !peer["namespaceSelector"] && peer["podSelector"] &&
                                SelectsLabels(peer["podSelector"], manager.labels);
      if (rule.ports.contains("TCP/9466")) {
        EXPECT_TRUE(from_manager) << rule.policy;
      }
      EXPECT_TRUE(from_manager || (IsScraper(peer) && NamedNamespaces(peer))) << rule.policy;
    }
  }
}

TEST(PoolNetworkPolicy, TheManagerReachesItsWorkersDnsPeerTubeAndTheApiServerAlone) {
  const std::vector<Rule> rules = RulesOf(IsolatingPoliciesOf(Manager()), "egress");
  ExpectNarrowEgress(rules);
  const Pod worker = Worker();
  std::set<std::string> reached;
  for (const Rule& rule : rules) {
    const YAML::Node peer = rule.peers.size() == 1 ? rule.peers[0] : YAML::Node();
    if (peer && !peer["namespaceSelector"] && peer["podSelector"] &&
        SelectsLabels(peer["podSelector"], worker.labels)) {
      reached.insert("workers");
      EXPECT_EQ(rule.ports, (std::set<std::string>{"TCP/9464", "TCP/9466"}));
    } else if (peer && IsKubeDns(peer)) {
      reached.insert("dns");
      EXPECT_EQ(rule.ports, (std::set<std::string>{"UDP/53", "TCP/53"}));
    } else if (IsOwnersRule(rule, "-to-peertube")) {
      reached.insert("peertube");
    } else if (rule.policy.ends_with("-to-apiserver")) {
      reached.insert("apiserver");
      EXPECT_EQ(rule.ports, (std::set<std::string>{"TCP/443", "TCP/6443"}));
    } else {
      ADD_FAILURE() << rule.policy << ": a rule to something else";
    }
  }
  EXPECT_EQ(reached, (std::set<std::string>{"workers", "dns", "peertube", "apiserver"}));
  EXPECT_EQ(rules.size(), 4u);
}

// docs/install.md's patches replace the one rule of each policy the owner edits, by name; they
// hold while each such policy keeps that one rule where the patches' paths point.
TEST(NetworkPolicies, EachPartTheOwnerSetsIsAPolicyOfOneRuleThatOnePatchReplaces) {
  std::map<std::string, size_t> owners;
  for (const Manifest& policy : OfKind(ObjectsUnderDeploy(), "NetworkPolicy")) {
    const YAML::Node spec = policy.node["spec"];
    for (const char* suffix : {"-scrapers", "-to-peertube", "-to-apiserver"}) {
      if (!policy.Name().ends_with(suffix)) continue;
      ++owners[suffix];
      const bool ingress = std::string(suffix) == "-scrapers";
      EXPECT_EQ(spec[ingress ? "ingress" : "egress"].size(), 1u) << policy.Name();
      EXPECT_FALSE(spec[ingress ? "egress" : "ingress"]) << policy.Name();
      if (ingress) {
        const YAML::Node values =
            spec["ingress"][0]["from"][0]["namespaceSelector"]["matchExpressions"][0]["values"];
        EXPECT_TRUE(values && values.IsSequence()) << policy.Name();
      } else {
        EXPECT_EQ(spec["egress"][0]["to"].size(),
                  policy.Name().ends_with("-to-apiserver") ? 2u : 1u)
            << policy.Name();
      }
    }
  }
  EXPECT_EQ(owners, (std::map<std::string, size_t>{
                        {"-scrapers", 3}, {"-to-peertube", 2}, {"-to-apiserver", 2}}));
}

TEST(WorkerManifests, TheWorkersPodHoldsNoServiceAccountToken) {
  const YAML::Node statefulset = OfKind(ObjectsOfApplication(kWorker), "StatefulSet")[0].node;
  const YAML::Node pod = statefulset["spec"]["template"]["spec"];
  ASSERT_TRUE(pod["automountServiceAccountToken"]);
  EXPECT_FALSE(pod["automountServiceAccountToken"].as<bool>());
}

// --- The owner's overlay, rendered ------------------------------------------------------------

const fs::path kExampleOverlay = DeployDir() / "overlays" / "example";

std::vector<Manifest> PoliciesEnding(const std::vector<Manifest>& objects,
                                     const std::string& suffix) {
  std::vector<Manifest> found;
  for (const Manifest& policy : OfKind(objects, "NetworkPolicy")) {
    if (policy.Name().ends_with(suffix)) found.push_back(policy);
  }
  return found;
}

// What the example overlay's patches make of each policy the owner edits.
void ExpectTheOwnersValues(const std::vector<Manifest>& rendered, size_t peertube) {
  EXPECT_EQ(PoliciesEnding(rendered, "-to-peertube").size(), peertube);
  for (const Manifest& policy : PoliciesEnding(rendered, "-to-peertube")) {
    const YAML::Node to = policy.node["spec"]["egress"][0]["to"];
    ASSERT_EQ(to.size(), 1u);
    EXPECT_EQ(to[0]["ipBlock"]["cidr"].as<std::string>(), "203.0.113.10/32") << policy.Name();
  }
  EXPECT_EQ(PoliciesEnding(rendered, "-to-apiserver").size(), 1u);
  for (const Manifest& policy : PoliciesEnding(rendered, "-to-apiserver")) {
    const YAML::Node rule = policy.node["spec"]["egress"][0];
    EXPECT_EQ(rule["to"][0]["ipBlock"]["cidr"].as<std::string>(), "198.51.100.10/32");
    EXPECT_EQ(PortsOf(rule), std::set<std::string>{"TCP/6443"});
  }
  EXPECT_FALSE(PoliciesEnding(rendered, "-scrapers").empty());
  for (const Manifest& policy : PoliciesEnding(rendered, "-scrapers")) {
    EXPECT_EQ(NamedNamespaces(policy.node["spec"]["ingress"][0]["from"][0]),
              (std::set<std::string>{"monitoring", "observability"}))
        << policy.Name();
  }
}

TEST(ExampleOverlay, SetsPeerTubeTheApiServerAndTheScrapeNamespacesOfTheWorkersAndTheManager) {
  const std::optional<std::string> kubectl = FindKubectl();
  ASSERT_TRUE(kubectl)
      << "no kubectl on PATH to render the overlay with: install one or set KUBECTL";
  ExpectTheOwnersValues(Render(*kubectl, kExampleOverlay), 2);
}

// The agent's base takes the example's patches in an overlay of its own.
TEST(ExampleOverlay, ItsPatchesSetTheAgentsApiServerAndScrapeNamespacesToo) {
  const std::optional<std::string> kubectl = FindKubectl();
  ASSERT_TRUE(kubectl)
      << "no kubectl on PATH to render the overlay with: install one or set KUBECTL";
  std::string name = (fs::temp_directory_path() / "agent-overlay-XXXXXX").string();
  ASSERT_NE(::mkdtemp(name.data()), nullptr);
  const fs::path dir = name;
  YAML::Node overlay;
  overlay["resources"].push_back(fs::relative(DeployDir(), dir).string());
  overlay["patches"] = YAML::LoadFile((kExampleOverlay / "kustomization.yaml").string())["patches"];
  std::ofstream(dir / "kustomization.yaml") << overlay;
  std::vector<Manifest> rendered;
  try {
    rendered = Render(*kubectl, dir);
  } catch (...) {
    fs::remove_all(dir);
    throw;
  }
  fs::remove_all(dir);
  ExpectTheOwnersValues(rendered, 0);
}

}  // namespace
}  // namespace mc::deploy_test::network_policies
