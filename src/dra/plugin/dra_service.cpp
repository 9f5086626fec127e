#include "dra/plugin/dra_service.h"

#include <utility>

#include "dra/plugin/grpc_methods.h"
#include "kubelet/dra/v1/api.pb.h"
#include "kubelet/dra/v1beta1/api.pb.h"

namespace mc::dra {
namespace {

namespace v1 = k8s::io::kubelet::pkg::apis::dra::v1;
namespace v1beta1 = k8s::io::kubelet::pkg::apis::dra::v1beta1;

// The two versions have the same messages under different namespaces.
// Api names one version's types, so one implementation serves both.
template <const char* Service, class PrepareRequest, class PrepareResponse, class UnprepareRequest,
          class UnprepareResponse>
struct Api {
  static constexpr const char* kService = Service;
  using PrepareIn = PrepareRequest;
  using PrepareOut = PrepareResponse;
  using UnprepareIn = UnprepareRequest;
  using UnprepareOut = UnprepareResponse;
};

constexpr char kServiceV1[] = "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin";
constexpr char kServiceV1beta1[] = "k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin";

using ApiV1 = Api<kServiceV1, v1::NodePrepareResourcesRequest, v1::NodePrepareResourcesResponse,
                  v1::NodeUnprepareResourcesRequest, v1::NodeUnprepareResourcesResponse>;
using ApiV1beta1 =
    Api<kServiceV1beta1, v1beta1::NodePrepareResourcesRequest,
        v1beta1::NodePrepareResourcesResponse, v1beta1::NodeUnprepareResourcesRequest,
        v1beta1::NodeUnprepareResourcesResponse>;

// Every claim of the request gets an entry.
// The kubelet counts a missing one as skipped and fails the pod's preparation.
// An error is the claim's own, so one bad claim fails no other.
template <class A>
void Prepare(const ClaimChecker& checker, const typename A::PrepareIn& request,
             typename A::PrepareOut& response) {
  for (const auto& claim : request.claims()) {
    auto& answer = (*response.mutable_claims())[claim.uid()];
    if (!checker) {
      answer.set_error("the plugin has no way to check claims");
      continue;
    }
    Result<std::vector<PreparedDevice>> checked =
        checker(claim.namespace_(), claim.name(), claim.uid());
    if (!checked) {
      answer.set_error(checked.error_message());
      continue;
    }
    for (const PreparedDevice& prepared : *checked) {
      auto* device = answer.add_devices();
      for (const std::string& request : prepared.request_names) device->add_request_names(request);
      device->set_pool_name(prepared.pool_name);
      device->set_device_name(prepared.device_name);
      if constexpr (requires { device->set_share_id(std::string()); }) {  // v1 only
        if (prepared.share_id) device->set_share_id(*prepared.share_id);
      }
    }
  }
}

// Nothing was prepared, so nothing needs undoing.
// Every claim succeeds.
template <class A>
void Unprepare(const typename A::UnprepareIn& request, typename A::UnprepareOut& response) {
  for (const auto& claim : request.claims()) (*response.mutable_claims())[claim.uid()];
}

template <class A>
std::vector<Method> DraMethods(ClaimChecker checker) {
  const std::string service = std::string("/") + A::kService + "/";
  return {UnaryMethod<typename A::PrepareIn, typename A::PrepareOut>(
              service + "NodePrepareResources",
              [checker = std::move(checker)](const auto& request, auto& response) {
                Prepare<A>(checker, request, response);
              }),
          UnaryMethod<typename A::UnprepareIn, typename A::UnprepareOut>(
              service + "NodeUnprepareResources", &Unprepare<A>)};
}

}  // namespace

std::vector<Method> DraMethodsV1(ClaimChecker checker) {
  return DraMethods<ApiV1>(std::move(checker));
}

std::vector<Method> DraMethodsV1beta1(ClaimChecker checker) {
  return DraMethods<ApiV1beta1>(std::move(checker));
}

}  // namespace mc::dra
