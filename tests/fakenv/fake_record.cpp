#include "fake_record.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/base/json_reader.h"
#include "probe/facts/nvidia_facts_json.h"
#include "probe/gpu/pci_address.h"

namespace fakenv {
namespace {

using Json = nlohmann::json;
using mc::JsonReader;

bool ReadIdentity(JsonReader& reader, const Json& object, Identity& identity) {
  if (!reader.Object(object, "identity")) return false;
  const Json* address = reader.Member(object, "identity", "pciAddress");
  std::string text;
  if (!address || !reader.String(*address, "identity.pciAddress", text)) return false;
  std::optional<std::string> canonical = mc::probe::NormalisePciAddress(text);
  if (!canonical)
    return reader.Fail("identity.pciAddress", "\"" + text + "\" is not a PCI address");
  identity.pci_address = *canonical;
  const Json* device = reader.Member(object, "identity", "device");
  if (!device || !reader.String(*device, "identity.device", identity.device)) return false;
  struct Optional {
    const char* name;
    std::string* out;
  };
  for (const Optional& field :
       {Optional{"vendor", &identity.vendor}, Optional{"class", &identity.device_class},
        Optional{"driver", &identity.driver}, Optional{"renderNode", &identity.render_node},
        Optional{"subsystemVendor", &identity.subsystem_vendor},
        Optional{"subsystemDevice", &identity.subsystem_device}}) {
    if (const Json* value = JsonReader::OptionalMember(object, field.name)) {
      if (!reader.String(*value, std::string("identity.") + field.name, *field.out)) return false;
    }
  }
  return true;
}

bool ReadOptionalInt(JsonReader& reader, const Json& object, const char* name,
                     std::optional<int>& out) {
  const Json* value = JsonReader::OptionalMember(object, name);
  if (!value) return true;
  std::int64_t number = 0;
  if (!reader.Int(*value, std::string("replay.") + name, 0, std::numeric_limits<int>::max(),
                  number))
    return false;
  out = static_cast<int>(number);
  return true;
}

bool ReadReplay(JsonReader& reader, const Json& object, Replay& replay) {
  if (!reader.Object(object, "replay")) return false;
  if (const Json* cu_init = JsonReader::OptionalMember(object, "cuInit")) {
    if (cu_init->is_string() && *cu_init == "hang") {
      replay.cu_init = Replay::CuInit::kHang;
    } else if (cu_init->is_string() && *cu_init == "crash") {
      replay.cu_init = Replay::CuInit::kCrash;
    } else {
      std::int64_t result = 0;
      if (!reader.Int(*cu_init, "replay.cuInit", 1, std::numeric_limits<int>::max(), result)) {
        return reader.Fail("replay.cuInit", "expected \"hang\", \"crash\" or a CUresult");
      }
      replay.cu_init = Replay::CuInit::kFail;
      replay.cu_init_result = static_cast<int>(result);
    }
  }
  if (const Json* absent = JsonReader::OptionalMember(object, "absentLibraries")) {
    if (!reader.StringList(*absent, "replay.absentLibraries", replay.absent_libraries))
      return false;
  }
  return ReadOptionalInt(reader, object, "cuvidGetDecoderCaps", replay.decoder_caps_result) &&
         ReadOptionalInt(reader, object, "sessionLimit", replay.session_limit) &&
         ReadOptionalInt(reader, object, "nvmlInit", replay.nvml_init_result) &&
         ReadOptionalInt(reader, object, "vramMiB", replay.vram_mib) &&
         ReadOptionalInt(reader, object, "temperatureC", replay.temperature_c) &&
         ReadOptionalInt(reader, object, "throttleReasons", replay.throttle_reasons);
}

}  // namespace

mc::Result<Record> ParseRecord(std::string_view text) {
  const Json document = Json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object())
    return mc::Error{"the record is not a JSON object"};
  JsonReader reader;
  Record record;
  const Json* source = reader.Member(document, "", "source");
  const Json* identity = reader.Member(document, "", "identity");
  if (!source || !reader.String(*source, "source", record.source) || !identity ||
      !ReadIdentity(reader, *identity, record.identity)) {
    return mc::Error{reader.error_message()};
  }
  if (const Json* report = JsonReader::OptionalMember(document, "report")) {
    mc::Result<mc::probe::NvidiaFacts> facts = mc::probe::ParseNvidiaFacts(report->dump());
    if (!facts) return mc::Error{"report." + facts.error_message()};
    record.report = std::move(facts).value();
  }
  if (const Json* replay = JsonReader::OptionalMember(document, "replay")) {
    if (!ReadReplay(reader, *replay, record.replay)) return mc::Error{reader.error_message()};
  }
  if (!record.report && record.replay.cu_init == Replay::CuInit::kReport) {
    return mc::Error{"a record without a report must make cuInit fail, hang or crash"};
  }
  return record;
}

namespace {

mc::Result<std::string> ReadText(const std::string& path) {
  std::ifstream in(path);
  if (!in) return mc::Error{"cannot read " + path};
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// SameDriver checks that a machine's later GPUs were recorded under its first's driver.
// The same driver has the same version, cuInit, nvmlInit and libraries.
mc::Result<void> SameDriver(const Record& first, const Record& other) {
  const auto version = [](const Record& record) {
    return record.report ? record.report->driver_version : std::string();
  };
  if (version(first) != version(other))
    return mc::Error{"driver " + version(other) + " differs from the first GPU's " +
                     version(first) + ": one machine has one driver"};
  if (first.replay.cu_init != other.replay.cu_init ||
      first.replay.cu_init_result != other.replay.cu_init_result ||
      first.replay.nvml_init_result != other.replay.nvml_init_result ||
      first.replay.absent_libraries != other.replay.absent_libraries)
    return mc::Error{
        "its replay of cuInit, nvmlInit or the libraries differs from the first "
        "GPU's: one machine has one driver"};
  return mc::Ok();
}

// ParseMachineGpu reads one entry of a machine file's "gpus": its record, moved to its PCI
// address.
mc::Result<Record> ParseMachineGpu(const Json& entry, const std::filesystem::path& base,
                                   const std::string& where) {
  JsonReader reader;
  std::string name, address;
  const Json* record_name = reader.Member(entry, where, "record");
  const Json* pci = reader.Member(entry, where, "pciAddress");
  if (!record_name || !reader.String(*record_name, where + ".record", name) || !pci ||
      !reader.String(*pci, where + ".pciAddress", address))
    return mc::Error{reader.error_message()};
  std::optional<std::string> canonical = mc::probe::NormalisePciAddress(address);
  if (!canonical) return mc::Error{where + ".pciAddress: \"" + address + "\" is not a PCI address"};
  mc::Result<Record> record = LoadRecord((base / name).string());
  if (!record) return mc::Error{where + ": " + record.error_message()};
  record->identity.pci_address = *canonical;
  if (record->report) record->report->pci_address = *canonical;
  return record;
}

mc::Result<Machine> ParseMachine(const Json& document, const std::filesystem::path& base) {
  JsonReader reader;
  Machine machine;
  const Json* source = reader.Member(document, "", "source");
  const Json* gpus = reader.Member(document, "", "gpus");
  if (!source || !reader.String(*source, "source", machine.source) || !gpus)
    return mc::Error{reader.error_message()};
  if (!gpus->is_array() || gpus->empty())
    return mc::Error{"gpus: expected a list of one GPU or more"};
  for (std::size_t i = 0; i < gpus->size(); ++i) {
    const std::string where = "gpus[" + std::to_string(i) + "]";
    mc::Result<Record> gpu = ParseMachineGpu((*gpus)[i], base, where);
    if (!gpu) return mc::Error{gpu.error_message()};
    if (!machine.gpus.empty()) {
      const Record& previous = machine.gpus.back();
      // In PCI address order, the order of CUDA's and NVML's indices: the list is that order.
      if (gpu->identity.pci_address <= previous.identity.pci_address)
        return mc::Error{where + ".pciAddress: " + gpu->identity.pci_address + " does not follow " +
                         previous.identity.pci_address +
                         ": list the GPUs in PCI address order, each at its own address"};
      if (!gpu->identity.render_node.empty() &&
          gpu->identity.render_node == previous.identity.render_node)
        return mc::Error{where + ": render node " + gpu->identity.render_node + " is taken"};
      if (mc::Result<void> same = SameDriver(machine.gpus.front(), *gpu); !same)
        return mc::Error{where + ": " + same.error_message()};
    }
    machine.gpus.push_back(std::move(gpu).value());
  }
  return machine;
}

}  // namespace

mc::Result<Record> LoadRecord(const std::string& path) {
  mc::Result<std::string> text = ReadText(path);
  if (!text) return mc::Error{text.error_message()};
  mc::Result<Record> record = ParseRecord(*text);
  if (!record) return mc::Error{path + ": " + record.error_message()};
  return record;
}

mc::Result<Machine> LoadMachine(const std::string& path) {
  mc::Result<std::string> text = ReadText(path);
  if (!text) return mc::Error{text.error_message()};
  const Json document = Json::parse(*text, nullptr, false);
  if (document.is_object() && document.contains("gpus")) {
    mc::Result<Machine> machine = ParseMachine(document, std::filesystem::path(path).parent_path());
    if (!machine) return mc::Error{path + ": " + machine.error_message()};
    return machine;
  }
  mc::Result<Record> record = LoadRecord(path);
  if (!record) return mc::Error{record.error_message()};
  Machine machine;
  machine.source = record->source;
  machine.gpus.push_back(std::move(record).value());
  return machine;
}

const Machine& CurrentMachine() {
  static const Machine machine = [] {
    const char* path = std::getenv("FAKENV_RECORD");
    if (!path) {
      std::fprintf(stderr, "fakenv: FAKENV_RECORD names no record\n");
      std::abort();
    }
    mc::Result<Machine> loaded = LoadMachine(path);
    if (!loaded) {
      std::fprintf(stderr, "fakenv: %s\n", loaded.error_message().c_str());
      std::abort();
    }
    return std::move(loaded).value();
  }();
  return machine;
}

const Record& CurrentRecord() { return CurrentMachine().gpus.front(); }

const Record* DeviceRecord(int index) {
  const std::vector<Record>& gpus = CurrentMachine().gpus;
  if (index < 0 || static_cast<std::size_t>(index) >= gpus.size()) return nullptr;
  return &gpus[static_cast<std::size_t>(index)];
}

std::uint64_t VideoMemoryBytes(const Record& record) {
  constexpr std::uint64_t kDefaultVramMiB = 16384;
  const std::optional<int>& vram = record.replay.vram_mib;
  return (vram ? static_cast<std::uint64_t>(*vram) : kDefaultVramMiB) << 20;
}

}  // namespace fakenv
