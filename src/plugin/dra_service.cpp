#include "plugin/dra_service.h"

#include <utility>

#include "kubelet/dra/v1/api.grpc.pb.h"
#include "kubelet/dra/v1beta1/api.grpc.pb.h"

namespace mc::plugin {
namespace {

namespace v1 = k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = k8s::io::kubelet::pkg::apis::dra::v1beta1;

// The two versions have the same messages under different namespaces; Api names one
// version's types so that one implementation serves both.
template <class Service, class PrepareRequest, class PrepareResponse, class UnprepareRequest,
          class UnprepareResponse>
struct Api {
  using Base = Service;
  using PrepareIn = PrepareRequest;
  using PrepareOut = PrepareResponse;
  using UnprepareIn = UnprepareRequest;
  using UnprepareOut = UnprepareResponse;
};

using ApiV1 =
    Api<v1::DRAPlugin::Service, v1::NodePrepareResourcesRequest, v1::NodePrepareResourcesResponse,
        v1::NodeUnprepareResourcesRequest, v1::NodeUnprepareResourcesResponse>;
using ApiV1beta1 =
    Api<v1beta1::DRAPlugin::Service, v1beta1::NodePrepareResourcesRequest,
        v1beta1::NodePrepareResourcesResponse, v1beta1::NodeUnprepareResourcesRequest,
        v1beta1::NodeUnprepareResourcesResponse>;

template <class A>
class DraService final : public A::Base {
 public:
  explicit DraService(ClaimChecker checker) : checker_(std::move(checker)) {}

  // Every claim of the request gets an entry: the kubelet counts a missing one as skipped
  // and fails the pod's preparation. An error is the claim's own, so one bad claim does
  // not fail the others of the batch.
  grpc::Status NodePrepareResources(grpc::ServerContext*, const typename A::PrepareIn* request,
                                    typename A::PrepareOut* response) override {
    for (const auto& claim : request->claims()) {
      auto& answer = (*response->mutable_claims())[claim.uid()];
      if (!checker_) {
        answer.set_error("the plugin has no way to check claims");
        continue;
      }
      Result<std::vector<PreparedDevice>> checked =
          checker_(claim.namespace_(), claim.name(), claim.uid());
      if (!checked) {
        answer.set_error(checked.error());
        continue;
      }
      for (const PreparedDevice& prepared : *checked) {
        auto* device = answer.add_devices();
        for (const std::string& request : prepared.request_names)
          device->add_request_names(request);
        device->set_pool_name(prepared.pool_name);
        device->set_device_name(prepared.device_name);
        if constexpr (requires { device->set_share_id(std::string()); }) {  // v1 only
          if (prepared.share_id) device->set_share_id(*prepared.share_id);
        }
      }
    }
    return grpc::Status::OK;
  }

  // Nothing was prepared, so nothing needs undoing; every claim succeeds.
  grpc::Status NodeUnprepareResources(grpc::ServerContext*, const typename A::UnprepareIn* request,
                                      typename A::UnprepareOut* response) override {
    for (const auto& claim : request->claims()) (*response->mutable_claims())[claim.uid()];
    return grpc::Status::OK;
  }

 private:
  ClaimChecker checker_;
};

}  // namespace

std::unique_ptr<grpc::Service> MakeDraServiceV1(ClaimChecker checker) {
  return std::make_unique<DraService<ApiV1>>(std::move(checker));
}

std::unique_ptr<grpc::Service> MakeDraServiceV1beta1(ClaimChecker checker) {
  return std::make_unique<DraService<ApiV1beta1>>(std::move(checker));
}

}  // namespace mc::plugin
