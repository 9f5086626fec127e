// A recorded NVIDIA GPU, as the fake libraries of tests/fakenv replay it:
//  - who the GPU is on the PCI bus;
//  - what its driver stated: the report `query-nvidia` printed, in the same JSON form;
//  - how the fakes should misbehave beyond that.
// The same JSON form lets a capture on a real GPU be committed as it came.
// Misbehaving is cuInit failing, hanging or crashing, or a library missing.
// A machine of several GPUs is a machine file that names one record per GPU.
// Each is placed at its own PCI address.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/base/result.h"
#include "probe/facts/nvidia_facts.h"

namespace fakenv {

struct Identity {
  // Canonical PCI address, such as "0000:19:00.0".
  std::string pci_address;
  // Hex digits without "0x": vendor "10de", device "2335", class "030200".
  std::string vendor = "10de";
  std::string device;
  std::string device_class = "030200";
  // The kernel driver bound to it; empty for none.
  std::string driver = "nvidia";
  // A render node name such as "renderD128" when nvidia-drm made one; empty for none.
  std::string render_node;
  // The board maker's PCI subsystem vendor and device, such as "1043" and "889d".
  // When empty, no subsystem_vendor and subsystem_device files are staged.
  std::string subsystem_vendor;
  std::string subsystem_device;
};

struct Replay {
  enum class CuInit { kReport, kFail, kHang, kCrash };
  // kReport: cuInit succeeds and the fakes answer from the report.
  CuInit cu_init = CuInit::kReport;
  // The CUresult cuInit returns for kFail.
  int cu_init_result = 0;
  // The CUresult every cuvidGetDecoderCaps call returns, when set.
  std::optional<int> decoder_caps_result;
  // Libraries the machine lacks, such as "libnvidia-encode.so.1".
  std::vector<std::string> absent_libraries;
  // How many encode sessions the driver lets open at once: the consumer cap.
  // Unset for no cap of the driver's own.
  std::optional<int> session_limit;
  // The nvmlReturn_t nvmlInit_v2 returns, when set.
  std::optional<int> nvml_init_result;
  // What NVML reports of the board beyond the report:
  //  - its video memory in MiB, 16384 when unset;
  //  - its temperature in degrees Celsius, 40 when unset;
  //  - its clock throttle reasons, NVML's bitmask, none when unset.
  std::optional<int> vram_mib;
  std::optional<int> temperature_c;
  std::optional<int> throttle_reasons;
};

struct Record {
  // Where the record comes from.
  // A capture (machine, date), or the published source it was written from.
  std::string source;
  Identity identity;
  std::optional<mc::probe::NvidiaFacts> report;
  Replay replay;
};

// A machine: its GPUs in PCI address order.
// That is the order of their indices in NVML, and in CUDA under CUDA_DEVICE_ORDER=PCI_BUS_ID.
// A record file is a machine of one GPU. A machine file is:
//   {"source": "...", "gpus": [{"record": "ada-geforce-rtx4090.json",
//                               "pciAddress": "0000:01:00.0"}, ...]}
// The records are named relative to the machine file.
// Each GPU is its record, moved to the given PCI address.
// The move applies to the identity's address and the report's.
// What belongs to the driver rather than a board must agree across them.
// That is its version, cuInit, nvmlInit and the libraries present.
// One machine has one driver.
struct Machine {
  std::string source;
  std::vector<Record> gpus;
};

// ParseRecord names the first thing that is wrong, as the product's parsers do.
mc::Result<Record> ParseRecord(std::string_view json);
mc::Result<Record> LoadRecord(const std::string& path);

// LoadMachine reads a machine file, or a record file as a machine of one GPU.
mc::Result<Machine> LoadMachine(const std::string& path);

// CurrentMachine is the machine named by the environment variable FAKENV_RECORD.
// It is read once per process.
// A fake library that cannot read it says why on stderr and aborts.
// So a broken fixture can never pass for a driver's answer.
const Machine& CurrentMachine();

// CurrentRecord is the machine's first GPU.
// Its record also answers for the driver, which all GPUs share.
// That is cuInit, versions and libraries.
const Record& CurrentRecord();

// DeviceRecord is GPU `index` of the machine, or nullptr when there is no such GPU.
const Record* DeviceRecord(int index);

// VideoMemoryBytes is the board's video memory.
// It is the record's replay.vramMiB, or 16384 MiB when unset.
std::uint64_t VideoMemoryBytes(const Record& record);

}  // namespace fakenv
