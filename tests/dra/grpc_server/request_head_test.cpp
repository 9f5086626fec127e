#include "dra/grpc_server/request_head.h"

#include <gtest/gtest.h>

namespace mc::dra {
namespace {

std::vector<Header> Grpc(std::string path) {
  return {{":method", "POST"},
          {":scheme", "http"},
          {":path", std::move(path)},
          {":authority", "localhost"},
          {"content-type", "application/grpc"},
          {"te", "trailers"}};
}

void Set(std::vector<Header>& headers, const std::string& name, const std::string& value) {
  for (auto& header : headers) {
    if (header.first == name) header.second = value;
  }
}

TEST(RequestHeadTest, TheKubeletsHeadersGiveThePath) {
  Result<RequestHead> head = ParseRequestHead(Grpc("/pluginregistration.Registration/GetInfo"));
  ASSERT_TRUE(head.ok()) << head.error_message();
  EXPECT_EQ(head->path, "/pluginregistration.Registration/GetInfo");
}

TEST(RequestHeadTest, AContentTypeWithASubtypeOrParametersIsGrpc) {
  for (const char* type : {"application/grpc+proto", "application/grpc;charset=utf-8"}) {
    std::vector<Header> headers = Grpc("/a.B/C");
    Set(headers, "content-type", type);
    EXPECT_TRUE(ParseRequestHead(headers).ok()) << type;
  }
}

TEST(RequestHeadTest, AGetIsRefusedNamingItsMethod) {
  std::vector<Header> headers = Grpc("/a.B/C");
  Set(headers, ":method", "GET");
  Result<RequestHead> head = ParseRequestHead(headers);
  ASSERT_FALSE(head.ok());
  EXPECT_NE(head.error_message().find("not 'GET'"), std::string::npos) << head.error_message();
}

TEST(RequestHeadTest, AnotherContentTypeIsRefusedNamingIt) {
  for (const char* type : {"application/json", "application/grpcx", "application/grpc-web"}) {
    std::vector<Header> headers = Grpc("/a.B/C");
    Set(headers, "content-type", type);
    Result<RequestHead> head = ParseRequestHead(headers);
    ASSERT_FALSE(head.ok()) << type;
    EXPECT_NE(head.error_message().find(type), std::string::npos) << head.error_message();
  }
}

TEST(RequestHeadTest, AMissingContentTypeIsRefused) {
  std::vector<Header> headers = Grpc("/a.B/C");
  std::erase_if(headers, [](const Header& header) { return header.first == "content-type"; });
  Result<RequestHead> head = ParseRequestHead(headers);
  ASSERT_FALSE(head.ok());
  EXPECT_NE(head.error_message().find("missing"), std::string::npos) << head.error_message();
}

TEST(RequestHeadTest, APathThatNamesNoServiceAndMethodIsRefused) {
  for (const char* path : {"/", "/a.B", "/a.B/", "//C", "a.B/C", "/a/B/C"}) {
    Result<RequestHead> head = ParseRequestHead(Grpc(path));
    ASSERT_FALSE(head.ok()) << path;
    EXPECT_NE(head.error_message().find(":path"), std::string::npos) << head.error_message();
  }
}

TEST(RequestHeadTest, AnEncodingOtherThanIdentityIsUnsupported) {
  std::vector<Header> headers = Grpc("/a.B/C");
  headers.emplace_back("grpc-encoding", "gzip");
  Result<RequestHead> head = ParseRequestHead(headers);
  ASSERT_FALSE(head.ok());
  EXPECT_TRUE(head.error().IsUnsupported());
  headers.back().second = "identity";
  EXPECT_TRUE(ParseRequestHead(headers).ok());
}

TEST(RequestHeadTest, AControlCharacterInAHeaderStaysOutOfTheError) {
  std::vector<Header> headers = Grpc("/a.B/C");
  Set(headers, ":method", "GE\nT");
  Result<RequestHead> head = ParseRequestHead(headers);
  ASSERT_FALSE(head.ok());
  EXPECT_EQ(head.error_message().find('\n'), std::string::npos) << head.error_message();
}

}  // namespace
}  // namespace mc::dra
