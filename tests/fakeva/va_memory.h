// The fake GPU's memory as VA-API hands it out:
//  - surfaces: the pictures a GPU works on;
//  - images: a CPU-visible layout of a surface, or a copy of one;
//  - buffers: parameters, image bytes, coded bitstreams.
// Everything lives in the client's own memory.
// A surface is NV12 or P010 bytes at a fixed pitch.
// A derived image's buffer is the surface's own bytes.
// A GPU whose memory the CPU can map does the same.
#pragma once

#include <va/va.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <vector>

namespace mc::fakeva {

// The largest picture side the fake takes; a larger one from a caller is refused.
inline constexpr std::uint32_t kLargestSide = 8192;

struct Surface {
  std::uint32_t fourcc = VA_FOURCC_NV12;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  // Bytes per row, of the luma rows and of the interleaved chroma rows alike.
  std::uint32_t pitch = 0;
  // Luma rows allocated (height rounded up to even); the chroma follows them.
  std::uint32_t rows = 0;
  std::vector<std::uint8_t> bytes;

  std::size_t chroma_offset() const { return static_cast<std::size_t>(pitch) * rows; }
  // The bytes of one sample: 1 for NV12, 2 for P010.
  std::uint32_t sample_bytes() const { return fourcc == VA_FOURCC_P010 ? 2 : 1; }
};

// MakeSurface lays out a picture of `fourcc`, NV12 or P010.
// Gives nullopt for another format, or a side of 0 or above kLargestSide.
std::optional<Surface> MakeSurface(std::uint32_t fourcc, std::uint32_t width, std::uint32_t height);

// ImageOf describes a surface-shaped layout as a VAImage (without its ids).
VAImage ImageOf(const Surface& surface);

struct Buffer {
  VABufferType type = VAPictureParameterBufferType;
  std::uint32_t element_size = 0;
  std::uint32_t elements = 0;
  std::vector<std::uint8_t> data;
  // A derived image's buffer maps this surface's bytes instead of `data`.
  std::optional<VASurfaceID> surface;
  // A coded buffer maps as this one segment.
  // Its bytes are the first `coded_size` of `data`.
  VACodedBufferSegment segment{};
  std::uint32_t coded_size = 0;
  std::uint32_t coded_status = 0;
};

struct Image {
  VAImage image{};
  // The surface a derived image shows; nullopt for an image of its own.
  std::optional<VASurfaceID> derived_from;
};

// PictureView is a picture's bytes in a surface's layout: a surface's own, or an image's.
struct PictureView {
  std::uint32_t fourcc = VA_FOURCC_NV12;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::uint32_t pitch = 0;
  std::size_t chroma_offset = 0;
  std::uint8_t* base = nullptr;
};
PictureView ViewOf(Surface& surface);

// CopyRegion copies a rectangle between two views of the same format, chroma included.
// The rectangle must lie inside both and start at even coordinates.
// Gives false when it does not.
bool CopyRegion(const PictureView& from, std::uint32_t from_x, std::uint32_t from_y,
                const PictureView& to, std::uint32_t to_x, std::uint32_t to_y, std::uint32_t width,
                std::uint32_t height);

class VaMemory {
 public:
  VAStatus CreateSurfaces(std::uint32_t fourcc, std::uint32_t width, std::uint32_t height,
                          std::span<VASurfaceID> ids);
  VAStatus DestroySurfaces(std::span<const VASurfaceID> ids);
  Surface* FindSurface(VASurfaceID id);

  VAStatus CreateBuffer(VABufferType type, std::uint32_t size, std::uint32_t elements,
                        const void* data, VABufferID* id);
  VAStatus SetElements(VABufferID id, std::uint32_t elements);
  VAStatus Map(VABufferID id, void** address);
  VAStatus DestroyBuffer(VABufferID id);
  Buffer* FindBuffer(VABufferID id);
  // BufferInfo answers vaBufferInfo.
  VAStatus Info(VABufferID id, VABufferType* type, unsigned* size, unsigned* elements);

  VAStatus CreateImage(const VAImageFormat& format, std::uint32_t width, std::uint32_t height,
                       VAImage* image);
  VAStatus DeriveImage(VASurfaceID surface, VAImage* image);
  VAStatus DestroyImage(VAImageID id);
  // GetImage copies a rectangle of a surface into an image; PutImage the other way.
  // Both sides have the same size: the fake does not scale here.
  VAStatus GetImage(VASurfaceID surface, std::int32_t x, std::int32_t y, std::uint32_t width,
                    std::uint32_t height, VAImageID image);
  VAStatus PutImage(VASurfaceID surface, VAImageID image, std::int32_t src_x, std::int32_t src_y,
                    std::uint32_t src_width, std::uint32_t src_height, std::int32_t dest_x,
                    std::int32_t dest_y, std::uint32_t dest_width, std::uint32_t dest_height);

 private:
  // The bytes an image shows.
  // Its surface's for a derived image, its buffer's otherwise.
  std::optional<PictureView> ViewOfImage(VAImageID id);

  std::map<VASurfaceID, Surface> surfaces_;
  std::map<VABufferID, Buffer> buffers_;
  std::map<VAImageID, Image> images_;
  VASurfaceID next_surface_ = 0x04000000;
  VABufferID next_buffer_ = 0x08000000;
  VAImageID next_image_ = 0x0c000000;
};

}  // namespace mc::fakeva
