// A sysfs tree in a test's directory, laid out as the kernel lays out a PCI GPU's render
// node: class/drm/renderD<n> links to the node under the PCI device, whose `device` link,
// `subsystem`, `driver`, `vendor` and `device` files discovery reads.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace mc::testing {

struct FakePciGpu {
  std::string node = "renderD128";
  std::string address = "0000:00:02.0";
  std::string vendor = "0x8086";
  std::string device = "0x46a6";
  std::string driver = "i915";
};

// AddFakePciGpu lays the GPU out under <dir>/sys and creates <dir>/dev/dri/<node> as a
// plain file.
void AddFakePciGpu(const TempDir& dir, const FakePciGpu& gpu);

// FakeMachineFlags point the binary at a fake machine's <machine>/sys and <machine>/dev, as
// AddFakePciGpu, tests/fakeva/fake-machine and fakenv_stage lay them out.
std::vector<std::string> FakeMachineFlags(const std::filesystem::path& machine);

// FakeNvidiaMachineFlags add the staged NVML library, <machine>/lib/libnvidia-ml.so.1, to
// FakeMachineFlags: a machine that tests/fakenv's fakenv_stage laid out.
std::vector<std::string> FakeNvidiaMachineFlags(const std::filesystem::path& machine);

}  // namespace mc::testing
