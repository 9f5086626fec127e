#include "plugin/health_service.h"

#include <utility>

#include "base/utf8.h"
#include "kubelet/dra-health/v1/api.grpc.pb.h"
#include "kubelet/dra-health/v1alpha1/api.grpc.pb.h"

namespace mc::plugin {
namespace {

// The two versions have the same messages under different packages; Api names one
// version's types so that one implementation serves both.
template <class Service, class Request, class Response, auto Healthy, auto Unhealthy>
struct Api {
  using Base = Service;
  using In = Request;
  using Out = Response;
  static constexpr auto kHealthy = Healthy;
  static constexpr auto kUnhealthy = Unhealthy;
};

using ApiV1alpha1 =
    Api<v1alpha1::DRAResourceHealth::Service, v1alpha1::NodeWatchResourcesRequest,
        v1alpha1::NodeWatchResourcesResponse, v1alpha1::HEALTHY, v1alpha1::UNHEALTHY>;
using ApiV1 = Api<v1::DRAResourceHealth::Service, v1::NodeWatchResourcesRequest,
                  v1::NodeWatchResourcesResponse, v1::HEALTHY, v1::UNHEALTHY>;

// The kubelet cuts longer messages itself; cutting here keeps the cut between characters.
// A proto3 string must be UTF-8 or the kubelet fails to parse the whole message, and a
// failure text may come from a driver, so it is made valid first.
constexpr std::size_t kMaxMessage = 1024;

template <class A>
class HealthService final : public A::Base {
 public:
  HealthService(const HealthBoard& board, HealthStreamSettings settings,
                const std::atomic<bool>& stopping)
      : board_(board), settings_(std::move(settings)), stopping_(stopping) {}

  grpc::Status NodeWatchResources(grpc::ServerContext* context, const typename A::In*,
                                  grpc::ServerWriter<typename A::Out>* writer) override {
    bool sent_once = false;
    std::uint64_t sent_version = 0;
    auto sent_at = std::chrono::steady_clock::now();
    while (!context->IsCancelled() && !stopping_.load()) {
      HealthSnapshot snapshot = board_.Snapshot();
      const auto now = std::chrono::steady_clock::now();
      if (!sent_once || snapshot.version != sent_version ||
          now - sent_at >= settings_.resend_every) {
        // A failed write means the kubelet closed the stream.
        if (!writer->Write(ToResponse(snapshot))) break;
        sent_once = true;
        sent_version = snapshot.version;
        sent_at = now;
      }
      board_.WaitForChange(sent_version, settings_.poll_every);
    }
    return grpc::Status::OK;
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

}  // namespace

std::unique_ptr<grpc::Service> MakeHealthServiceV1alpha1(const HealthBoard& board,
                                                         HealthStreamSettings settings,
                                                         const std::atomic<bool>& stopping) {
  return std::make_unique<HealthService<ApiV1alpha1>>(board, std::move(settings), stopping);
}

std::unique_ptr<grpc::Service> MakeHealthServiceV1(const HealthBoard& board,
                                                   HealthStreamSettings settings,
                                                   const std::atomic<bool>& stopping) {
  return std::make_unique<HealthService<ApiV1>>(board, std::move(settings), stopping);
}

}  // namespace mc::plugin
