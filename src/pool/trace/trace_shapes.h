// Generated traces for the shapes that matter to a pool:
//  - a night's idle;
//  - a burst of uploads;
//  - one 4K job nobody can serve;
//  - a day's diurnal load;
//  - a burst during which a worker fails.
// Each is the same for the same variant, so the shipped traces can be made again.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "pool/trace/trace.h"

namespace mc::pool {

enum class TraceShape {
  kNight,
  kBurst,
  kUnservable4k,
  kDiurnal,
  kFailingWorker,
  kBursts,
  kUhdTrickle,
  kClips,
  kWeekday,
};

struct TraceShapeInfo {
  TraceShape shape;
  const char* name;
  const char* summary;
};

std::span<const TraceShapeInfo> TraceShapes();
std::optional<TraceShape> ParseTraceShape(std::string_view name);

// `scale` multiplies the number of uploads (the diurnal day for a thousand workers is the
// diurnal shape at scale 125).
Trace GenerateTrace(TraceShape shape, std::uint32_t variant = 1, double scale = 1);

// AddUpload appends the job graph PeerTube makes of one upload:
//  - the root is the web-video job at the source's resolution;
//  - its children are that resolution's HLS job and a web-video job per lower rung;
//  - each lower web-video job has its HLS child.
void AddUpload(Trace& trace, const std::string& video, double at_s, int resolution,
               double duration_s, int fps = 30, int priority = 101);

}  // namespace mc::pool
