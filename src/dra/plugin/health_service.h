// The kubelet's DRAResourceHealth service: a stream per kubelet connection that sends the
// whole HealthBoard at once and again on every change, until the kubelet closes it or the
// plugin stops. v1alpha1 is what kubelets 1.34 to 1.36 call; v1 is what 1.37 prefers.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "dra/grpc_server/server.h"
#include "dra/plugin/health_board.h"

namespace mc::dra {

struct HealthStreamSettings {
  // The pool every device belongs to (the devices' identity is driver, pool, device).
  std::string pool_name;
  // The board is sent again after this long without a change, so the kubelet, which marks
  // a device Unknown when it hears nothing of it for its health timeout (30 s by default),
  // keeps seeing a steady device as reported.
  std::chrono::milliseconds resend_every{std::chrono::seconds(10)};
  // How often a stream waiting for a change looks whether the kubelet left or the plugin
  // is stopping.
  std::chrono::milliseconds poll_every{std::chrono::milliseconds(100)};
};

// NodeWatchResources of each version. `board` and `stopping` outlive the methods.
Method HealthMethodV1alpha1(const HealthBoard& board, HealthStreamSettings settings,
                            const std::atomic<bool>& stopping);
Method HealthMethodV1(const HealthBoard& board, HealthStreamSettings settings,
                      const std::atomic<bool>& stopping);

}  // namespace mc::dra
