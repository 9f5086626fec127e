#include "agent/slice_api.h"

#include "kube/list_watch.h"

namespace mc {

std::string SliceSelector(const std::string& driver, const std::string& node) {
  return "spec.driver=" + driver + ",spec.nodeName=" + node;
}

Result<nlohmann::json> SliceApi::Send(const kube::HttpRequest& request) {
  const std::string what = request.method + " " + request.target;
  Result<kube::HttpResponse> response = client_.Send(request);
  if (!response) return Unavailable(response.error());
  const long status = response->status;
  if (status >= 200 && status < 300) {
    nlohmann::json object = nlohmann::json::parse(response->body, nullptr, false);
    if (object.is_discarded() || !object.is_object())
      return Unavailable(what + ": the answer is not a JSON object");
    return object;
  }
  Error failure = Unavailable(what + ": " + kube::StatusMessage(*response));
  failure.retry_after = response->retry_after;
  if (status == 409) failure.code = ErrorCode::kConflict;
  if (status == 404) failure.code = ErrorCode::kNotFound;
  return failure;
}

Result<nlohmann::json> SliceApi::Write(const SliceWrite& write) {
  const std::string path = std::string(kResourceSlicesPath);
  switch (write.kind) {
    case SliceWrite::Kind::kCreate:
      return Send({.method = "POST", .target = path, .body = write.object.dump()});
    case SliceWrite::Kind::kUpdate:
      return Send(
          {.method = "PUT", .target = path + "/" + write.name, .body = write.object.dump()});
    case SliceWrite::Kind::kDelete: {
      // The preconditions make the delete fail with a conflict if the slice was replaced
      // since it was read, so the agent never deletes a slice it has not seen.
      nlohmann::json options = {{"apiVersion", "v1"}, {"kind", "DeleteOptions"}};
      if (!write.uid.empty()) options["preconditions"]["uid"] = write.uid;
      if (!write.resource_version.empty())
        options["preconditions"]["resourceVersion"] = write.resource_version;
      Result<nlohmann::json> answer =
          Send({.method = "DELETE", .target = path + "/" + write.name, .body = options.dump()});
      if (!answer && answer.failure().IsNotFound()) return nlohmann::json::object();
      return answer;
    }
  }
  return nlohmann::json::object();
}

Result<nlohmann::json> SliceApi::ListSlices(const std::string& driver, const std::string& node) {
  return Send({.target = std::string(kResourceSlicesPath) +
                         "?fieldSelector=" + kube::UrlEncode(SliceSelector(driver, node))});
}

Result<nlohmann::json> SliceApi::GetNode(const std::string& node) {
  return Send({.target = "/api/v1/nodes/" + node});
}

}  // namespace mc
