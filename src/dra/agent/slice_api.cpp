#include "dra/agent/slice_api.h"

#include "common/base/json_text.h"
#include "common/kube/list_watch.h"
#include "dra/agent/api_call.h"

namespace mc::dra {

std::string SliceSelector(const std::string& driver, const std::string& node) {
  return "spec.driver=" + driver + ",spec.nodeName=" + node;
}

Result<nlohmann::json> SliceApi::Send(const kube::HttpRequest& request) {
  return SendForObject(client_, request);
}

Result<nlohmann::json> SliceApi::Write(const SliceWrite& write) {
  const std::string path = std::string(kResourceSlicesPath);
  switch (write.kind) {
    case SliceWrite::Kind::kCreate:
      return Send({.method = "POST", .target = path, .body = JsonText(write.object)});
    case SliceWrite::Kind::kUpdate:
      return Send(
          {.method = "PUT", .target = path + "/" + write.name, .body = JsonText(write.object)});
    case SliceWrite::Kind::kDelete: {
      // The preconditions make the delete fail with a conflict.
      // That happens if the slice was replaced since it was read.
      // So the agent never deletes a slice it has not seen.
      nlohmann::json options = {{"apiVersion", "v1"}, {"kind", "DeleteOptions"}};
      if (!write.uid.empty()) options["preconditions"]["uid"] = write.uid;
      if (!write.resource_version.empty())
        options["preconditions"]["resourceVersion"] = write.resource_version;
      Result<nlohmann::json> answer =
          Send({.method = "DELETE", .target = path + "/" + write.name, .body = JsonText(options)});
      if (!answer && answer.error().IsNotFound()) return nlohmann::json::object();
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

}  // namespace mc::dra
