// The kernel's view of the fake GPU's work.
// A real kernel driver prints DRM usage statistics in /proc/PID/fdinfo/FD.
// That is for an open render node (Documentation/gpu/drm-usage-stats.rst).
// This writes them into the fake machine's /proc (proc_mirror.h).
// They are for the process that loaded the driver.
// The keys are those of the kernel driver the fake machine gives the GPU:
//  - i915: drm-engine-video and drm-engine-video-enhance, in ns;
//  - xe: drm-cycles-vcs/vecs with drm-total-cycles-*;
//  - amdgpu: drm-engine-enc, -dec and -gfx, in ns.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

namespace mc::fakeva {

// The engine classes of a media GPU:
//  - the codec engine: i915's VCS, amdgpu's VCN/VCE (split into encode and decode);
//  - the video-enhance engine: scaling, colour conversion.
enum class EngineClass { kEncode, kDecode, kEnhance };

class DrmClientView {
 public:
  // Open registers the render node `node_name` (renderD128), open as descriptor `fd`.
  // The node is of `kernel_driver` ("i915", "xe" or "amdgpu") at PCI slot `pdev`.
  // It is registered for this process under `proc_root`.
  // Gives nullptr, with the reason in `*error`, when the entry cannot be written.
  static std::unique_ptr<DrmClientView> Open(const std::filesystem::path& proc_root,
                                             const std::string& node_name, int fd,
                                             std::string kernel_driver, std::string pdev,
                                             std::string* error);
  // The destructor removes the descriptor's entries.
  // So does the kernel when a file closes.
  ~DrmClientView();
  DrmClientView(const DrmClientView&) = delete;
  DrmClientView& operator=(const DrmClientView&) = delete;

  // AddBusy counts `busy` of work on one engine class and rewrites the fdinfo.
  void AddBusy(EngineClass engine, std::chrono::nanoseconds busy);

 private:
  DrmClientView(std::filesystem::path fd_link, std::filesystem::path fdinfo, std::string driver,
                std::string pdev, std::uint64_t client_id);
  std::string Text() const;
  void Write() const;

  const std::filesystem::path fd_link_;
  const std::filesystem::path fdinfo_;
  const std::string driver_;
  const std::string pdev_;
  const std::uint64_t client_id_;
  std::uint64_t encode_ns_ = 0;
  std::uint64_t decode_ns_ = 0;
  std::uint64_t enhance_ns_ = 0;
};

// KernelDriverOf reads the kernel driver and PCI slot of the render node `node_name`.
// It reads them from the sysfs of the fake machine `machine`.
// It gives {"", ""} where the sysfs says nothing.
std::pair<std::string, std::string> KernelDriverOf(const std::filesystem::path& machine,
                                                   const std::string& node_name);

}  // namespace mc::fakeva
