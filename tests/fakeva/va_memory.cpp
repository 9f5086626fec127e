#include "va_memory.h"

#include <algorithm>
#include <cstring>

namespace mc::fakeva {
namespace {

// Rows are padded to 64 bytes, as GPUs pad them for their tiling.
constexpr std::uint32_t kPitchAlignment = 64;

std::uint32_t RoundUp(std::uint32_t value, std::uint32_t step) {
  return (value + step - 1) / step * step;
}

bool KnownFourcc(std::uint32_t fourcc) {
  return fourcc == VA_FOURCC_NV12 || fourcc == VA_FOURCC_P010;
}

// Inside says whether [start, start + length) lies within [0, limit).
bool Inside(std::uint32_t start, std::uint32_t length, std::uint32_t limit) {
  return start <= limit && length <= limit - start;
}

void CopyRows(const std::uint8_t* from, std::size_t from_pitch, std::uint8_t* to,
              std::size_t to_pitch, std::size_t row_bytes, std::uint32_t rows) {
  for (std::uint32_t row = 0; row < rows; ++row)
    std::memcpy(to + row * to_pitch, from + row * from_pitch, row_bytes);
}

}  // namespace

std::optional<Surface> MakeSurface(std::uint32_t fourcc, std::uint32_t width,
                                   std::uint32_t height) {
  if (!KnownFourcc(fourcc) || width == 0 || height == 0 || width > kLargestSide ||
      height > kLargestSide) {
    return std::nullopt;
  }
  Surface surface;
  surface.fourcc = fourcc;
  surface.width = width;
  surface.height = height;
  surface.pitch = RoundUp(RoundUp(width, 2) * surface.sample_bytes(), kPitchAlignment);
  surface.rows = RoundUp(height, 2);
  surface.bytes.assign(surface.chroma_offset() + surface.chroma_offset() / 2, 0);
  return surface;
}

VAImage ImageOf(const Surface& surface) {
  VAImage image{};
  image.image_id = VA_INVALID_ID;
  image.buf = VA_INVALID_ID;
  image.format.fourcc = surface.fourcc;
  image.format.byte_order = VA_LSB_FIRST;
  image.format.bits_per_pixel = surface.fourcc == VA_FOURCC_P010 ? 24 : 12;
  image.width = static_cast<std::uint16_t>(surface.width);
  image.height = static_cast<std::uint16_t>(surface.height);
  image.data_size = static_cast<std::uint32_t>(surface.bytes.size());
  image.num_planes = 2;
  image.pitches[0] = image.pitches[1] = surface.pitch;
  image.offsets[0] = 0;
  image.offsets[1] = static_cast<std::uint32_t>(surface.chroma_offset());
  return image;
}

PictureView ViewOf(Surface& surface) {
  return {surface.fourcc, surface.width,           surface.height,
          surface.pitch,  surface.chroma_offset(), surface.bytes.data()};
}

bool CopyRegion(const PictureView& from, std::uint32_t from_x, std::uint32_t from_y,
                const PictureView& to, std::uint32_t to_x, std::uint32_t to_y, std::uint32_t width,
                std::uint32_t height) {
  if (from.fourcc != to.fourcc || ((from_x | from_y | to_x | to_y) & 1) != 0 ||
      !Inside(from_x, width, from.width) || !Inside(from_y, height, from.height) ||
      !Inside(to_x, width, to.width) || !Inside(to_y, height, to.height)) {
    return false;
  }
  const std::size_t sample = from.fourcc == VA_FOURCC_P010 ? 2 : 1;
  CopyRows(from.base + from_y * std::size_t{from.pitch} + from_x * sample, from.pitch,
           to.base + to_y * std::size_t{to.pitch} + to_x * sample, to.pitch, width * sample,
           height);
  // The chroma plane has half the rows, with U and V interleaved over the full width.
  const std::uint32_t chroma_rows = (height + 1) / 2;
  const std::size_t chroma_bytes = ((width + 1) / 2) * 2 * sample;
  CopyRows(
      from.base + from.chroma_offset + (from_y / 2) * std::size_t{from.pitch} + from_x * sample,
      from.pitch, to.base + to.chroma_offset + (to_y / 2) * std::size_t{to.pitch} + to_x * sample,
      to.pitch, chroma_bytes, chroma_rows);
  return true;
}

VAStatus VaMemory::CreateSurfaces(std::uint32_t fourcc, std::uint32_t width, std::uint32_t height,
                                  std::span<VASurfaceID> ids) {
  if (!KnownFourcc(fourcc)) return VA_STATUS_ERROR_INVALID_IMAGE_FORMAT;
  std::optional<Surface> layout = MakeSurface(fourcc, width, height);
  if (!layout) return VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED;
  for (VASurfaceID& id : ids) {
    id = next_surface_++;
    surfaces_.emplace(id, *layout);
  }
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::DestroySurfaces(std::span<const VASurfaceID> ids) {
  for (const VASurfaceID id : ids) {
    if (!surfaces_.contains(id)) return VA_STATUS_ERROR_INVALID_SURFACE;
  }
  for (const VASurfaceID id : ids) surfaces_.erase(id);
  return VA_STATUS_SUCCESS;
}

Surface* VaMemory::FindSurface(VASurfaceID id) {
  auto found = surfaces_.find(id);
  return found == surfaces_.end() ? nullptr : &found->second;
}

VAStatus VaMemory::CreateBuffer(VABufferType type, std::uint32_t size, std::uint32_t elements,
                                const void* data, VABufferID* id) {
  if (!id) return VA_STATUS_ERROR_INVALID_PARAMETER;
  // A caller's size is not trusted: 256 MiB is more than any picture or bitstream here.
  const std::uint64_t total = std::uint64_t{size} * elements;
  if (size == 0 || elements == 0 || total > (256u << 20)) return VA_STATUS_ERROR_ALLOCATION_FAILED;
  Buffer buffer;
  buffer.type = type;
  buffer.element_size = size;
  buffer.elements = elements;
  buffer.data.assign(total, 0);
  if (data) std::memcpy(buffer.data.data(), data, total);
  *id = next_buffer_++;
  buffers_.emplace(*id, std::move(buffer));
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::SetElements(VABufferID id, std::uint32_t elements) {
  Buffer* buffer = FindBuffer(id);
  if (!buffer) return VA_STATUS_ERROR_INVALID_BUFFER;
  if (std::uint64_t{elements} * buffer->element_size > buffer->data.size())
    return VA_STATUS_ERROR_INVALID_PARAMETER;
  buffer->elements = elements;
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::Map(VABufferID id, void** address) {
  if (!address) return VA_STATUS_ERROR_INVALID_PARAMETER;
  Buffer* buffer = FindBuffer(id);
  if (!buffer) return VA_STATUS_ERROR_INVALID_BUFFER;
  if (buffer->surface) {
    Surface* surface = FindSurface(*buffer->surface);
    if (!surface) return VA_STATUS_ERROR_INVALID_SURFACE;
    *address = surface->bytes.data();
  } else if (buffer->type == VAEncCodedBufferType) {
    buffer->segment = VACodedBufferSegment{};
    buffer->segment.size = buffer->coded_size;
    buffer->segment.status = buffer->coded_status;
    buffer->segment.buf = buffer->data.data();
    *address = &buffer->segment;
  } else {
    *address = buffer->data.data();
  }
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::DestroyBuffer(VABufferID id) {
  return buffers_.erase(id) ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_INVALID_BUFFER;
}

Buffer* VaMemory::FindBuffer(VABufferID id) {
  auto found = buffers_.find(id);
  return found == buffers_.end() ? nullptr : &found->second;
}

VAStatus VaMemory::Info(VABufferID id, VABufferType* type, unsigned* size, unsigned* elements) {
  Buffer* buffer = FindBuffer(id);
  if (!buffer) return VA_STATUS_ERROR_INVALID_BUFFER;
  if (!type || !size || !elements) return VA_STATUS_ERROR_INVALID_PARAMETER;
  *type = buffer->type;
  *size = buffer->element_size;
  *elements = buffer->elements;
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::CreateImage(const VAImageFormat& format, std::uint32_t width,
                               std::uint32_t height, VAImage* image) {
  if (!image) return VA_STATUS_ERROR_INVALID_PARAMETER;
  if (!KnownFourcc(format.fourcc)) return VA_STATUS_ERROR_INVALID_IMAGE_FORMAT;
  std::optional<Surface> layout = MakeSurface(format.fourcc, width, height);
  if (!layout) return VA_STATUS_ERROR_RESOLUTION_NOT_SUPPORTED;
  Image made;
  made.image = ImageOf(*layout);
  const VAStatus status =
      CreateBuffer(VAImageBufferType, made.image.data_size, 1, nullptr, &made.image.buf);
  if (status != VA_STATUS_SUCCESS) return status;
  made.image.image_id = next_image_++;
  *image = made.image;
  images_.emplace(made.image.image_id, made);
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::DeriveImage(VASurfaceID surface_id, VAImage* image) {
  if (!image) return VA_STATUS_ERROR_INVALID_PARAMETER;
  Surface* surface = FindSurface(surface_id);
  if (!surface) return VA_STATUS_ERROR_INVALID_SURFACE;
  Image made;
  made.image = ImageOf(*surface);
  made.derived_from = surface_id;
  // The buffer holds no bytes of its own: mapping it maps the surface.
  Buffer buffer;
  buffer.type = VAImageBufferType;
  buffer.element_size = made.image.data_size;
  buffer.elements = 1;
  buffer.surface = surface_id;
  made.image.buf = next_buffer_++;
  buffers_.emplace(made.image.buf, std::move(buffer));
  made.image.image_id = next_image_++;
  *image = made.image;
  images_.emplace(made.image.image_id, made);
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::DestroyImage(VAImageID id) {
  auto found = images_.find(id);
  if (found == images_.end()) return VA_STATUS_ERROR_INVALID_IMAGE;
  buffers_.erase(found->second.image.buf);
  images_.erase(found);
  return VA_STATUS_SUCCESS;
}

std::optional<PictureView> VaMemory::ViewOfImage(VAImageID id) {
  auto found = images_.find(id);
  if (found == images_.end()) return std::nullopt;
  const VAImage& image = found->second.image;
  if (found->second.derived_from) {
    Surface* surface = FindSurface(*found->second.derived_from);
    if (!surface) return std::nullopt;
    return ViewOf(*surface);
  }
  Buffer* buffer = FindBuffer(image.buf);
  if (!buffer || buffer->data.size() < image.data_size) return std::nullopt;
  return PictureView{image.format.fourcc, image.width,      image.height,
                     image.pitches[0],    image.offsets[1], buffer->data.data()};
}

VAStatus VaMemory::GetImage(VASurfaceID surface_id, std::int32_t x, std::int32_t y,
                            std::uint32_t width, std::uint32_t height, VAImageID image) {
  Surface* surface = FindSurface(surface_id);
  if (!surface) return VA_STATUS_ERROR_INVALID_SURFACE;
  const std::optional<PictureView> view = ViewOfImage(image);
  if (!view) return VA_STATUS_ERROR_INVALID_IMAGE;
  if (view->fourcc != surface->fourcc) return VA_STATUS_ERROR_INVALID_IMAGE_FORMAT;
  if (x < 0 || y < 0 ||
      !CopyRegion(ViewOf(*surface), static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                  *view, 0, 0, width, height)) {
    return VA_STATUS_ERROR_INVALID_PARAMETER;
  }
  return VA_STATUS_SUCCESS;
}

VAStatus VaMemory::PutImage(VASurfaceID surface_id, VAImageID image, std::int32_t src_x,
                            std::int32_t src_y, std::uint32_t src_width, std::uint32_t src_height,
                            std::int32_t dest_x, std::int32_t dest_y, std::uint32_t dest_width,
                            std::uint32_t dest_height) {
  Surface* surface = FindSurface(surface_id);
  if (!surface) return VA_STATUS_ERROR_INVALID_SURFACE;
  const std::optional<PictureView> view = ViewOfImage(image);
  if (!view) return VA_STATUS_ERROR_INVALID_IMAGE;
  if (view->fourcc != surface->fourcc) return VA_STATUS_ERROR_INVALID_IMAGE_FORMAT;
  if (src_width != dest_width || src_height != dest_height) return VA_STATUS_ERROR_UNIMPLEMENTED;
  if (src_x < 0 || src_y < 0 || dest_x < 0 || dest_y < 0 ||
      !CopyRegion(*view, static_cast<std::uint32_t>(src_x), static_cast<std::uint32_t>(src_y),
                  ViewOf(*surface), static_cast<std::uint32_t>(dest_x),
                  static_cast<std::uint32_t>(dest_y), src_width, src_height)) {
    return VA_STATUS_ERROR_INVALID_PARAMETER;
  }
  return VA_STATUS_SUCCESS;
}

}  // namespace mc::fakeva
