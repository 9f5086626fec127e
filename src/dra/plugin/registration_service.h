// The kubelet's Registration service on the registration socket.
// The kubelet's plugin watcher finds the socket.
// It asks GetInfo who we are and where the DRA service listens.
// It reports with NotifyRegistrationStatus whether it accepted us.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "dra/grpc_server/server.h"
#include "dra/plugin/claim_checker.h"

namespace mc::dra {

struct RegistrationInfo {
  std::string driver_name;
  // The absolute path of the DRA socket.
  std::string endpoint;
  std::vector<std::string> supported_versions;
};

// GetInfo and NotifyRegistrationStatus.
// `registered` holds the kubelet's last verdict; it outlives the methods.
std::vector<Method> RegistrationMethods(RegistrationInfo info, PluginLog log,
                                        std::atomic<bool>* registered);

}  // namespace mc::dra
