// The reason an API answer gives, for log lines and errors. The API server explains a refusal in a
// Status object. Example: "resourceslices.resource.k8s.io is forbidden: User ... cannot list ...".
// A proxy or load balancer in front may answer with any text. Its start is enough.
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/text.h"
#include "common/base/utf8.h"
#include "common/kube/kube_client.h"

namespace mc::kube {
namespace {

constexpr std::size_t kBodyExcerpt = 200;

}  // namespace

std::string StatusMessage(const HttpResponse& response) {
  const nlohmann::json body = ParseJsonOrDiscarded(response.body);
  if (body.is_object()) {
    const auto kind = body.find("kind");
    const auto message = body.find("message");
    if (kind != body.end() && kind->is_string() &&
        kind->get_ref<const std::string&>() == "Status" && message != body.end() &&
        message->is_string() && !message->get_ref<const std::string&>().empty()) {
      // The code comes first. A real apiserver's texts for 429 and 500 do not name it.
      return "HTTP " + std::to_string(response.status) + ": " +
             PrintableLine(message->get_ref<const std::string&>());
    }
  }
  const std::string prefix = "HTTP " + std::to_string(response.status);
  if (response.body.empty()) return prefix + " with an empty body";
  // Cut first, between characters of the repaired text. Then flatten the line breaks.
  const std::string excerpt = TruncateUtf8(
      ValidUtf8(std::string_view(response.body).substr(0, kBodyExcerpt + 4)), kBodyExcerpt);
  return prefix + ": " + PrintableLine(excerpt);
}

}  // namespace mc::kube
