#include "plugin/kubelet_plugin.h"

#include <utility>

#include "plugin/dra_service.h"
#include "plugin/registration_service.h"
#include "plugin/socket_file.h"

namespace mc::plugin {
namespace {

// ServeOn starts a server with `services` on the unix socket `socket`; when it returns
// a server, the socket is listening.
std::unique_ptr<grpc::Server> ServeOn(const std::filesystem::path& socket,
                                      const std::vector<grpc::Service*>& services) {
  grpc::ServerBuilder builder;
  builder.AddListeningPort("unix:" + socket.string(), grpc::InsecureServerCredentials());
  for (grpc::Service* service : services) builder.RegisterService(service);
  return builder.BuildAndStart();
}

}  // namespace

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
  // The kubelet dials the endpoint exactly as GetInfo names it, so it must be absolute.
  plugin->plugin_socket_ =
      std::filesystem::absolute(config.plugins_dir / config.driver_name / "dra.sock");
  plugin->registration_socket_ =
      std::filesystem::absolute(config.registry_dir / (config.driver_name + "-reg.sock"));

  for (const auto& socket : {plugin->plugin_socket_, plugin->registration_socket_}) {
    if (Result<void> prepared = PrepareSocketPath(socket); !prepared) return prepared.failure();
  }

  auto& services = plugin->services_;
  services.push_back(MakeDraServiceV1(checker));
  services.push_back(MakeDraServiceV1beta1(std::move(checker)));
  services.push_back(MakeHealthServiceV1alpha1(board, config.health, plugin->stopping_));
  services.push_back(MakeHealthServiceV1(board, config.health, plugin->stopping_));
  plugin->plugin_server_ = ServeOn(plugin->plugin_socket_, {services[0].get(), services[1].get(),
                                                            services[2].get(), services[3].get()});
  if (!plugin->plugin_server_)
    return Error{"could not listen on " + plugin->plugin_socket_.string()};

  services.push_back(MakeRegistrationService(
      RegistrationInfo{config.driver_name, plugin->plugin_socket_.string(), SupportedVersions()},
      std::move(log), &plugin->registered_));
  plugin->registration_server_ = ServeOn(plugin->registration_socket_, {services[4].get()});
  if (!plugin->registration_server_) {
    plugin->Shutdown(std::chrono::milliseconds(0));
    return Error{"could not listen on " + plugin->registration_socket_.string()};
  }
  return plugin;
}

void KubeletPlugin::Shutdown(std::chrono::milliseconds deadline) {
  if (shut_down_) return;
  shut_down_ = true;
  stopping_.store(true);
  const auto until = std::chrono::system_clock::now() + deadline;
  // The registration socket goes first, so the kubelet stops routing to a plugin that is
  // going away before its endpoint closes.
  // A socket is removed only when this plugin served it: a start that failed may have
  // found someone else's file at the path.
  if (registration_server_) {
    registration_server_->Shutdown(until);
    RemoveSocket(registration_socket_);
  }
  if (plugin_server_) {
    plugin_server_->Shutdown(until);
    RemoveSocket(plugin_socket_);
  }
}

KubeletPlugin::~KubeletPlugin() { Shutdown(std::chrono::milliseconds(0)); }

}  // namespace mc::plugin
