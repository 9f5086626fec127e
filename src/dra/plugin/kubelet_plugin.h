// KubeletPlugin is the driver's side of the kubelet's DRA plugin protocol:
//  - the DRA and health services on <plugins-dir>/<driver>/dra.sock;
//  - the registration service on <registry-dir>/<driver>-reg.sock.
// The registration socket is what makes the kubelet find the plugin.
//
// The plugin socket listens before the registration socket is created.
// The kubelet dials the endpoint as soon as it sees the registration socket.
// So it never finds the endpoint missing.
// Shutdown removes both sockets, the registration one first.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/base/result.h"
#include "dra/grpc_server/server.h"
#include "dra/plugin/claim_checker.h"
#include "dra/plugin/health_board.h"
#include "dra/plugin/health_service.h"

namespace mc::dra {

struct KubeletPluginConfig {
  std::string driver_name;
  // The kubelet's plugin directory (/var/lib/kubelet/plugins on a node).
  // The DRA socket is <plugins_dir>/<driver_name>/dra.sock.
  std::filesystem::path plugins_dir;
  // The kubelet's registration directory (/var/lib/kubelet/plugins_registry on a node).
  std::filesystem::path registry_dir;
  HealthStreamSettings health;
};

// The registration strings of the services the plugin serves.
// They are in the kubelet's order of preference.
// A kubelet takes the first DRAPlugin version it knows.
std::vector<std::string> SupportedVersions();

class KubeletPlugin {
 public:
  // Start serves until Shutdown. `board` must outlive the plugin.
  static Result<std::unique_ptr<KubeletPlugin>> Start(const KubeletPluginConfig& config,
                                                      ClaimChecker checker,
                                                      const HealthBoard& board, PluginLog log);
  ~KubeletPlugin();
  KubeletPlugin(const KubeletPlugin&) = delete;
  KubeletPlugin& operator=(const KubeletPlugin&) = delete;

  const std::filesystem::path& plugin_socket() const { return plugin_socket_; }
  const std::filesystem::path& registration_socket() const { return registration_socket_; }
  // Whether the kubelet's last NotifyRegistrationStatus accepted the plugin.
  bool registered() const { return registered_.load(); }

  // Shutdown ends the health streams.
  // Calls in flight may finish until `deadline`; the rest are cancelled.
  // Then it removes the sockets. A second call does nothing.
  void Shutdown(std::chrono::milliseconds deadline);

 private:
  KubeletPlugin() = default;

  std::filesystem::path plugin_socket_;
  std::filesystem::path registration_socket_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> registered_{false};
  bool shut_down_ = false;
  std::unique_ptr<Server> plugin_server_;
  std::unique_ptr<Server> registration_server_;
};

}  // namespace mc::dra
