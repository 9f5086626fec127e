// The kubelet's DRAResourceHealth service.
// Each kubelet connection gets a stream of the whole HealthBoard.
// It is sent at once and again on every change.
// The stream lasts until the kubelet closes it or the plugin stops.
// Kubelets 1.34 to 1.36 call v1alpha1; 1.37 prefers v1.
#pragma once

#include <atomic>
#include <chrono>
#include <string>

#include "dra/grpc_server/server.h"
#include "dra/plugin/health_board.h"

namespace mc::dra {

struct HealthStreamSettings {
  // The pool every device belongs to.
  // A device's identity is driver, pool and device.
  std::string pool_name;
  // The board is sent again after this long without a change.
  // The kubelet marks a device Unknown after its health timeout (30 s by default).
  // The resend keeps a steady device reported.
  std::chrono::milliseconds resend_every{std::chrono::seconds(10)};
  // How often a waiting stream checks whether the kubelet left or the plugin stops.
  std::chrono::milliseconds poll_every{std::chrono::milliseconds(100)};
};

// NodeWatchResources of each version. `board` and `stopping` outlive the methods.
Method HealthMethodV1alpha1(const HealthBoard& board, HealthStreamSettings settings,
                            const std::atomic<bool>& stopping);
Method HealthMethodV1(const HealthBoard& board, HealthStreamSettings settings,
                      const std::atomic<bool>& stopping);

}  // namespace mc::dra
