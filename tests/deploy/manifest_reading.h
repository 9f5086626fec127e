// Reading the manifests of deploy/ for the tests beside this file: the objects of a file or of
// an application's kustomization, and an overlay rendered by `kubectl kustomize` where kubectl
// is installed (KUBECTL names another one).
#pragma once

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mc::deploy_test {

// One object of a manifest, with the file it came from.
struct Manifest {
  std::filesystem::path file;
  YAML::Node node;

  std::string Kind() const;
  std::string Name() const;
};

const std::filesystem::path& DeployDir();

// Whether `path` lies in the Helm chart, deploy/helm/: its templates are no manifests until Helm
// renders them (tools/render-deploy renders them into the folders these tests read).
bool InHelmChart(const std::filesystem::path& path);

// Every non-empty document of a file.
std::vector<Manifest> ObjectsOfFile(const std::filesystem::path& file);

// The objects of the files an application's kustomization.yaml lists (not its folders).
std::vector<Manifest> ObjectsOfApplication(const std::filesystem::path& dir);

// Every object of every YAML file under deploy/, kustomization files left out.
std::vector<Manifest> ObjectsUnderDeploy();

std::vector<Manifest> OfKind(const std::vector<Manifest>& objects, const std::string& kind);

// The one object of that kind and name; the test fails (throws) without it.
Manifest Named(const std::vector<Manifest>& objects, const std::string& kind,
               const std::string& name);

// The kubectl to render with: $KUBECTL, else kubectl on PATH; none where neither is found.
std::optional<std::string> FindKubectl();

// What `kubectl kustomize DIR` printed, as objects; throws with kubectl's words on failure.
std::vector<Manifest> Render(const std::string& kubectl, const std::filesystem::path& dir);

}  // namespace mc::deploy_test
