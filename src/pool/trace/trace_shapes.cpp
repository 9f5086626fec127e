#include "pool/trace/trace_shapes.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <random>

#include "pool/policy/work.h"

namespace mc::pool {

namespace {

constexpr TraceShapeInfo kShapes[] = {
    {TraceShape::kNight, "night", "eight hours with four small uploads"},
    {TraceShape::kBurst, "burst", "50 uploads within 5 minutes, then two quiet hours"},
    {TraceShape::kUnservable4k, "4k-nobody",
     "a few uploads and one 4K AV1-output job that no worker of the shipped pool can encode"},
    {TraceShape::kDiurnal, "diurnal", "a day of uploads, quiet at night, busiest in the evening"},
    {TraceShape::kFailingWorker, "failing-worker",
     "a burst like `burst`, for the pool whose fastest worker fails during it"},
    {TraceShape::kBursts, "bursts", "six hours with three bursts of 12 uploads, two hours apart"},
    {TraceShape::kUhdTrickle, "4k-trickle", "six hours of 4K uploads, one every half hour or so"},
    {TraceShape::kClips, "clips", "a hundred short clips uploaded within a minute, then an hour"},
    {TraceShape::kWeekday, "weekday",
     "a working day with two peaks, at lunch (12:30) and in the evening (20:30)"},
};

// A PeerTube VOD upload's resolution and length, drawn from a mix like a small instance's.
struct Upload {
  int resolution;
  double duration_s;
};

Upload DrawUpload(std::mt19937& random) {
  std::uniform_real_distribution<double> unit(0, 1);
  const double pick = unit(random);
  const int resolution = pick < 0.55 ? 1080 : pick < 0.9 ? 720 : pick < 0.97 ? 480 : 1440;
  // Mostly a few minutes; one in ten is long-form.
  const double duration = unit(random) < 0.9 ? 30 + unit(random) * 450 : 900 + unit(random) * 1800;
  return {resolution, std::round(duration)};
}

void AddUploads(Trace& trace, std::mt19937& random, int count, double from_s, double to_s,
                const std::string& prefix) {
  std::uniform_real_distribution<double> when(from_s, to_s);
  std::vector<double> times(count);
  for (double& at : times) at = std::round(when(random) * 10) / 10;
  std::sort(times.begin(), times.end());
  for (int i = 0; i < count; ++i) {
    const Upload upload = DrawUpload(random);
    AddUpload(trace, prefix + std::to_string(i + 1), times[i], upload.resolution,
              upload.duration_s);
  }
}

// Uploads at the times of a Poisson process whose rate is `rate(hour)` at most `peak` per hour
// (thinning), over `span_s`.
template <typename Rate>
void AddPoissonUploads(Trace& trace, std::mt19937& random, double peak, double span_s, Rate rate,
                       const std::string& prefix) {
  std::exponential_distribution<double> gap(peak / 3600);
  std::uniform_real_distribution<double> unit(0, 1);
  int uploads = 0;
  for (double at = gap(random); at < span_s; at += gap(random)) {
    if (unit(random) * peak > rate(at / 3600)) continue;
    const Upload upload = DrawUpload(random);
    AddUpload(trace, prefix + std::to_string(++uploads), std::round(at * 10) / 10,
              upload.resolution, upload.duration_s);
  }
}

// The diurnal rate: uploads per hour at `hour` of the day.
// It is lowest at 04:00 and highest at 20:00: a base plus a raised cosine.
double DiurnalRate(double hour, double peak_per_hour) {
  const double phase = std::cos((hour - 20) / 24 * 2 * std::numbers::pi);
  return peak_per_hour * (0.08 + 0.92 * std::pow((1 + phase) / 2, 2));
}

}  // namespace

std::span<const TraceShapeInfo> TraceShapes() { return kShapes; }

std::optional<TraceShape> ParseTraceShape(std::string_view name) {
  for (const TraceShapeInfo& info : kShapes) {
    if (name == info.name) return info.shape;
  }
  return std::nullopt;
}

void AddUpload(Trace& trace, const std::string& video, double at_s, int resolution,
               double duration_s, int fps, int priority) {
  const auto add = [&](const std::string& id, const char* type, int height,
                       const std::string& parent) {
    TraceJob job;
    job.id = id;
    job.at_s = at_s;
    job.type = type;
    job.priority = priority;
    job.shape.resolution = height;
    job.shape.source_resolution = resolution;
    job.shape.fps = fps;
    job.shape.duration = Seconds(duration_s);
    job.parent = parent;
    trace.jobs.push_back(job);
  };
  const std::string root = video + "-web-" + std::to_string(resolution);
  add(root, "vod-web-video-transcoding", resolution, "");
  add(video + "-hls-" + std::to_string(resolution), "vod-hls-transcoding", resolution, root);
  for (int height : kRenditionLadder) {
    if (height >= resolution) continue;
    const std::string web = video + "-web-" + std::to_string(height);
    add(web, "vod-web-video-transcoding", height, root);
    add(video + "-hls-" + std::to_string(height), "vod-hls-transcoding", height, web);
  }
}

Trace GenerateTrace(TraceShape shape, std::uint32_t variant, double scale) {
  // The failing-worker burst is a burst of its own, not a copy of `burst`.
  std::mt19937 random(shape == TraceShape::kFailingWorker ? variant + 1000 : variant);
  Trace trace;
  const auto count = [&](int uploads) {
    return std::max(1, static_cast<int>(std::lround(uploads * scale)));
  };
  switch (shape) {
    case TraceShape::kNight: {
      const double hours[] = {0.9, 2.7, 5.2, 7.1};
      int i = 0;
      for (double hour : hours) {
        const Upload upload = DrawUpload(random);
        AddUpload(trace, "night-" + std::to_string(++i), hour * 3600, 720, upload.duration_s);
      }
      trace.horizon_s = 8 * 3600;
      break;
    }
    case TraceShape::kBurst:
    case TraceShape::kFailingWorker:
      AddUploads(trace, random, count(50), 60, 360, "burst-");
      trace.horizon_s = 2 * 3600 + 360;
      break;
    case TraceShape::kUnservable4k: {
      AddUploads(trace, random, count(6), 60, 1800, "clip-");
      TraceJob job;
      job.id = "av1-4k";
      job.at_s = 300;
      job.type = "vod-web-video-transcoding";
      job.priority = 101;
      job.shape.resolution = 2160;
      job.shape.source_resolution = 2160;
      job.shape.fps = 30;
      job.shape.duration = Seconds(600);
      job.shape.av1_output = true;
      trace.jobs.push_back(job);
      std::stable_sort(trace.jobs.begin(), trace.jobs.end(),
                       [](const TraceJob& a, const TraceJob& b) { return a.at_s < b.at_s; });
      trace.horizon_s = 2 * 3600;
      break;
    }
    case TraceShape::kDiurnal: {
      const double peak = 40 * scale;
      AddPoissonUploads(
          trace, random, peak, 86400, [&](double hour) { return DiurnalRate(hour, peak); }, "day-");
      trace.horizon_s = 86400;
      break;
    }
    case TraceShape::kBursts:
      for (int burst = 0; burst < 3; ++burst) {
        const double from = 1800 + burst * 7200;
        AddUploads(trace, random, count(12), from, from + 180,
                   "bursts-" + std::to_string(burst + 1) + "-");
      }
      trace.horizon_s = 6 * 3600;
      break;
    case TraceShape::kUhdTrickle: {
      std::uniform_real_distribution<double> gap(1200, 2400);
      std::uniform_real_distribution<double> length(60, 900);
      int uploads = 0;
      for (double at = 300; at < 6 * 3600; at += gap(random)) {
        AddUpload(trace, "uhd-" + std::to_string(++uploads), std::round(at * 10) / 10, 2160,
                  std::round(length(random)));
      }
      trace.horizon_s = 6 * 3600;
      break;
    }
    case TraceShape::kClips: {
      std::uniform_real_distribution<double> when(120, 180);
      std::uniform_real_distribution<double> length(15, 60);
      std::uniform_real_distribution<double> unit(0, 1);
      for (int i = 0; i < count(100); ++i) {
        AddUpload(trace, "clip-" + std::to_string(i + 1), std::round(when(random) * 10) / 10,
                  unit(random) < 0.6 ? 1080 : 720, std::round(length(random)));
      }
      std::stable_sort(trace.jobs.begin(), trace.jobs.end(),
                       [](const TraceJob& a, const TraceJob& b) { return a.at_s < b.at_s; });
      trace.horizon_s = 3600;
      break;
    }
    case TraceShape::kWeekday: {
      // Two raised bumps on a low base: lunch, then a larger evening.
      const double peak = 24 * scale;
      const auto bump = [](double hour, double centre, double width) {
        const double x = (hour - centre) / width;
        return std::exp(-x * x);
      };
      AddPoissonUploads(
          trace, random, peak, 86400,
          [&](double hour) {
            return peak *
                   std::min(1.0, 0.05 + 0.6 * bump(hour, 12.5, 1.2) + 0.95 * bump(hour, 20.5, 1.8));
          },
          "weekday-");
      trace.horizon_s = 86400;
      break;
    }
  }
  return trace;
}

}  // namespace mc::pool
