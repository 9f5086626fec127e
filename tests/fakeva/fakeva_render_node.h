// The render node libva opened the fake driver for, as the driver sees it.
// A fake machine (tests/fakeva/fake-machine) makes each node a plain file.
// The file holds its GPU's recorded vainfo text.
// So one process can load the driver for several nodes that state different things.
// The node's name also picks a mode meant for that node alone.
#pragma once

#include <va/va_backend.h>

#include <optional>
#include <string>

#include "common/base/result.h"

namespace mc::fakeva {

struct RenderNode {
  int fd = -1;
  // The path the descriptor was opened by, as /proc/self/fd tells it; empty if unknown.
  std::string path;

  // The file name, such as "renderD128"; empty if the path is unknown.
  std::string name() const;
};

// RenderNodeOf is the node of a DRM display; nullopt for any other kind of display.
std::optional<RenderNode> RenderNodeOf(VADriverContextP ctx);

// ReadNodeText reads the whole node, which must be a regular file: a real DRM node would
// block a read() waiting for events. It reads with pread from offset 0 and leaves the
// descriptor, which belongs to the caller, as it was.
Result<std::string> ReadNodeText(const RenderNode& node);

}  // namespace mc::fakeva
