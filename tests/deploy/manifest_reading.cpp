#include "manifest_reading.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace mc::deploy_test {

namespace fs = std::filesystem;

std::string Manifest::Kind() const { return node["kind"] ? node["kind"].as<std::string>() : ""; }

std::string Manifest::Name() const {
  return node["metadata"] && node["metadata"]["name"] ? node["metadata"]["name"].as<std::string>()
                                                      : "";
}

const fs::path& DeployDir() {
  static const fs::path dir = fs::path(MEDIA_CAP_REPO_DIR) / "deploy";
  return dir;
}

namespace {

std::vector<Manifest> ObjectsOfDocuments(const std::vector<YAML::Node>& documents,
                                         const fs::path& file) {
  std::vector<Manifest> objects;
  for (const YAML::Node& document : documents) {
    if (!document.IsNull()) objects.push_back({file, document});
  }
  return objects;
}

void Append(std::vector<Manifest>& to, const std::vector<Manifest>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

// A path quoted for the shell: inside single quotes, each quote closed, escaped and reopened.
std::string Quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::vector<Manifest> ObjectsOfFile(const fs::path& file) {
  return ObjectsOfDocuments(YAML::LoadAllFromFile(file.string()), file);
}

std::vector<Manifest> ObjectsOfApplication(const fs::path& dir) {
  std::vector<Manifest> objects;
  const YAML::Node kustomization = YAML::LoadFile((dir / "kustomization.yaml").string());
  for (const YAML::Node& resource : kustomization["resources"]) {
    const fs::path file = dir / resource.as<std::string>();
    if (fs::is_regular_file(file)) Append(objects, ObjectsOfFile(file));
  }
  return objects;
}

bool InHelmChart(const fs::path& path) {
  const fs::path relative = path.lexically_relative(DeployDir());
  return !relative.empty() && *relative.begin() == "helm";
}

std::vector<Manifest> ObjectsUnderDeploy() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(DeployDir())) {
    const fs::path& path = entry.path();
    if (entry.is_regular_file() && path.extension() == ".yaml" &&
        path.filename() != "kustomization.yaml" && !InHelmChart(path))
      files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  std::vector<Manifest> objects;
  for (const fs::path& file : files) Append(objects, ObjectsOfFile(file));
  return objects;
}

std::vector<Manifest> OfKind(const std::vector<Manifest>& objects, const std::string& kind) {
  std::vector<Manifest> found;
  for (const Manifest& object : objects) {
    if (object.Kind() == kind) found.push_back(object);
  }
  return found;
}

Manifest Named(const std::vector<Manifest>& objects, const std::string& kind,
               const std::string& name) {
  for (const Manifest& object : objects) {
    if (object.Kind() == kind && object.Name() == name) return object;
  }
  throw std::runtime_error("no " + kind + " named " + name);
}

std::optional<std::string> FindKubectl() {
  if (const char* given = std::getenv("KUBECTL"); given && *given) return std::string(given);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "kubectl";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return std::nullopt;
}

std::vector<Manifest> Render(const std::string& kubectl, const fs::path& dir) {
  const std::string command = Quoted(kubectl) + " kustomize " + Quoted(dir.string()) + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("could not run " + command);
  std::string output;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
  const int status = ::pclose(pipe);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("kubectl kustomize " + dir.string() + " failed: " + output);
  return ObjectsOfDocuments(YAML::LoadAll(output), dir);
}

}  // namespace mc::deploy_test
