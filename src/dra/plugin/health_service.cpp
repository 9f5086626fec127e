#include "dra/plugin/health_service.h"

#include <utility>

#include "common/base/utf8.h"
#include "dra/plugin/grpc_methods.h"
#include "kubelet/dra-health/v1/api.pb.h"
#include "kubelet/dra-health/v1alpha1/api.pb.h"

namespace mc::dra {
namespace {

// The two versions have the same messages under different packages.
// HealthApi names one version's types, so one implementation serves both.
template <const char* Path, class Request, class Response, auto Healthy, auto Unhealthy>
struct HealthApi {
  static constexpr const char* kPath = Path;
  using In = Request;
  using Out = Response;
  static constexpr auto kHealthy = Healthy;
  static constexpr auto kUnhealthy = Unhealthy;
};

constexpr char kPathV1alpha1[] = "/v1alpha1.DRAResourceHealth/NodeWatchResources";
constexpr char kPathV1[] = "/v1.DRAResourceHealth/NodeWatchResources";

using HealthApiV1alpha1 =
    HealthApi<kPathV1alpha1, ::v1alpha1::NodeWatchResourcesRequest,
              ::v1alpha1::NodeWatchResourcesResponse, ::v1alpha1::HEALTHY, ::v1alpha1::UNHEALTHY>;
using HealthApiV1 = HealthApi<kPathV1, ::v1::NodeWatchResourcesRequest,
                              ::v1::NodeWatchResourcesResponse, ::v1::HEALTHY, ::v1::UNHEALTHY>;

// The kubelet cuts longer messages itself.
// Cutting here keeps the cut between characters.
// A proto3 string must be UTF-8, or the kubelet fails the whole message.
// A failure text may come from a driver, so it is made valid first.
constexpr std::size_t kMaxMessage = 1024;

template <class A>
class HealthStream {
 public:
  HealthStream(const HealthBoard& board, HealthStreamSettings settings,
               const std::atomic<bool>& stopping)
      : board_(board), settings_(std::move(settings)), stopping_(stopping) {}

  void Run(StreamWriter<typename A::Out>& writer) const {
    bool sent_once = false;
    std::uint64_t sent_version = 0;
    auto sent_at = std::chrono::steady_clock::now();
    while (!writer.Cancelled() && !stopping_.load()) {
      HealthSnapshot snapshot = board_.Snapshot();
      const auto now = std::chrono::steady_clock::now();
      if (!sent_once || snapshot.version != sent_version ||
          now - sent_at >= settings_.resend_every) {
        // A failed write means the kubelet closed the stream.
        if (!writer.Write(ToResponse(snapshot))) break;
        sent_once = true;
        sent_version = snapshot.version;
        sent_at = now;
      }
      board_.WaitForChange(sent_version, settings_.poll_every);
    }
  }

 private:
  typename A::Out ToResponse(const HealthSnapshot& snapshot) const {
    typename A::Out response;
    const auto unix_seconds = std::chrono::duration_cast<std::chrono::seconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
    for (const auto& [name, health] : snapshot.devices) {
      auto* device = response.add_devices();
      device->mutable_device()->set_pool_name(settings_.pool_name);
      device->mutable_device()->set_device_name(name);
      device->set_health(health.healthy ? A::kHealthy : A::kUnhealthy);
      device->set_last_updated_time(unix_seconds);
      device->set_message(TruncateUtf8(ValidUtf8(health.message), kMaxMessage));
    }
    return response;
  }

  const HealthBoard& board_;
  HealthStreamSettings settings_;
  const std::atomic<bool>& stopping_;
};

template <class A>
Method HealthMethod(const HealthBoard& board, HealthStreamSettings settings,
                    const std::atomic<bool>& stopping) {
  return StreamMethod<typename A::In, typename A::Out>(
      A::kPath, [stream = HealthStream<A>(board, std::move(settings), stopping)](
                    const auto&, auto& writer) { stream.Run(writer); });
}

}  // namespace

Method HealthMethodV1alpha1(const HealthBoard& board, HealthStreamSettings settings,
                            const std::atomic<bool>& stopping) {
  return HealthMethod<HealthApiV1alpha1>(board, std::move(settings), stopping);
}

Method HealthMethodV1(const HealthBoard& board, HealthStreamSettings settings,
                      const std::atomic<bool>& stopping) {
  return HealthMethod<HealthApiV1>(board, std::move(settings), stopping);
}

}  // namespace mc::dra
