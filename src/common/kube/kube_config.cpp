// Reading a kubeconfig. The current context names a cluster and a user. Each is found by name in
// its list. Only what a client of a plain API server needs is taken. Some settings change where or
// as whom the client connects. One it cannot honour is an error, never silently dropped. Examples:
// exec plugins, auth providers, proxies.
#include "common/kube/kube_config.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <exception>

#include "common/base/base64.h"
#include "common/base/read_file.h"

namespace mc::kube {
namespace {

// KubeconfigReader keeps what the errors need:
// - the file's name, or "kubeconfig" for text given directly;
// - the directory that relative names are taken from.
class KubeconfigReader {
 public:
  KubeconfigReader(std::string source, std::filesystem::path base_dir)
      : source_(std::move(source)), base_dir_(std::move(base_dir)) {}

  Result<KubeConfig> Read(std::string_view yaml_text);

 private:
  Error Fail(const std::string& what) const { return InvalidInput(source_ + ": " + what); }

  // Entry finds the member `field` (such as "cluster") in list `list_name`. It takes the element
  // whose `name` is `name`. With none, it is an error naming `wanted_by`. An absent or null member
  // is an empty map, as client-go reads it.
  Result<YAML::Node> Entry(const YAML::Node& root, const char* list_name, const char* field,
                           const std::string& name, const std::string& wanted_by) const;
  // String reads an optional scalar member. Absent or null gives empty.
  Result<std::string> String(const YAML::Node& map, const char* field,
                             const std::string& where) const;
  // Secret reads a PEM blob. It comes inline as `<field>-data` (base64), or from the file named by
  // `<field>`. Inline wins, as in client-go.
  Result<std::string> Secret(const YAML::Node& map, const std::string& field,
                             const std::string& where) const;
  std::filesystem::path Resolve(const std::string& name) const;

  Result<void> ReadCluster(const YAML::Node& cluster, const std::string& where,
                           KubeConfig& config) const;
  Result<void> ReadUser(const YAML::Node& user, const std::string& where, KubeConfig& config) const;

  std::string source_;
  std::filesystem::path base_dir_;
};

std::string Quoted(const std::string& name) { return "\"" + name + "\""; }

Result<YAML::Node> KubeconfigReader::Entry(const YAML::Node& root, const char* list_name,
                                           const char* field, const std::string& name,
                                           const std::string& wanted_by) const {
  const YAML::Node list = root[list_name];
  const std::string missing =
      wanted_by + " names " + field + " " + Quoted(name) + ", which the file does not hold";
  if (!list || list.IsNull()) return Fail(missing);
  if (!list.IsSequence()) return Fail(std::string(list_name) + ": expected a list");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const YAML::Node entry = list[i];
    if (!entry.IsMap())
      return Fail(std::string(list_name) + "[" + std::to_string(i) + "]: expected a map");
    const YAML::Node entry_name = entry["name"];
    if (!entry_name || !entry_name.IsScalar() || entry_name.Scalar() != name) continue;
    const YAML::Node body = entry[field];
    const std::string where = std::string(field) + " " + Quoted(name);
    if (!body || body.IsNull()) return YAML::Node(YAML::NodeType::Map);
    if (!body.IsMap()) return Fail(where + ": expected a map");
    return body;
  }
  return Fail(missing);
}

Result<std::string> KubeconfigReader::String(const YAML::Node& map, const char* field,
                                             const std::string& where) const {
  const YAML::Node value = map[field];
  if (!value || value.IsNull()) return std::string();
  if (!value.IsScalar())
    return Fail((where.empty() ? "" : where + ": ") + field + ": expected a string");
  return value.Scalar();
}

std::filesystem::path KubeconfigReader::Resolve(const std::string& name) const {
  const std::filesystem::path path(name);
  return path.is_absolute() ? path : base_dir_ / path;
}

Result<std::string> KubeconfigReader::Secret(const YAML::Node& map, const std::string& field,
                                             const std::string& where) const {
  const std::string data_field = field + "-data";
  Result<std::string> data = String(map, data_field.c_str(), where);
  if (!data) return data;
  if (!data->empty()) {
    Result<std::string> decoded = DecodeBase64(*data);
    if (!decoded) return Fail(where + ": " + data_field + ": " + decoded.error_message());
    return decoded;
  }
  Result<std::string> file = String(map, field.c_str(), where);
  if (!file || file->empty()) return file;
  Result<std::string> text = ReadFileText(Resolve(*file));
  if (!text) return Fail(where + ": " + field + ": cannot read " + text.error_message());
  return text;
}

Result<void> KubeconfigReader::ReadCluster(const YAML::Node& cluster, const std::string& where,
                                           KubeConfig& config) const {
  Result<std::string> server = String(cluster, "server", where);
  if (!server) return server.error();
  if (server->empty()) return Fail(where + ": server is not set");
  // client-go takes a server without a scheme as https. A trailing slash would double each target's
  // first slash.
  config.server = server->find("://") == std::string::npos ? "https://" + *server : *server;
  if (config.server.rfind("https://", 0) != 0 && config.server.rfind("http://", 0) != 0) {
    return Fail(where + ": server " + Quoted(*server) + ": expected an http or https URL");
  }
  while (config.server.ends_with('/')) config.server.pop_back();
  // "https://" alone, or with slashes only, names no host. Trimming its slashes would leave
  // "https:", which no client can take. The fuzz target found this.
  if (config.server.find("://") == std::string::npos || config.server.ends_with("://")) {
    return Fail(where + ": server " + Quoted(*server) + " names no host");
  }

  Result<std::string> ca = Secret(cluster, "certificate-authority", where);
  if (!ca) return ca.error();
  config.ca_pem = std::move(ca).value();

  if (const YAML::Node insecure = cluster["insecure-skip-tls-verify"];
      insecure && !insecure.IsNull()) {
    bool value = false;
    if (!insecure.IsScalar() || !YAML::convert<bool>::decode(insecure, value)) {
      return Fail(where + ": insecure-skip-tls-verify: expected true or false");
    }
    config.insecure_skip_tls_verify = value;
  }
  // A CA beside the flag that skips checking it is a contradiction. client-go refuses it rather
  // than guess.
  if (config.insecure_skip_tls_verify && !config.ca_pem.empty()) {
    return Fail(where +
                ": insecure-skip-tls-verify and a certificate authority together: specifying a "
                "root certificates file with the insecure flag is not allowed");
  }
  for (const char* unsupported : {"proxy-url", "tls-server-name"}) {
    Result<std::string> value = String(cluster, unsupported, where);
    if (!value) return value.error();
    if (!value->empty()) return Fail(where + ": " + unsupported + " is not supported");
  }
  return Ok();
}

Result<void> KubeconfigReader::ReadUser(const YAML::Node& user, const std::string& where,
                                        KubeConfig& config) const {
  if (user["exec"] && !user["exec"].IsNull()) {
    return Fail(where +
                ": exec credential plugins are not supported; use a token, a token file or a "
                "client certificate");
  }
  if (user["auth-provider"] && !user["auth-provider"].IsNull()) {
    return Fail(
        where +
        ": auth-provider is not supported; use a token, a token file or a client certificate");
  }
  for (const char* unsupported : {"username", "password", "as", "as-uid"}) {
    Result<std::string> value = String(user, unsupported, where);
    if (!value) return value.error();
    if (!value->empty()) return Fail(where + ": " + unsupported + " is not supported");
  }

  Result<std::string> token = String(user, "token", where);
  if (!token) return token.error();
  config.token = std::move(token).value();
  Result<std::string> token_file = String(user, "tokenFile", where);
  if (!token_file) return token_file.error();
  if (!token_file->empty()) config.token_file = Resolve(*token_file);

  Result<std::string> cert = Secret(user, "client-certificate", where);
  if (!cert) return cert.error();
  Result<std::string> key = Secret(user, "client-key", where);
  if (!key) return key.error();
  if (cert->empty() != key->empty()) {
    return Fail(where + ": " +
                (cert->empty() ? "client-key is set without client-certificate"
                               : "client-certificate is set without client-key"));
  }
  config.client_cert_pem = std::move(cert).value();
  config.client_key_pem = std::move(key).value();
  return Ok();
}

Result<KubeConfig> KubeconfigReader::Read(std::string_view yaml_text) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::Exception& error) {
    const std::string at =
        error.mark.is_null() ? "" : " (line " + std::to_string(error.mark.line + 1) + ")";
    return Fail("not valid YAML: " + error.msg + at);
  }
  if (!root.IsMap()) return Fail("expected a map at the top");

  Result<std::string> context_name = String(root, "current-context", "");
  if (!context_name) return context_name.error();
  if (context_name->empty()) return Fail("current-context is not set");

  Result<YAML::Node> context = Entry(root, "contexts", "context", *context_name, "current-context");
  if (!context) return context.error();
  const std::string context_where = "context " + Quoted(*context_name);
  Result<std::string> cluster_name = String(*context, "cluster", context_where);
  if (!cluster_name) return cluster_name.error();
  if (cluster_name->empty()) return Fail(context_where + ": cluster is not set");
  Result<std::string> user_name = String(*context, "user", context_where);
  if (!user_name) return user_name.error();

  KubeConfig config;
  Result<YAML::Node> cluster = Entry(root, "clusters", "cluster", *cluster_name, context_where);
  if (!cluster) return cluster.error();
  if (Result<void> read = ReadCluster(*cluster, "cluster " + Quoted(*cluster_name), config);
      !read) {
    return read.error();
  }
  // A context without a user is anonymous. An API server may allow that for /version.
  if (!user_name->empty()) {
    Result<YAML::Node> user = Entry(root, "users", "user", *user_name, context_where);
    if (!user) return user.error();
    if (Result<void> read = ReadUser(*user, "user " + Quoted(*user_name), config); !read) {
      return read.error();
    }
  }
  return config;
}

}  // namespace

Result<KubeConfig> ParseKubeconfig(std::string_view yaml_text,
                                   const std::filesystem::path& base_dir) {
  // yaml-cpp reports through exceptions. A conversion deep inside may throw one nobody foresaw.
  // None may leave the module.
  try {
    return KubeconfigReader("kubeconfig", base_dir).Read(yaml_text);
  } catch (const std::exception& error) {
    return InvalidInput(std::string("kubeconfig: ") + error.what());
  }
}

Result<KubeConfig> LoadKubeconfig(const std::filesystem::path& path) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return InvalidInput("kubeconfig " + text.error_message());
  std::filesystem::path base_dir = path.parent_path();
  if (base_dir.empty()) base_dir = ".";
  try {
    return KubeconfigReader("kubeconfig " + path.string(), base_dir).Read(*text);
  } catch (const std::exception& error) {
    return InvalidInput("kubeconfig " + path.string() + ": " + error.what());
  }
}

Environment ProcessEnvironment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (!value) return std::nullopt;
    return std::string(value);
  };
}

}  // namespace mc::kube
