#include "drm_client_view.h"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <system_error>

#include "proc_mirror.h"

namespace mc::fakeva {
namespace {

namespace fs = std::filesystem;

std::uint64_t MonotonicNanos() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000 +
         static_cast<std::uint64_t>(now.tv_nsec);
}

}  // namespace

std::unique_ptr<DrmClientView> DrmClientView::Open(const fs::path& proc_root,
                                                   const std::string& node_name, int fd,
                                                   std::string kernel_driver, std::string pdev,
                                                   std::string* error) {
  const int pid = static_cast<int>(getpid());
  if (!MirrorProcess(proc_root, pid, error)) return nullptr;
  const fs::path entry = proc_root / std::to_string(pid);
  const fs::path link = entry / "fd" / std::to_string(fd);
  std::error_code code;
  fs::remove(link, code);
  // The link names the node where the real kernel's would: under /dev/dri.
  fs::create_symlink(fs::path("/dev/dri") / node_name, link, code);
  if (code) {
    *error = "cannot write " + link.string() + ": " + code.message();
    return nullptr;
  }
  // One id per open file, as the kernel numbers its clients: no two live files share one.
  const std::uint64_t client_id = (static_cast<std::uint64_t>(pid) << 16) | (fd & 0xffff);
  std::unique_ptr<DrmClientView> view(new DrmClientView(link, entry / "fdinfo" / std::to_string(fd),
                                                        std::move(kernel_driver), std::move(pdev),
                                                        client_id));
  view->Write();
  return view;
}

DrmClientView::DrmClientView(fs::path fd_link, fs::path fdinfo, std::string driver,
                             std::string pdev, std::uint64_t client_id)
    : fd_link_(std::move(fd_link)),
      fdinfo_(std::move(fdinfo)),
      driver_(std::move(driver)),
      pdev_(std::move(pdev)),
      client_id_(client_id) {}

DrmClientView::~DrmClientView() {
  std::error_code ignored;
  fs::remove(fd_link_, ignored);
  fs::remove(fdinfo_, ignored);
}

void DrmClientView::AddBusy(EngineClass engine, std::chrono::nanoseconds busy) {
  const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(0, busy.count()));
  switch (engine) {
    case EngineClass::kEncode:
      encode_ns_ += ns;
      break;
    case EngineClass::kDecode:
      decode_ns_ += ns;
      break;
    case EngineClass::kEnhance:
      enhance_ns_ += ns;
      break;
  }
  Write();
}

std::string DrmClientView::Text() const {
  std::ostringstream text;
  text << "pos:\t0\nflags:\t02100002\n";
  text << "drm-driver:\t" << driver_ << "\n";
  if (!pdev_.empty()) text << "drm-pdev:\t" << pdev_ << "\n";
  text << "drm-client-id:\t" << client_id_ << "\n";
  if (driver_ == "amdgpu") {
    // amdgpu prints a ring's time once the client has used it.
    text << "drm-engine-gfx:\t" << enhance_ns_ << " ns\n";
    if (decode_ns_ > 0) text << "drm-engine-dec:\t" << decode_ns_ << " ns\n";
    if (encode_ns_ > 0) text << "drm-engine-enc:\t" << encode_ns_ << " ns\n";
  } else if (driver_ == "xe") {
    // xe counts in GPU timestamp cycles; the fake's GPU ticks once a nanosecond.
    const std::uint64_t now = MonotonicNanos();
    text << "drm-cycles-rcs:\t0\ndrm-total-cycles-rcs:\t" << now << "\n";
    text << "drm-cycles-vcs:\t" << encode_ns_ + decode_ns_ << "\ndrm-total-cycles-vcs:\t" << now
         << "\n";
    text << "drm-cycles-vecs:\t" << enhance_ns_ << "\ndrm-total-cycles-vecs:\t" << now << "\n";
  } else {
    text << "drm-engine-render:\t0 ns\ndrm-engine-copy:\t0 ns\n";
    text << "drm-engine-video:\t" << encode_ns_ + decode_ns_ << " ns\n";
    text << "drm-engine-capacity-video:\t1\n";
    text << "drm-engine-video-enhance:\t" << enhance_ns_ << " ns\n";
  }
  return text.str();
}

void DrmClientView::Write() const {
  // Written aside and renamed, so that a reader never sees half a file.
  const fs::path aside = fdinfo_.string() + ".new";
  {
    std::ofstream out(aside, std::ios::trunc);
    out << Text();
    if (!out) return;
  }
  std::error_code ignored;
  fs::rename(aside, fdinfo_, ignored);
}

std::pair<std::string, std::string> KernelDriverOf(const fs::path& machine,
                                                   const std::string& node_name) {
  const fs::path device = machine / "sys" / "class" / "drm" / node_name / "device";
  std::error_code code;
  const fs::path driver = fs::read_symlink(device / "driver", code);
  if (code) return {"", ""};
  const fs::path slot = fs::read_symlink(device, code);
  return {driver.filename().string(), code ? "" : slot.filename().string()};
}

}  // namespace mc::fakeva
