#include "fakeva_render_node.h"

#include <sys/stat.h>
#include <unistd.h>
#include <va/va_drmcommon.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace mc::fakeva {

std::string RenderNode::name() const { return std::filesystem::path(path).filename().string(); }

std::optional<RenderNode> RenderNodeOf(VADriverContextP ctx) {
  if ((ctx->display_type & VA_DISPLAY_MAJOR_MASK) != VA_DISPLAY_DRM || !ctx->drm_state)
    return std::nullopt;
  RenderNode node;
  node.fd = static_cast<const drm_state*>(ctx->drm_state)->fd;
  std::error_code error;
  const auto path =
      std::filesystem::read_symlink("/proc/self/fd/" + std::to_string(node.fd), error);
  if (!error) node.path = path.string();
  return node;
}

Result<std::string> ReadNodeText(const RenderNode& node) {
  const std::string name = node.path.empty() ? "descriptor " + std::to_string(node.fd) : node.path;
  struct stat status {};
  if (fstat(node.fd, &status) != 0)
    return Error{"cannot stat " + name + ": " + std::strerror(errno)};
  if (!S_ISREG(status.st_mode)) return Error{name + " is not a plain file holding a vainfo dump"};
  std::string text;
  char buffer[8192];
  for (;;) {
    const ssize_t got = pread(node.fd, buffer, sizeof buffer, static_cast<off_t>(text.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Error{"cannot read " + name + ": " + std::strerror(errno)};
    if (got == 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace mc::fakeva
