#include "va_process.h"

#include <va/va_vpp.h>

#include <cstring>

#include "va_engine.h"

namespace mc::fakeva {
namespace {

namespace wire = fakenv::wire;

// WholeOf is the rectangle of a whole surface.
VARectangle WholeOf(const Surface& surface) {
  return {0, 0, static_cast<std::uint16_t>(surface.width),
          static_cast<std::uint16_t>(surface.height)};
}

// Within says whether a rectangle lies inside a surface, on even coordinates as NV12 needs.
bool Within(const VARectangle& rectangle, const Surface& surface) {
  return rectangle.x >= 0 && rectangle.y >= 0 && rectangle.width > 0 && rectangle.height > 0 &&
         ((rectangle.x | rectangle.y) & 1) == 0 &&
         static_cast<std::uint32_t>(rectangle.x) + rectangle.width <= surface.width &&
         static_cast<std::uint32_t>(rectangle.y) + rectangle.height <= surface.height;
}

std::string Described(const VARectangle& rectangle) {
  return std::to_string(rectangle.width) + "x" + std::to_string(rectangle.height) + " at " +
         std::to_string(rectangle.x) + "," + std::to_string(rectangle.y);
}

}  // namespace

ProcessSession::ProcessSession(std::string state_dir) : state_dir_(std::move(state_dir)) {}
ProcessSession::~ProcessSession() = default;

bool ProcessSession::Scaled(const Surface& source, const VARectangle& from, std::uint32_t width,
                            std::uint32_t height, std::vector<std::uint8_t>& out,
                            std::string* error) {
  if (!engine_) engine_ = StartEngine(fakenv::EngineClient::Role::kDecoder, state_dir_, error);
  if (!engine_) return false;
  wire::ScaleHeader scale;
  scale.source.width = source.width;
  scale.source.height = source.height;
  scale.source.pitch = source.pitch;
  scale.crop_x = static_cast<std::uint32_t>(from.x);
  scale.crop_y = static_cast<std::uint32_t>(from.y);
  scale.crop_width = from.width;
  scale.crop_height = from.height;
  scale.width = width;
  scale.height = height;
  scale.pitch = (width + 63) / 64 * 64;
  std::vector<std::uint8_t> packed;
  const auto take = [&](const wire::Message& reply) {
    const std::optional<wire::UnitHeader> unit = wire::ParseUnitHeader(reply.payload, true);
    if (static_cast<wire::Reply>(reply.header.type) == wire::Reply::kFrame && unit &&
        unit->width == width && unit->height == height && unit->pitch == scale.pitch) {
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(reply.payload.data());
      out.assign(bytes + sizeof(wire::UnitHeader), bytes + reply.payload.size());
    }
    return VA_STATUS_SUCCESS;
  };
  if (Exchange(*engine_, wire::Request::kScaleFrame, wire::AsBytes(scale),
               std::as_bytes(WirePicture(source, packed)), VA_STATUS_ERROR_OPERATION_FAILED, take,
               error) != VA_STATUS_SUCCESS) {
    return false;
  }
  if (out.empty()) *error = "the engine gave no picture";
  return !out.empty();
}

VAStatus ProcessSession::Process(Surface& target, const std::vector<RenderedBuffer>& buffers,
                                 VaMemory& memory, std::chrono::nanoseconds* busy,
                                 std::string* error) {
  const RenderedBuffer* pipeline = nullptr;
  for (const RenderedBuffer& buffer : buffers) {
    if (buffer.type == VAProcPipelineParameterBufferType) pipeline = &buffer;
  }
  if (!pipeline || pipeline->bytes.size() < sizeof(VAProcPipelineParameterBuffer)) {
    *error = "the picture has no whole VAProcPipelineParameterBuffer";
    return VA_STATUS_ERROR_INVALID_PARAMETER;
  }
  VAProcPipelineParameterBuffer parameters;
  std::memcpy(&parameters, pipeline->bytes.data(), sizeof parameters);
  if (parameters.num_filters > 0) {
    *error = "the fake scales and converts only; it runs no filters";
    return VA_STATUS_ERROR_UNIMPLEMENTED;
  }
  const Surface* source = memory.FindSurface(parameters.surface);
  if (!source) return VA_STATUS_ERROR_INVALID_SURFACE;
  if (source->fourcc != VA_FOURCC_NV12 || target.fourcc != VA_FOURCC_NV12) {
    *error = "the fake processes 8-bit NV12 pictures only";
    return VA_STATUS_ERROR_UNIMPLEMENTED;
  }
  // The regions point into the client's memory, where they live until vaEndPicture returns.
  const VARectangle from =
      parameters.surface_region ? *parameters.surface_region : WholeOf(*source);
  const VARectangle to = parameters.output_region ? *parameters.output_region : WholeOf(target);
  if (!Within(from, *source) || !Within(to, target)) {
    *error = "a region outside its surface, or at odd coordinates: from " + Described(from) +
             " of " + std::to_string(source->width) + "x" + std::to_string(source->height) +
             ", to " + Described(to) + " of " + std::to_string(target.width) + "x" +
             std::to_string(target.height);
    return VA_STATUS_ERROR_INVALID_PARAMETER;
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<std::uint8_t> scaled;
  if (!Scaled(*source, from, to.width, to.height, scaled, error))
    return VA_STATUS_ERROR_OPERATION_FAILED;
  const std::uint32_t pitch = (to.width + 63u) / 64 * 64;
  const PictureView view{VA_FOURCC_NV12, to.width, to.height, pitch, std::size_t{pitch} * to.height,
                         scaled.data()};
  CopyRegion(view, 0, 0, ViewOf(target), static_cast<std::uint32_t>(to.x),
             static_cast<std::uint32_t>(to.y), to.width, to.height);
  *busy = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                               start);
  return VA_STATUS_SUCCESS;
}

}  // namespace mc::fakeva
