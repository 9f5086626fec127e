#include "dra/plugin/kubelet_plugin.h"

#include <algorithm>
#include <utility>

#include "dra/plugin/dra_service.h"
#include "dra/plugin/registration_service.h"
#include "dra/plugin/socket_file.h"

namespace mc::dra {
std::vector<std::string> SupportedVersions() {
  return {"v1.DRAPlugin", "v1beta1.DRAPlugin", "v1.DRAResourceHealth",
          "v1alpha1.DRAResourceHealth"};
}

Result<std::unique_ptr<KubeletPlugin>> KubeletPlugin::Start(const KubeletPluginConfig& config,
                                                            ClaimChecker checker,
                                                            const HealthBoard& board,
                                                            PluginLog log) {
  if (config.driver_name.empty()) return Error{"the kubelet plugin needs a driver name"};
  std::unique_ptr<KubeletPlugin> plugin(new KubeletPlugin());
  // The kubelet dials the endpoint exactly as GetInfo names it.
  // So it must be absolute.
  plugin->plugin_socket_ =
      std::filesystem::absolute(config.plugins_dir / config.driver_name / "dra.sock");
  plugin->registration_socket_ =
      std::filesystem::absolute(config.registry_dir / (config.driver_name + "-reg.sock"));

  for (const auto& socket : {plugin->plugin_socket_, plugin->registration_socket_}) {
    if (Result<void> prepared = PrepareSocketPath(socket); !prepared) return prepared.error();
  }

  std::vector<Method> methods = DraMethodsV1(checker);
  for (Method& method : DraMethodsV1beta1(std::move(checker))) methods.push_back(std::move(method));
  methods.push_back(HealthMethodV1alpha1(board, config.health, plugin->stopping_));
  methods.push_back(HealthMethodV1(board, config.health, plugin->stopping_));
  Result<std::unique_ptr<Server>> plugin_server =
      Server::Listen(plugin->plugin_socket_, std::move(methods));
  if (!plugin_server) return plugin_server.error();
  plugin->plugin_server_ = std::move(plugin_server).value();

  Result<std::unique_ptr<Server>> registration_server = Server::Listen(
      plugin->registration_socket_,
      RegistrationMethods(RegistrationInfo{config.driver_name, plugin->plugin_socket_.string(),
                                           SupportedVersions()},
                          std::move(log), &plugin->registered_));
  if (!registration_server) {
    plugin->Shutdown(std::chrono::milliseconds(0));
    return registration_server.error();
  }
  plugin->registration_server_ = std::move(registration_server).value();
  return plugin;
}

void KubeletPlugin::Shutdown(std::chrono::milliseconds deadline) {
  if (shut_down_) return;
  shut_down_ = true;
  stopping_.store(true);
  const auto until = std::chrono::steady_clock::now() + deadline;
  const auto left = [until] {
    return std::max(std::chrono::milliseconds(0),
                    std::chrono::duration_cast<std::chrono::milliseconds>(
                        until - std::chrono::steady_clock::now()));
  };
  // The registration socket goes first.
  // So the kubelet stops routing to the plugin before its endpoint closes.
  // A socket is removed only when this plugin served it.
  // A failed start may have found someone else's file at the path.
  if (registration_server_) {
    registration_server_->Shutdown(left());
    RemoveSocket(registration_socket_);
  }
  if (plugin_server_) {
    plugin_server_->Shutdown(left());
    RemoveSocket(plugin_socket_);
  }
}

KubeletPlugin::~KubeletPlugin() { Shutdown(std::chrono::milliseconds(0)); }

}  // namespace mc::dra
