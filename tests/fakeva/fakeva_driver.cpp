// fakeva_drv_video.so: a VA-API driver that Debian's real libva loads and that states
// exactly what one recorded vainfo text says. libva finds it through LIBVA_DRIVERS_PATH
// and LIBVA_DRIVER_NAME=fakeva. The driver's init reads the dump named by FAKEVA_DUMP or,
// when that is unset, the text the render node itself holds (a fake machine's nodes are
// plain files, one dump each). FAKEVA_MODE=hang makes the init never return and
// FAKEVA_MODE=crash makes it die of SIGSEGV, so that the tests can show what a hung or
// crashing real driver does to its caller; FAKEVA_MODE_<node>, such as
// FAKEVA_MODE_renderD129, does the same for that node alone.
#include <signal.h>
#include <unistd.h>
#include <va/va_backend.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "fake_driver_state.h"
#include "fakeva_render_node.h"
#include "fakeva_vtable.h"
#include "vainfo_dump.h"

namespace mc::fakeva {
namespace {

// Refuse reports the reason the init fails through libva's error callback, so that it
// reaches the caller's log the way a real driver's complaint would, and returns the
// status vaInitialize then fails with.
VAStatus Refuse(VADriverContextP ctx, const std::string& reason) {
  const std::string message = "fakeva: " + reason + "\n";
  if (ctx->error_callback) {
    ctx->error_callback(ctx, message.c_str());
  } else {
    std::fputs(message.c_str(), stderr);
  }
  return VA_STATUS_ERROR_UNKNOWN;
}

[[noreturn]] void HangForever() {
  // pause() returns after a handled signal; only a signal that ends the process may end
  // the hang, as with a driver stuck in the kernel.
  for (;;) pause();
}

// The mode for this node: FAKEVA_MODE_<node name> when set, else FAKEVA_MODE.
std::string ModeFor(const std::optional<RenderNode>& node) {
  if (node && !node->name().empty()) {
    if (const char* mode = std::getenv(("FAKEVA_MODE_" + node->name()).c_str())) return mode;
  }
  const char* mode = std::getenv("FAKEVA_MODE");
  return mode ? mode : "";
}

// The dump to state: the file FAKEVA_DUMP names, else the render node's own text.
Result<VainfoDump> DumpFor(const std::optional<RenderNode>& node, std::string& source) {
  if (const char* path = std::getenv("FAKEVA_DUMP"); path && *path) {
    source = path;
    Result<VainfoDump> dump = ReadVainfoDump(path);
    if (!dump) return Error{"FAKEVA_DUMP: " + dump.error()};
    return dump;
  }
  if (!node)
    return Error{"FAKEVA_DUMP is not set and the display has no render node to read a dump from"};
  source = node->path;
  Result<std::string> text = ReadNodeText(*node);
  if (!text) return Error{"FAKEVA_DUMP is not set and " + text.error()};
  Result<VainfoDump> dump = ParseVainfoDump(*text);
  if (!dump)
    return Error{"FAKEVA_DUMP is not set and the render node " + node->path + ": " + dump.error()};
  return dump;
}

VAStatus Initialise(VADriverContextP ctx) {
  const std::optional<RenderNode> node = RenderNodeOf(ctx);
  const std::string mode = ModeFor(node);
  if (mode == "hang") HangForever();
  if (mode == "crash") {
    raise(SIGSEGV);
    return Refuse(ctx, "FAKEVA_MODE is crash, but SIGSEGV did not end the process");
  }
  if (!mode.empty()) return Refuse(ctx, "unknown FAKEVA_MODE '" + mode + "'");

  std::string source;
  Result<VainfoDump> dump = DumpFor(node, source);
  if (!dump) return Refuse(ctx, dump.error());
  if (!dump->initialised) return Refuse(ctx, source + " records a run whose vaInitialize failed");

  auto state = std::make_unique<FakeDriverState>(std::move(dump).value());
  // libva sizes the callers' arrays by these maxima and refuses a driver that leaves any
  // of them 0, so each is at least 1 even where the driver lists nothing.
  ctx->max_profiles = std::max(1, static_cast<int>(state->profiles().size()));
  ctx->max_entrypoints = state->max_entrypoints();
  ctx->max_attributes = 1;
  ctx->max_image_formats = 1;
  ctx->max_subpic_formats = 1;
  ctx->max_display_attributes = 1;
  ctx->str_vendor = state->vendor().c_str();
  InstallVtable(*ctx->vtable);
  ctx->pDriverData = state.release();
  return VA_STATUS_SUCCESS;
}

}  // namespace
}  // namespace mc::fakeva

// libva 2.17 looks up __vaDriverInit_1_17, then _1_16 and so on down to _1_0, and calls
// the first it finds (LD_DEBUG=symbols shows the lookups), so _1_0 alone serves it. It is
// the one symbol the driver exports (fakeva_driver.map hides the rest).
extern "C" __attribute__((visibility("default"))) VAStatus __vaDriverInit_1_0(
    VADriverContextP ctx) {
  return mc::fakeva::Initialise(ctx);
}
