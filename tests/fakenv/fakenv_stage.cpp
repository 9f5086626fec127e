// fakenv_stage RECORD DIR lays out under DIR the machine a record describes.
// RECORD may also be a machine file of several GPUs (fake_record.h).
// The real probe and the real NVIDIA loader can then run on it. It makes:
//  - DIR/sys: the sysfs tree of each GPU's PCI device, bus/pci/devices/<address>.
//    It has the vendor, device, class and driver; subsystem ids when the record states them.
//    Also class/drm with its render node, if the record has one.
//  - DIR/dev: dev/dri/<render node> when there is one, as a plain file.
//    Also, as plain files, the nodes NVIDIA's kernel driver makes when it loads.
//    Those are nvidiactl, nvidia-uvm, and nvidiaN for the Nth GPU.
//  - DIR/proc: driver/nvidia/version, when the record states a driver version.
//    It holds the kernel module's line of that version.
//  - DIR/lib: links to the fake libraries, less those the record says are absent.
//    This is the directory to put on LD_LIBRARY_PATH.
//    Each soname links to a file named by the driver's version, as NVIDIA installs them.
//    An example: libcuda.so.1 -> libcuda.so.580.159.04, when the record states one.
//  - DIR/state: the GPU's shared state (fakenv_state.h), empty.
//    The fakes loaded from DIR/lib use it, unless FAKENV_STATE_DIR names another.
// Only the kernel and NVIDIA's libraries are faked; nv-codec-headers' loader is real.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "fake_record.h"

namespace fs = std::filesystem;

namespace {

constexpr const char* kLibraries[] = {"libcuda.so.1", "libnvcuvid.so.1", "libnvidia-encode.so.1",
                                      "libnvidia-ml.so.1"};

void WriteFile(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << text;
}

void Link(const fs::path& link, const fs::path& target) {
  fs::create_directories(link.parent_path());
  fs::remove(link);
  fs::create_symlink(target, link);
}

// StageGpu lays out one GPU, the machine's `index`th:
//  - its PCI device;
//  - its render node;
//  - its device node nvidia<index>, beside the driver's own.
void StageGpu(const fakenv::Record& record, int index, const fs::path& dir) {
  const fakenv::Identity& id = record.identity;
  const fs::path sys = dir / "sys";
  const std::string parent = "pci0000:00";
  const fs::path device = sys / "devices" / parent / id.pci_address;
  WriteFile(device / "vendor", "0x" + id.vendor + "\n");
  WriteFile(device / "device", "0x" + id.device + "\n");
  WriteFile(device / "class", "0x" + id.device_class + "\n");
  if (!id.subsystem_vendor.empty() && !id.subsystem_device.empty()) {
    WriteFile(device / "subsystem_vendor", "0x" + id.subsystem_vendor + "\n");
    WriteFile(device / "subsystem_device", "0x" + id.subsystem_device + "\n");
  }
  Link(device / "subsystem", "../../../bus/pci");
  if (!id.driver.empty()) {
    fs::create_directories(sys / "bus" / "pci" / "drivers" / id.driver);
    Link(device / "driver", "../../../bus/pci/drivers/" + id.driver);
  }
  Link(sys / "bus" / "pci" / "devices" / id.pci_address,
       "../../../devices/" + parent + "/" + id.pci_address);
  if (!id.render_node.empty()) {
    Link(device / "drm" / id.render_node / "device", "../../../" + id.pci_address);
    Link(sys / "class" / "drm" / id.render_node,
         "../../devices/" + parent + "/" + id.pci_address + "/drm/" + id.render_node);
    WriteFile(dir / "dev" / "dri" / id.render_node, "");
  }
  if (id.driver == "nvidia") {
    WriteFile(dir / "dev" / "nvidiactl", "");
    WriteFile(dir / "dev" / ("nvidia" + std::to_string(index)), "");
    WriteFile(dir / "dev" / "nvidia-uvm", "");
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: fakenv_stage RECORD DIR\n");
    return 2;
  }
  mc::Result<fakenv::Machine> machine = fakenv::LoadMachine(argv[1]);
  if (!machine) {
    std::fprintf(stderr, "fakenv_stage: %s\n", machine.error_message().c_str());
    return 1;
  }
  const fs::path dir = fs::absolute(argv[2]);
  const fs::path sys = dir / "sys";
  fs::create_directories(sys / "class" / "drm");
  fs::create_directories(dir / "dev" / "dri");
  for (std::size_t index = 0; index < machine->gpus.size(); ++index) {
    StageGpu(machine->gpus[index], static_cast<int>(index), dir);
  }
  // The driver is the first GPU's, which every GPU of a machine shares.
  const fakenv::Record* record = &machine->gpus.front();
  const std::string version = record->report ? record->report->driver_version : "";
  if (record->identity.driver == "nvidia" && !version.empty()) {
    WriteFile(dir / "proc" / "driver" / "nvidia" / "version",
              "NVRM version: NVIDIA UNIX x86_64 Kernel Module  " + version +
                  "  Thu Jan  1 00:00:00 UTC 2025\nGCC version:  gcc version 12.2.0 (Debian "
                  "12.2.0-14)\n");
  }

  const fs::path built = fs::path(FAKENV_LIBRARY_DIR);
  for (const char* library : kLibraries) {
    bool absent = false;
    for (const std::string& name : record->replay.absent_libraries)
      absent = absent || name == library;
    if (absent) continue;
    const std::string soname = library;
    if (version.empty()) {
      Link(dir / "lib" / soname, built / soname);
      continue;
    }
    const std::string file = soname.substr(0, soname.size() - 1) + version;  // drop the "1"
    Link(dir / "lib" / file, built / soname);
    Link(dir / "lib" / soname, file);
  }
  fs::create_directories(dir / "lib");
  fs::create_directories(dir / "state");
  return 0;
}
