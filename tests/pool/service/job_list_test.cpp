// The jobs a worker may take where a bound on its output cannot say it.
#include "pool/service/job_list.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace mc::pool {
namespace {

PendingJob Job(const std::string& id, int resolution, bool av1_source = false) {
  PendingJob job{"vod-hls-transcoding", JobShape{}, Seconds(60)};
  job.id = id;
  job.shape.resolution = resolution;
  job.shape.av1_source = av1_source;
  return job;
}

WorkerStatus Worker(bool av1_dec) {
  WorkerStatus worker;
  worker.name = "gpu-box-1:gpu0";
  worker.capabilities.av1_dec = av1_dec;
  worker.capabilities.max_height = 4320;
  return worker;
}

const char* const kSmall = "aaaaaaaa-0000-4000-8000-000000000001";
const char* const kLarge = "aaaaaaaa-0000-4000-8000-000000000002";
const char* const kAv1 = "aaaaaaaa-0000-4000-8000-000000000003";

TEST(JobList, AWorkerThatDecodesAv1WithClassesABoundSaysNeedsNoList) {
  const std::vector<PendingJob> pending = {Job(kSmall, 720), Job(kLarge, 2160, true)};
  EXPECT_EQ(JobList(Worker(true), kEveryClass, pending, {}), std::nullopt);
  EXPECT_EQ(JobList(Worker(true), Bit(JobClass::kS) | Bit(JobClass::kM), pending, {}),
            std::nullopt);
}

TEST(JobList, TheSessionShiftListsOnlyTheLargeJobs) {
  const std::vector<PendingJob> pending = {Job(kSmall, 720), Job(kLarge, 2160)};
  EXPECT_EQ(JobList(Worker(true), Bit(JobClass::kL) | Bit(JobClass::kXL), pending, {}),
            (std::vector<std::string>{kLarge}));
}

TEST(JobList, AWorkerWithoutAv1DecodeIsListedEveryJobButTheAv1SourcesEvenWithNonePending) {
  EXPECT_EQ(JobList(Worker(false), kEveryClass, {Job(kSmall, 720), Job(kAv1, 1080, true)}, {}),
            (std::vector<std::string>{kSmall}));
  EXPECT_EQ(JobList(Worker(false), kEveryClass, {}, {}), std::vector<std::string>{});
}

TEST(JobList, AJobBeyondTheWorkersLargestPictureIsLeftOut) {
  EXPECT_EQ(JobList(Worker(true), kEveryClass, {Job(kSmall, 720), Job(kLarge, 8640)}, {}),
            (std::vector<std::string>{kSmall}));
}

TEST(JobList, ALongQueueIsCutToTheJobsPeerTubeOffersFirst) {
  std::vector<PendingJob> pending;
  for (int i = 0; i < 400; ++i) {
    char id[37];
    std::snprintf(id, sizeof id, "bbbbbbbb-0000-4000-8000-%012d", i);
    PendingJob job = Job(id, 720);
    // The first 200 wait behind a lower priority; among the rest the oldest come first.
    job.priority = i < 200 ? 100 : 0;
    job.age = Seconds(i);
    pending.push_back(job);
  }
  const std::optional<std::vector<std::string>> listed =
      JobList(Worker(false), kEveryClass, pending, {});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), kMostListedJobs);
  EXPECT_EQ(listed->front(), "bbbbbbbb-0000-4000-8000-000000000250");
  EXPECT_EQ(listed->back(), "bbbbbbbb-0000-4000-8000-000000000399");
}

}  // namespace
}  // namespace mc::pool
