#include "plugin/registration_service.h"

#include <utility>

#include "kubelet/pluginregistration/v1/api.grpc.pb.h"

namespace mc::plugin {
namespace {

// The plugin type the kubelet routes to its DRA manager (pluginregistration's constants.go).
constexpr const char* kDraPluginType = "DRAPlugin";

class RegistrationService final : public pluginregistration::Registration::Service {
 public:
  RegistrationService(RegistrationInfo info, PluginLog log, std::atomic<bool>* registered)
      : info_(std::move(info)), log_(std::move(log)), registered_(registered) {}

  grpc::Status GetInfo(grpc::ServerContext*, const pluginregistration::InfoRequest*,
                       pluginregistration::PluginInfo* reply) override {
    reply->set_type(kDraPluginType);
    reply->set_name(info_.driver_name);
    reply->set_endpoint(info_.endpoint);
    for (const std::string& version : info_.supported_versions)
      reply->add_supported_versions(version);
    return grpc::Status::OK;
  }

  // A rejection means pods with our claims will never start on this node, so it is logged
  // with the kubelet's reason rather than only counted.
  grpc::Status NotifyRegistrationStatus(grpc::ServerContext*,
                                        const pluginregistration::RegistrationStatus* status,
                                        pluginregistration::RegistrationStatusResponse*) override {
    registered_->store(status->plugin_registered());
    if (!log_) return grpc::Status::OK;
    if (status->plugin_registered()) {
      log_("plugin: the kubelet registered " + info_.driver_name + " at " + info_.endpoint);
    } else {
      log_("plugin: ERROR: the kubelet rejected the registration of " + info_.driver_name + ": " +
           status->error());
    }
    return grpc::Status::OK;
  }

 private:
  RegistrationInfo info_;
  PluginLog log_;
  std::atomic<bool>* registered_;
};

}  // namespace

std::unique_ptr<grpc::Service> MakeRegistrationService(RegistrationInfo info, PluginLog log,
                                                       std::atomic<bool>* registered) {
  return std::make_unique<RegistrationService>(std::move(info), std::move(log), registered);
}

}  // namespace mc::plugin
