#include "va_engine.h"

#include <unistd.h>

#include <filesystem>

namespace mc::fakeva {

namespace wire = fakenv::wire;

std::unique_ptr<fakenv::EngineClient> StartEngine(fakenv::EngineClient::Role role,
                                                  const std::string& state_dir,
                                                  std::string* error) {
  // The engine appends its samples there; it does not make the directory.
  std::error_code ignored;
  std::filesystem::create_directories(std::filesystem::path(state_dir) / "samples", ignored);
  return fakenv::EngineClient::Start(role, state_dir, static_cast<std::uint32_t>(getpid()), error);
}

std::span<const std::uint8_t> WirePicture(const Surface& surface,
                                          std::vector<std::uint8_t>& packed) {
  const std::size_t luma = std::size_t{surface.pitch} * surface.height;
  const std::size_t size =
      wire::PictureBytes(wire::PixelFormat::kNv12, surface.pitch, surface.height);
  if (luma == surface.chroma_offset()) return {surface.bytes.data(), size};
  const auto begin = surface.bytes.begin();
  const auto chroma = begin + static_cast<std::ptrdiff_t>(surface.chroma_offset());
  packed.assign(begin, begin + static_cast<std::ptrdiff_t>(luma));
  packed.insert(packed.end(), chroma, chroma + static_cast<std::ptrdiff_t>(size - luma));
  return packed;
}

VAStatus Exchange(fakenv::EngineClient& engine, wire::Request request,
                  std::span<const std::byte> body, std::span<const std::byte> bytes,
                  VAStatus failed, const std::function<VAStatus(const wire::Message&)>& each,
                  std::string* error) {
  if (!engine.Send(request, body, bytes)) {
    *error = "the engine is gone";
    return VA_STATUS_ERROR_HW_BUSY;
  }
  VAStatus status = VA_STATUS_SUCCESS;
  for (;;) {
    const std::optional<wire::Message> reply = engine.Receive();
    if (!reply) {
      *error = "the engine is gone";
      return VA_STATUS_ERROR_HW_BUSY;
    }
    if (static_cast<wire::Reply>(reply->header.type) != wire::Reply::kDone) {
      // The rest of the replies are read even after a failure, to keep the exchange whole.
      if (status == VA_STATUS_SUCCESS) status = each(*reply);
      continue;
    }
    if (reply->header.status == 0) return status;
    *error =
        "the engine failed: " +
        std::string(reinterpret_cast<const char*>(reply->payload.data()), reply->payload.size());
    return failed;
  }
}

}  // namespace mc::fakeva
