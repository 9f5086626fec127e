#include "dra/plugin/registration_service.h"

#include <utility>

#include "dra/plugin/grpc_methods.h"
#include "kubelet/pluginregistration/v1/api.pb.h"

namespace mc::dra {
namespace {

// The plugin type the kubelet routes to its DRA manager.
// See pluginregistration's constants.go.
constexpr const char* kDraPluginType = "DRAPlugin";
constexpr const char* kService = "/pluginregistration.Registration/";

}  // namespace

std::vector<Method> RegistrationMethods(RegistrationInfo info, PluginLog log,
                                        std::atomic<bool>* registered) {
  auto get_info = [info](const pluginregistration::InfoRequest&,
                         pluginregistration::PluginInfo& reply) {
    reply.set_type(kDraPluginType);
    reply.set_name(info.driver_name);
    reply.set_endpoint(info.endpoint);
    for (const std::string& version : info.supported_versions)
      reply.add_supported_versions(version);
  };
  // A rejection means pods with our claims never start on this node.
  // So it is logged with the kubelet's reason, not only counted.
  auto notify = [info, log = std::move(log), registered](
                    const pluginregistration::RegistrationStatus& status,
                    pluginregistration::RegistrationStatusResponse&) {
    registered->store(status.plugin_registered());
    if (!log) return;
    if (status.plugin_registered()) {
      log("plugin: the kubelet registered " + info.driver_name + " at " + info.endpoint);
    } else {
      log("plugin: ERROR: the kubelet rejected the registration of " + info.driver_name + ": " +
          status.error());
    }
  };
  return {UnaryMethod<pluginregistration::InfoRequest, pluginregistration::PluginInfo>(
              std::string(kService) + "GetInfo", std::move(get_info)),
          UnaryMethod<pluginregistration::RegistrationStatus,
                      pluginregistration::RegistrationStatusResponse>(
              std::string(kService) + "NotifyRegistrationStatus", std::move(notify))};
}

}  // namespace mc::dra
