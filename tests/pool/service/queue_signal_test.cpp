// PeerTube's pending jobs as the policy's queue: each job's shape from the job and its video.
#include "pool/service/queue_signal.h"

#include <gtest/gtest.h>

namespace mc::pool {
namespace {

peertube::PendingJob Pending(std::string type, std::optional<int> resolution, std::string video,
                             double created_at_s) {
  peertube::PendingJob job;
  job.uuid = "job-" + video + "-" + std::to_string(resolution.value_or(0));
  job.type = std::move(type);
  job.state = 1;
  job.created_at_s = created_at_s;
  job.waiting_since_s = created_at_s;
  job.resolution = resolution;
  job.fps = resolution ? std::optional<double>(30) : std::nullopt;
  job.video_uuid = std::move(video);
  return job;
}

TEST(QueueSignal, EachJobTakesItsOutputFromTheJobAndItsSourceFromTheVideo) {
  std::vector<std::string> asked;
  const VideoLookup lookup = [&](const std::string& uuid) -> std::optional<peertube::VideoFacts> {
    asked.push_back(uuid);
    if (uuid == "v4k") return peertube::VideoFacts{"v4k", 1800, 2160, 59.94, "av1"};
    return std::nullopt;
  };
  const pool::QueueSignal queue =
      QueueFromJobs({Pending("vod-hls-transcoding", 1080, "v4k", 1000),
                     Pending("vod-web-video-transcoding", 480, "gone", 1090),
                     Pending("vod-audio-merge-transcoding", std::nullopt, "", 1100)},
                    lookup, 1100);
  EXPECT_TRUE(queue.read_ok);
  ASSERT_EQ(queue.pending.size(), 3u);
  const pool::JobShape& big = queue.pending[0].shape;
  EXPECT_EQ(big.resolution, 1080);
  EXPECT_EQ(big.source_resolution, 2160);
  EXPECT_EQ(big.duration, pool::Seconds(1800));
  EXPECT_TRUE(big.av1_source);
  EXPECT_EQ(big.fps, 30);
  EXPECT_EQ(queue.pending[0].age, pool::Seconds(100));
  // A video that cannot be read leaves the job its own facts and the shape's defaults.
  EXPECT_EQ(queue.pending[1].shape.resolution, 480);
  EXPECT_EQ(queue.pending[1].shape.source_resolution, 0);
  EXPECT_EQ(queue.pending[1].shape.duration, pool::JobShape{}.duration);
  // A job with no video is not looked up.
  EXPECT_EQ(asked, (std::vector<std::string>{"v4k", "gone"}));
  EXPECT_EQ(queue.pending[2].age, pool::Seconds(0));
  EXPECT_EQ(queue.PendingOfType("vod-hls-transcoding"), 1);
}

// A job made at the upload waited for its parent before it was pending: its age, the pressure's
// measure of a wait for a worker, counts from when it became pending.
TEST(QueueSignal, AJobsAgeCountsFromWhenItBecamePendingNotFromItsCreation) {
  peertube::PendingJob child = Pending("vod-hls-transcoding", 720, "", 1000);
  child.waiting_since_s = 1090;
  const pool::QueueSignal queue = QueueFromJobs({child}, nullptr, 1100);
  EXPECT_EQ(queue.pending[0].age, pool::Seconds(10));
}

TEST(QueueSignal, EachJobKeepsPeerTubesPriorityForTheRecord) {
  peertube::PendingJob later = Pending("vod-hls-transcoding", 720, "", 1000);
  later.priority = 103;
  const pool::QueueSignal queue =
      QueueFromJobs({later, Pending("vod-hls-transcoding", 480, "", 1000)}, nullptr, 1100);
  EXPECT_EQ(queue.pending[0].priority, 103);
  EXPECT_FALSE(queue.pending[1].priority);
}

TEST(QueueSignal, AJobCreatedAfterTheReadIsNotOfNegativeAge) {
  const pool::QueueSignal queue =
      QueueFromJobs({Pending("vod-hls-transcoding", 720, "", 2000)}, nullptr, 1990);
  EXPECT_EQ(queue.pending[0].age, pool::Seconds(0));
}

}  // namespace
}  // namespace mc::pool
