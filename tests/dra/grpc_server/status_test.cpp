#include "dra/grpc_server/status.h"

#include <gtest/gtest.h>

namespace mc::dra {
namespace {

TEST(StatusTest, PrintableAsciiIsSentAsItIs) {
  EXPECT_EQ(PercentEncodeStatusMessage("claim default/a has UID x, not y"),
            "claim default/a has UID x, not y");
}

TEST(StatusTest, PercentAndBytesOutsidePrintableAsciiAreEscaped) {
  EXPECT_EQ(PercentEncodeStatusMessage("100% \xc3\xa9\n"), "100%25 %C3%A9%0A");
}

TEST(StatusTest, TheServersOwnErrorsMapToGrpcCodes) {
  EXPECT_EQ(StatusFromError(InvalidInput("x")).code, StatusCode::kInternal);
  EXPECT_EQ(StatusFromError(Unsupported("x")).code, StatusCode::kUnimplemented);
  EXPECT_EQ(StatusFromError(Unsupported("x")).message, "x");
}

}  // namespace
}  // namespace mc::dra
