#include "probe/capabilities/encode_session_cap.h"

#include <gtest/gtest.h>

namespace mc::probe {
namespace {

TEST(EncodeSessionCap, ConsumerBoardsAreTheGeForceAndTitanOnes) {
  EXPECT_EQ(BoardClassOf("NVIDIA GeForce RTX 4090"), BoardClass::kConsumer);
  EXPECT_EQ(BoardClassOf("GeForce GTX 1080"), BoardClass::kConsumer);
  EXPECT_EQ(BoardClassOf("NVIDIA TITAN RTX"), BoardClass::kConsumer);
  EXPECT_EQ(BoardClassOf("NVIDIA RTX A4000"), BoardClass::kProfessional);
  EXPECT_EQ(BoardClassOf("NVIDIA L4"), BoardClass::kProfessional);
  EXPECT_EQ(BoardClassOf("NVIDIA H200"), BoardClass::kProfessional);
}

TEST(EncodeSessionCap, TheDriverBranchIsTheVersionsFirstNumber) {
  EXPECT_EQ(DriverBranch("580.159.04"), 580);
  EXPECT_EQ(DriverBranch("595.58.03"), 595);
  EXPECT_EQ(DriverBranch("550"), 550);
  EXPECT_EQ(DriverBranch(""), std::nullopt);
  EXPECT_EQ(DriverBranch("r580"), std::nullopt);
  EXPECT_EQ(DriverBranch("580a.1"), std::nullopt);
}

TEST(EncodeSessionCap, TheConsumerCapFollowsTheDriverBranch) {
  EXPECT_EQ(EncodeSessionCap(470, BoardClass::kConsumer), 3);
  EXPECT_EQ(EncodeSessionCap(529, BoardClass::kConsumer), 3);
  EXPECT_EQ(EncodeSessionCap(530, BoardClass::kConsumer), 5);
  // Sources date the step to 8 at 536 or at 550; the smaller cap is kept between.
  EXPECT_EQ(EncodeSessionCap(545, BoardClass::kConsumer), 5);
  EXPECT_EQ(EncodeSessionCap(550, BoardClass::kConsumer), 8);
  EXPECT_EQ(EncodeSessionCap(580, BoardClass::kConsumer), 8);
  EXPECT_EQ(EncodeSessionCap(590, BoardClass::kConsumer), 12);
}

TEST(EncodeSessionCap, AnUnknownBranchGetsTheSmallestCapAnyDriverSet) {
  EXPECT_EQ(EncodeSessionCap(std::nullopt, BoardClass::kConsumer), 3);
}

TEST(EncodeSessionCap, ProfessionalBoardsHaveNoDriverCap) {
  EXPECT_EQ(EncodeSessionCap(580, BoardClass::kProfessional), std::nullopt);
  EXPECT_EQ(EncodeSessionCap(std::nullopt, BoardClass::kProfessional), std::nullopt);
}

TEST(EncodeSessionCap, TheSystemCapIsSharedAmongTheCappedGpusOfTheNode) {
  EXPECT_EQ(ShareOfSystemCap(8, 1), 8);
  EXPECT_EQ(ShareOfSystemCap(8, 0), 8);
  EXPECT_EQ(ShareOfSystemCap(8, 2), 4);
  EXPECT_EQ(ShareOfSystemCap(8, 3), 2);
  EXPECT_EQ(ShareOfSystemCap(8, 9), 0);
}

TEST(EncodeSessionCap, OnlyConsumerGpusThatCanEncodeShareTheCap) {
  NvidiaFacts geforce;
  geforce.name = "NVIDIA GeForce RTX 3090";
  geforce.encoder.available = true;
  geforce.encoder.codecs = {{"H264", {"High"}, false, 4096, 4096}};
  NvidiaFacts no_encoder = geforce;
  no_encoder.encoder = {};
  no_encoder.encoder.unavailable_reason = "cannot load libnvidia-encode.so.1";
  NvidiaFacts professional = geforce;
  professional.name = "NVIDIA RTX A4000";
  const std::vector<Result<NvidiaFacts>> node = {geforce, geforce, no_encoder, professional,
                                                 Error{"cuInit failed"}};
  EXPECT_EQ(SessionCappedGpus(node), 2u);
}

}  // namespace
}  // namespace mc::probe
