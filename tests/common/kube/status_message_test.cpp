#include <gtest/gtest.h>

#include "common/kube/kube_client.h"

namespace mc::kube {
namespace {

HttpResponse Answer(long status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.body = std::move(body);
  return response;
}

TEST(StatusMessage, AStatusObjectGivesTheCodeAndItsMessage) {
  EXPECT_EQ(StatusMessage(Answer(403, R"({"kind":"Status","apiVersion":"v1","status":"Failure",
      "message":"resourceslices.resource.k8s.io is forbidden: User \"x\" cannot list resource \"resourceslices\"",
      "reason":"Forbidden","code":403})")),
            "HTTP 403: resourceslices.resource.k8s.io is forbidden: User \"x\" cannot list "
            "resource \"resourceslices\"");
}

TEST(StatusMessage, AnythingElseGivesTheCodeAndTheStartOfTheBodyOnOneLine) {
  EXPECT_EQ(StatusMessage(Answer(502, "<html>\r\n<body>Bad Gateway</body>\n</html>")),
            "HTTP 502: <html>  <body>Bad Gateway</body> </html>");
  EXPECT_EQ(StatusMessage(Answer(500, R"({"kind":"Pod","message":"not a status"})")),
            R"(HTTP 500: {"kind":"Pod","message":"not a status"})");
  EXPECT_EQ(StatusMessage(Answer(500, R"({"kind":"Status","message":""})")),
            R"(HTTP 500: {"kind":"Status","message":""})");
}

TEST(StatusMessage, ALongBodyIsCutAt200Bytes) {
  const std::string message = StatusMessage(Answer(500, std::string(1000, 'x')));
  EXPECT_EQ(message, "HTTP 500: " + std::string(200, 'x'));
}

TEST(StatusMessage, TheCutNeverSplitsACharacter) {
  // 199 bytes and then a two-byte character: the character is dropped whole.
  const std::string message =
      StatusMessage(Answer(500, std::string(199, 'x') + "\xc3\xa9" + "tail"));
  EXPECT_EQ(message, "HTTP 500: " + std::string(199, 'x'));
}

TEST(StatusMessage, AnEmptyBodySaysSo) {
  EXPECT_EQ(StatusMessage(Answer(503, "")), "HTTP 503 with an empty body");
}

}  // namespace
}  // namespace mc::kube
