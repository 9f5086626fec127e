#include "fake_record.h"

#include <cstdio>
#include <cstdlib>
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
        Optional{"driver", &identity.driver}, Optional{"renderNode", &identity.render_node}}) {
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
    return mc::Error{reader.error()};
  }
  if (const Json* report = JsonReader::OptionalMember(document, "report")) {
    mc::Result<mc::probe::NvidiaFacts> facts = mc::probe::ParseNvidiaFacts(report->dump());
    if (!facts) return mc::Error{"report." + facts.error()};
    record.report = std::move(facts).value();
  }
  if (const Json* replay = JsonReader::OptionalMember(document, "replay")) {
    if (!ReadReplay(reader, *replay, record.replay)) return mc::Error{reader.error()};
  }
  if (!record.report && record.replay.cu_init == Replay::CuInit::kReport) {
    return mc::Error{"a record without a report must make cuInit fail, hang or crash"};
  }
  return record;
}

mc::Result<Record> LoadRecord(const std::string& path) {
  std::ifstream in(path);
  if (!in) return mc::Error{"cannot read " + path};
  std::stringstream text;
  text << in.rdbuf();
  mc::Result<Record> record = ParseRecord(text.str());
  if (!record) return mc::Error{path + ": " + record.error()};
  return record;
}

const Record& CurrentRecord() {
  static const Record record = [] {
    const char* path = std::getenv("FAKENV_RECORD");
    if (!path) {
      std::fprintf(stderr, "fakenv: FAKENV_RECORD names no record\n");
      std::abort();
    }
    mc::Result<Record> loaded = LoadRecord(path);
    if (!loaded) {
      std::fprintf(stderr, "fakenv: %s\n", loaded.error().c_str());
      std::abort();
    }
    return std::move(loaded).value();
  }();
  return record;
}

}  // namespace fakenv
