#include "pool/policy/work.h"

#include <algorithm>

namespace mc::pool {

namespace {

constexpr double kPixels1080p30 = 1920.0 * 1080 * 30;

JobShape AtHeight(const JobShape& shape, int height) {
  JobShape rendition = shape;
  rendition.resolution = height;
  return rendition;
}

}  // namespace

double ReferenceEncodeSeconds(const JobShape& shape) {
  const double height = shape.resolution;
  const double pixels = height * height * 16 / 9 * shape.fps;
  return shape.duration.count() * pixels / kPixels1080p30;
}

WorkToCome ChildrenOf(std::string_view type, const JobShape& shape) {
  WorkToCome work;
  if (type != "vod-web-video-transcoding") return work;
  work.jobs = 1;
  work.seconds = ReferenceEncodeSeconds(shape);
  const bool first = shape.source_resolution <= 0 || shape.resolution >= shape.source_resolution;
  if (!first) return work;
  for (int height : kRenditionLadder) {
    if (height >= shape.resolution) continue;
    work.jobs += 2;
    work.seconds += 2 * ReferenceEncodeSeconds(AtHeight(shape, height));
  }
  return work;
}

}  // namespace mc::pool
