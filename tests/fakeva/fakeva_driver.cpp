// fakeva_drv_video.so: a VA-API driver that Debian's real libva loads.
// It states exactly what one recorded vainfo text says.
// libva finds it through LIBVA_DRIVERS_PATH and LIBVA_DRIVER_NAME=fakeva.
//
// The driver's init reads the dump named by FAKEVA_DUMP.
// When that is unset, it reads the text the render node itself holds.
// A fake machine's nodes are plain files, one dump each.
//
// FAKEVA_MODE shows what a hung or crashing real driver does to its caller:
//  - hang: the init never returns;
//  - crash: the init dies of SIGSEGV.
// FAKEVA_MODE_<node>, such as FAKEVA_MODE_renderD129, does the same for that node alone.
#include <signal.h>
#include <unistd.h>
#include <va/va_backend.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "driver_data.h"
#include "fake_driver_state.h"
#include "fakeva_render_node.h"
#include "fakeva_vtable.h"
#include "vainfo_dump.h"

namespace mc::fakeva {
namespace {

// Refuse reports why the init fails, through libva's error callback.
// So it reaches the caller's log the way a real driver's complaint would.
// It returns the status vaInitialize then fails with.
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
  // pause() returns after a handled signal.
  // Only a signal that ends the process may end the hang.
  // A driver stuck in the kernel behaves the same.
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
    if (!dump) return Error{"FAKEVA_DUMP: " + dump.error_message()};
    return dump;
  }
  if (!node)
    return Error{"FAKEVA_DUMP is not set and the display has no render node to read a dump from"};
  source = node->path;
  Result<std::string> text = ReadNodeText(*node);
  if (!text) return Error{"FAKEVA_DUMP is not set and " + text.error_message()};
  Result<VainfoDump> dump = ParseVainfoDump(*text);
  if (!dump)
    return Error{"FAKEVA_DUMP is not set and the render node " + node->path + ": " +
                 dump.error_message()};
  return dump;
}

// The kernel driver of a GPU without a fake machine's sysfs.
// It is amdgpu under Mesa, else i915.
std::string KernelDriverForVendor(const std::string& vendor) {
  return vendor.find("Mesa") != std::string::npos || vendor.find("AMD") != std::string::npos ||
                 vendor.find("radeon") != std::string::npos
             ? "amdgpu"
             : "i915";
}

// OpenKernelView sets up what the kernel would show of this display on a fake machine.
// run-on names the machine in FAKEVA_MACHINE. The view has:
//  - the render node's fdinfo in MACHINE/proc;
//    its keys are those of the node's kernel driver in MACHINE/sys;
//  - the engines' state directory, MACHINE/state, or FAKEVA_STATE_DIR.
// Outside a fake machine there is no view.
bool OpenKernelView(const std::optional<RenderNode>& node, DriverData& data, std::string& error) {
  const char* machine = std::getenv("FAKEVA_MACHINE");
  const char* state_dir = std::getenv("FAKEVA_STATE_DIR");
  if (state_dir && *state_dir) {
    data.state_dir = state_dir;
  } else {
    data.state_dir = machine && *machine ? std::string(machine) + "/state"
                                         : "/tmp/fakeva-state-" + std::to_string(getuid());
  }
  if (!machine || !*machine || !node || node->name().empty()) return true;
  auto [driver, pdev] = KernelDriverOf(machine, node->name());
  if (driver.empty()) driver = KernelDriverForVendor(data.state.vendor());
  std::string why;
  data.view = DrmClientView::Open(std::filesystem::path(machine) / "proc", node->name(), node->fd,
                                  driver, pdev, &why);
  if (!data.view) error = "the fake machine's /proc: " + why;
  return data.view != nullptr;
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
  if (!dump) return Refuse(ctx, dump.error_message());
  if (!dump->initialised) return Refuse(ctx, source + " records a run whose vaInitialize failed");

  auto data = std::make_unique<DriverData>(std::move(dump).value());
  const FakeDriverState* state = &data->state;
  if (std::string error; !OpenKernelView(node, *data, error)) return Refuse(ctx, error);
  // libva sizes the callers' arrays by these maxima.
  // It refuses a driver that leaves any of them 0.
  // So each is at least 1, even where the driver lists nothing.
  ctx->max_profiles = std::max(1, static_cast<int>(state->profiles().size()));
  ctx->max_entrypoints = state->max_entrypoints();
  ctx->max_attributes = 1;
  ctx->max_image_formats = kImageFormats;
  ctx->max_subpic_formats = 1;
  ctx->max_display_attributes = 1;
  ctx->str_vendor = state->vendor().c_str();
  InstallVtable(*ctx->vtable);
  if (ctx->vtable_vpp) InstallVppVtable(*ctx->vtable_vpp);
  ctx->pDriverData = data.release();
  return VA_STATUS_SUCCESS;
}

}  // namespace
}  // namespace mc::fakeva

// libva 2.17 looks up __vaDriverInit_1_17, then _1_16 and so on down to _1_0.
// It calls the first it finds; LD_DEBUG=symbols shows the lookups.
// So _1_0 alone serves it.
// It is the one symbol the driver exports; fakeva_driver.map hides the rest.
extern "C" __attribute__((visibility("default"))) VAStatus __vaDriverInit_1_0(
    VADriverContextP ctx) {
  return mc::fakeva::Initialise(ctx);
}
