#include "dra/agent/api_call.h"

#include "common/base/json_parse.h"

namespace mc::dra {

Result<nlohmann::json> SendForObject(kube::KubeClient& client, const kube::HttpRequest& request) {
  const std::string what = request.method + " " + request.target;
  Result<kube::HttpResponse> response = client.Send(request);
  if (!response) return Unavailable(response.error_message());
  const long status = response->status;
  if (status >= 200 && status < 300) {
    nlohmann::json object = ParseJsonOrDiscarded(response->body);
    if (object.is_discarded() || !object.is_object())
      return Unavailable(what + ": the answer is not a JSON object");
    return object;
  }
  Error failure = Unavailable(what + ": " + kube::StatusMessage(*response));
  failure.retry_after = response->retry_after;
  if (status == 409) failure.code = ErrorCode::kConflict;
  if (status == 404) failure.code = ErrorCode::kNotFound;
  if (status == 403) failure.code = ErrorCode::kPermissionDenied;
  return failure;
}

}  // namespace mc::dra
