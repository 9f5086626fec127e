// The runner job types and job states PeerTube defines: RunnerJobType and RunnerJobState of its
// models. Also which types a transcoding worker takes by default. A type or state not in these
// tables was added by a newer PeerTube. It is passed on as it came. It counts as work of another
// kind, never as an error.
#pragma once

#include <optional>
#include <string_view>

namespace mc::peertube {

// The job types a transcoding worker takes, unless its eligibility names others.
inline constexpr std::string_view kWebVideoJob = "vod-web-video-transcoding";
inline constexpr std::string_view kHlsJob = "vod-hls-transcoding";
inline constexpr std::string_view kAudioMergeJob = "vod-audio-merge-transcoding";

enum class JobKind {
  kVodTranscoding,  // a video file re-encoded: the worker's work
  kLiveTranscoding,
  kStudioEdit,     // intro, outro, watermark, cut: ffmpeg filter graphs
  kTranscription,  // speech to subtitles (Whisper)
  kStoryboard,     // the seek-bar's sprite sheet: one image
};

struct RunnerJobType {
  std::string_view name;
  JobKind kind;
};

inline constexpr RunnerJobType kRunnerJobTypes[] = {
    {kWebVideoJob, JobKind::kVodTranscoding},
    {kHlsJob, JobKind::kVodTranscoding},
    {kAudioMergeJob, JobKind::kVodTranscoding},
    {"live-rtmp-hls-transcoding", JobKind::kLiveTranscoding},
    {"video-studio-transcoding", JobKind::kStudioEdit},
    {"video-transcription", JobKind::kTranscription},
    {"generate-video-storyboard", JobKind::kStoryboard},  // PeerTube 8.0 and later
};

// FindRunnerJobType: the type named `name`. Nothing when this table does not know it.
std::optional<RunnerJobType> FindRunnerJobType(std::string_view name);

// IsVodTranscoding: whether a transcoding worker takes type `name` by default.
bool IsVodTranscoding(std::string_view name);

struct RunnerJobState {
  int id;
  std::string_view name;  // as RunnerJobState's keys spell it
};

inline constexpr int kJobPending = 1;
inline constexpr int kJobProcessing = 2;
inline constexpr int kJobWaitingForParent = 5;
inline constexpr int kJobCompleting = 9;

inline constexpr RunnerJobState kRunnerJobStates[] = {
    {kJobPending, "PENDING"},
    {kJobProcessing, "PROCESSING"},
    {3, "COMPLETED"},
    {4, "ERRORED"},
    {kJobWaitingForParent, "WAITING_FOR_PARENT_JOB"},
    {6, "CANCELLED"},
    {7, "PARENT_ERRORED"},
    {8, "PARENT_CANCELLED"},
    {kJobCompleting, "COMPLETING"},
};

}  // namespace mc::peertube
