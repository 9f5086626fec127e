// The fake's memory against hostile callers: sizes, rectangles and ids that are wrong
// are refused with VA's statuses, and what is right round-trips exactly.
#include "va_memory.h"

#include <gtest/gtest.h>

#include <numeric>

namespace mc::fakeva {
namespace {

TEST(VaMemory, MakesNv12AndP010SurfacesWithPaddedRowsAndRefusesOtherFormatsAndSides) {
  const std::optional<Surface> nv12 = MakeSurface(VA_FOURCC_NV12, 1279, 719);
  ASSERT_TRUE(nv12);
  EXPECT_EQ(nv12->pitch, 1280u);
  EXPECT_EQ(nv12->rows, 720u);
  EXPECT_EQ(nv12->bytes.size(), 1280u * 720 * 3 / 2);
  const std::optional<Surface> p010 = MakeSurface(VA_FOURCC_P010, 100, 100);
  ASSERT_TRUE(p010);
  EXPECT_EQ(p010->pitch, 256u);
  EXPECT_FALSE(MakeSurface(VA_FOURCC_YUY2, 64, 64));
  EXPECT_FALSE(MakeSurface(VA_FOURCC_NV12, 0, 64));
  EXPECT_FALSE(MakeSurface(VA_FOURCC_NV12, kLargestSide + 1, 64));
}

TEST(VaMemory, RefusesBuffersThatAreEmptyOrTooLargeEvenWhenTheProductOverflows) {
  VaMemory memory;
  VABufferID id = VA_INVALID_ID;
  EXPECT_EQ(memory.CreateBuffer(VAImageBufferType, 0, 1, nullptr, &id),
            VA_STATUS_ERROR_ALLOCATION_FAILED);
  EXPECT_EQ(memory.CreateBuffer(VAImageBufferType, 1u << 20, 257, nullptr, &id),
            VA_STATUS_ERROR_ALLOCATION_FAILED);
  EXPECT_EQ(memory.CreateBuffer(VAImageBufferType, 0x10000, 0x10001, nullptr, &id),
            VA_STATUS_ERROR_ALLOCATION_FAILED);
  ASSERT_EQ(memory.CreateBuffer(VAImageBufferType, 16, 2, nullptr, &id), VA_STATUS_SUCCESS);
  EXPECT_EQ(memory.SetElements(id, 3), VA_STATUS_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(memory.SetElements(id, 1), VA_STATUS_SUCCESS);
  EXPECT_EQ(memory.DestroyBuffer(id), VA_STATUS_SUCCESS);
  EXPECT_EQ(memory.DestroyBuffer(id), VA_STATUS_ERROR_INVALID_BUFFER);
}

TEST(VaMemory, ACodedBufferMapsAsOneSegmentOfWhatWasWritten) {
  VaMemory memory;
  VABufferID id = VA_INVALID_ID;
  ASSERT_EQ(memory.CreateBuffer(VAEncCodedBufferType, 4096, 1, nullptr, &id), VA_STATUS_SUCCESS);
  memory.FindBuffer(id)->coded_size = 100;
  void* mapped = nullptr;
  ASSERT_EQ(memory.Map(id, &mapped), VA_STATUS_SUCCESS);
  const auto* segment = static_cast<VACodedBufferSegment*>(mapped);
  EXPECT_EQ(segment->size, 100u);
  EXPECT_EQ(segment->next, nullptr);
  EXPECT_EQ(segment->buf, memory.FindBuffer(id)->data.data());
}

TEST(VaMemory, ADerivedImageIsTheSurfacesOwnBytesAndGetImageCopiesThem) {
  VaMemory memory;
  VASurfaceID surface = VA_INVALID_ID;
  ASSERT_EQ(memory.CreateSurfaces(VA_FOURCC_NV12, 64, 48, {&surface, 1}), VA_STATUS_SUCCESS);
  std::vector<std::uint8_t>& bytes = memory.FindSurface(surface)->bytes;
  std::iota(bytes.begin(), bytes.end(), 0);

  VAImage derived{};
  ASSERT_EQ(memory.DeriveImage(surface, &derived), VA_STATUS_SUCCESS);
  void* mapped = nullptr;
  ASSERT_EQ(memory.Map(derived.buf, &mapped), VA_STATUS_SUCCESS);
  EXPECT_EQ(mapped, bytes.data());
  EXPECT_EQ(derived.offsets[1], derived.pitches[0] * 48);

  VAImage copy{};
  const VAImageFormat nv12{VA_FOURCC_NV12, VA_LSB_FIRST, 12, 0, 0, 0, 0, 0, {}};
  ASSERT_EQ(memory.CreateImage(nv12, 64, 48, &copy), VA_STATUS_SUCCESS);
  ASSERT_EQ(memory.GetImage(surface, 0, 0, 64, 48, copy.image_id), VA_STATUS_SUCCESS);
  ASSERT_EQ(memory.Map(copy.buf, &mapped), VA_STATUS_SUCCESS);
  EXPECT_EQ(std::vector<std::uint8_t>(static_cast<std::uint8_t*>(mapped),
                                      static_cast<std::uint8_t*>(mapped) + bytes.size()),
            bytes);
}

TEST(VaMemory, RefusesRectanglesOutsideTheSurfaceOrAtOddCoordinatesAndUnknownIds) {
  VaMemory memory;
  VASurfaceID surface = VA_INVALID_ID;
  ASSERT_EQ(memory.CreateSurfaces(VA_FOURCC_NV12, 64, 48, {&surface, 1}), VA_STATUS_SUCCESS);
  VAImage image{};
  const VAImageFormat nv12{VA_FOURCC_NV12, VA_LSB_FIRST, 12, 0, 0, 0, 0, 0, {}};
  ASSERT_EQ(memory.CreateImage(nv12, 32, 32, &image), VA_STATUS_SUCCESS);
  EXPECT_EQ(memory.GetImage(surface, 40, 0, 32, 32, image.image_id),
            VA_STATUS_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(memory.GetImage(surface, 1, 0, 32, 32, image.image_id),
            VA_STATUS_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(memory.GetImage(surface, -2, 0, 32, 32, image.image_id),
            VA_STATUS_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(memory.GetImage(surface, 0, 0, 0xffffffffu, 2, image.image_id),
            VA_STATUS_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(memory.PutImage(surface, image.image_id, 0, 0, 32, 32, 0, 0, 16, 16),
            VA_STATUS_ERROR_UNIMPLEMENTED);
  EXPECT_EQ(memory.GetImage(surface + 1, 0, 0, 32, 32, image.image_id),
            VA_STATUS_ERROR_INVALID_SURFACE);
  EXPECT_EQ(memory.GetImage(surface, 0, 0, 32, 32, image.image_id + 1),
            VA_STATUS_ERROR_INVALID_IMAGE);
  VAImage none{};
  EXPECT_EQ(memory.DeriveImage(surface + 1, &none), VA_STATUS_ERROR_INVALID_SURFACE);
  EXPECT_EQ(memory.DestroyImage(image.image_id), VA_STATUS_SUCCESS);
  EXPECT_EQ(memory.DestroyImage(image.image_id), VA_STATUS_ERROR_INVALID_IMAGE);
}

}  // namespace
}  // namespace mc::fakeva
