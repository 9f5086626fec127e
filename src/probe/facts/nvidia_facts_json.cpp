#include "probe/facts/nvidia_facts_json.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"
#include "common/base/utf8.h"
#include "probe/facts/cuvid_names.h"

namespace mc::probe {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

OrderedJson SurfaceFormatsToJson(std::uint32_t mask) {
  OrderedJson names = OrderedJson::array();
  for (std::int32_t bit = 0; bit < 32; ++bit) {
    if (mask & (1u << bit)) names.push_back(CuvidSurfaceFormatName(bit));
  }
  return names;
}

OrderedJson DecoderToJson(const NvDecoderCaps& caps) {
  OrderedJson out = {
      {"codec", CuvidCodecName(caps.codec)},
      {"chroma", CuvidChromaName(caps.chroma)},
      {"bitDepth", caps.bit_depth},
      {"supported", caps.supported},
  };
  if (caps.engines != 0) out["engines"] = caps.engines;
  out["maxWidth"] = caps.max_width;
  out["maxHeight"] = caps.max_height;
  out["outputFormats"] = SurfaceFormatsToJson(caps.output_formats);
  return out;
}

OrderedJson EncoderToJson(const NvEncoderFacts& encoder) {
  OrderedJson codecs = OrderedJson::array();
  for (const NvEncoderCodec& codec : encoder.codecs) {
    OrderedJson profiles = OrderedJson::array();
    for (const std::string& profile : codec.profiles) profiles.push_back(ValidUtf8(profile));
    codecs.push_back({{"codec", ValidUtf8(codec.codec)},
                      {"profiles", std::move(profiles)},
                      {"supports10bit", codec.supports_10bit},
                      {"maxWidth", codec.max_width},
                      {"maxHeight", codec.max_height}});
  }
  OrderedJson out = {{"available", encoder.available}};
  if (!encoder.unavailable_reason.empty())
    out["unavailableReason"] = ValidUtf8(encoder.unavailable_reason);
  if (encoder.open_status != 0) out["openStatus"] = encoder.open_status;
  if (!encoder.max_api_version.empty()) out["maxApiVersion"] = ValidUtf8(encoder.max_api_version);
  out["codecs"] = std::move(codecs);
  return out;
}

// Parser reads one report. Each Read* records the first error and returns false.
class Parser {
 public:
  JsonReader reader;

  bool ReadUnsigned(const Json& object, const std::string& path, const char* name,
                    std::uint32_t& out, bool optional = false) {
    const Json* value =
        optional ? JsonReader::OptionalMember(object, name) : reader.Member(object, path, name);
    if (!value) return optional;
    std::int64_t number = 0;
    if (!reader.Int(*value, JsonReader::Child(path, name), 0,
                    std::numeric_limits<std::uint32_t>::max(), number)) {
      return false;
    }
    out = static_cast<std::uint32_t>(number);
    return true;
  }

  bool ReadInt32(const Json& object, const std::string& path, const char* name, std::int32_t low,
                 std::int32_t& out) {
    const Json* value = reader.Member(object, path, name);
    std::int64_t number = 0;
    if (!value || !reader.Int(*value, JsonReader::Child(path, name), low,
                              std::numeric_limits<std::int32_t>::max(), number)) {
      return false;
    }
    out = static_cast<std::int32_t>(number);
    return true;
  }

  bool ReadString(const Json& object, const std::string& path, const char* name, std::string& out,
                  bool optional = false) {
    const Json* value =
        optional ? JsonReader::OptionalMember(object, name) : reader.Member(object, path, name);
    if (!value) return optional;
    return reader.String(*value, JsonReader::Child(path, name), out);
  }

  bool ReadBool(const Json& object, const std::string& path, const char* name, bool& out) {
    const Json* value = reader.Member(object, path, name);
    return value && reader.Bool(*value, JsonReader::Child(path, name), out);
  }

  bool ReadName(const Json& object, const std::string& path, const char* name,
                std::optional<std::int32_t> (*from_name)(std::string_view), const char* what,
                std::int32_t& out) {
    std::string text;
    if (!ReadString(object, path, name, text)) return false;
    std::optional<std::int32_t> value = from_name(text);
    if (!value)
      return reader.Fail(JsonReader::Child(path, name),
                         std::string("unknown ") + what + " \"" + text + "\"");
    out = *value;
    return true;
  }

  bool ReadSurfaceFormats(const Json& object, const std::string& path, std::uint32_t& mask) {
    const std::string here = JsonReader::Child(path, "outputFormats");
    std::vector<std::string> names;
    const Json* value = reader.Member(object, path, "outputFormats");
    if (!value || !reader.StringList(*value, here, names)) return false;
    for (std::size_t i = 0; i < names.size(); ++i) {
      std::optional<std::int32_t> bit = CuvidSurfaceFormatFromName(names[i]);
      if (!bit || *bit < 0 || *bit > 31) {
        return reader.Fail(JsonReader::Element(here, i),
                           "unknown surface format \"" + names[i] + "\"");
      }
      const std::uint32_t flag = 1u << *bit;
      if (mask & flag)
        return reader.Fail(JsonReader::Element(here, i), "\"" + names[i] + "\" is listed twice");
      mask |= flag;
    }
    return true;
  }

  bool ReadDecoder(const Json& item, const std::string& path, NvDecoderCaps& caps) {
    if (!reader.Object(item, path)) return false;
    return ReadName(item, path, "codec", &CuvidCodecFromName, "codec", caps.codec) &&
           ReadName(item, path, "chroma", &CuvidChromaFromName, "chroma format", caps.chroma) &&
           ReadInt32(item, path, "bitDepth", 8, caps.bit_depth) &&
           ReadBool(item, path, "supported", caps.supported) &&
           ReadUnsigned(item, path, "engines", caps.engines, /*optional=*/true) &&
           ReadUnsigned(item, path, "maxWidth", caps.max_width) &&
           ReadUnsigned(item, path, "maxHeight", caps.max_height) &&
           ReadSurfaceFormats(item, path, caps.output_formats);
  }

  bool ReadEncoderCodec(const Json& item, const std::string& path, NvEncoderCodec& codec) {
    if (!reader.Object(item, path)) return false;
    const Json* profiles = reader.Member(item, path, "profiles");
    return ReadString(item, path, "codec", codec.codec) && profiles &&
           reader.StringList(*profiles, JsonReader::Child(path, "profiles"), codec.profiles) &&
           ReadBool(item, path, "supports10bit", codec.supports_10bit) &&
           ReadInt32(item, path, "maxWidth", 0, codec.max_width) &&
           ReadInt32(item, path, "maxHeight", 0, codec.max_height);
  }

  bool ReadEncoder(const Json& object, NvEncoderFacts& encoder) {
    const std::string path = "encoder";
    if (!reader.Object(object, path) || !ReadBool(object, path, "available", encoder.available) ||
        !ReadString(object, path, "unavailableReason", encoder.unavailable_reason, true) ||
        !ReadString(object, path, "maxApiVersion", encoder.max_api_version, true)) {
      return false;
    }
    if (const Json* status = JsonReader::OptionalMember(object, "openStatus")) {
      std::int64_t number = 0;
      if (!reader.Int(*status, "encoder.openStatus", 1, std::numeric_limits<std::int32_t>::max(),
                      number)) {
        return false;
      }
      encoder.open_status = static_cast<std::int32_t>(number);
    }
    if (encoder.available != encoder.unavailable_reason.empty()) {
      return reader.Fail(path, encoder.available
                                   ? "an available encoder has an unavailableReason"
                                   : "an unavailable encoder needs an unavailableReason");
    }
    const Json* codecs = reader.Member(object, path, "codecs");
    if (!codecs || !reader.Array(*codecs, "encoder.codecs")) return false;
    for (std::size_t i = 0; i < codecs->size(); ++i) {
      NvEncoderCodec codec;
      if (!ReadEncoderCodec((*codecs)[i], JsonReader::Element("encoder.codecs", i), codec))
        return false;
      encoder.codecs.push_back(std::move(codec));
    }
    return true;
  }

  bool ReadSessions(const Json& object, NvSessionCount& sessions) {
    return reader.Object(object, "sessions") &&
           ReadInt32(object, "sessions", "opened", 0, sessions.opened) &&
           ReadString(object, "sessions", "stoppedBy", sessions.stopped_by);
  }

  bool Read(const Json& document, NvidiaFacts& facts) {
    const Json* decoders = nullptr;
    const Json* encoder = nullptr;
    if (!ReadString(document, "", "driverVersion", facts.driver_version) ||
        !ReadInt32(document, "", "cudaDriverVersion", 0, facts.cuda_driver_version) ||
        !ReadString(document, "", "name", facts.name) ||
        !ReadString(document, "", "pciAddress", facts.pci_address) ||
        !ReadString(document, "", "computeCapability", facts.compute_capability) ||
        !ReadBool(document, "", "cudaContext", facts.cuda_context) ||
        !(decoders = reader.Member(document, "", "decoders")) ||
        !reader.Array(*decoders, "decoders")) {
      return false;
    }
    for (std::size_t i = 0; i < decoders->size(); ++i) {
      NvDecoderCaps caps;
      if (!ReadDecoder((*decoders)[i], JsonReader::Element("decoders", i), caps)) return false;
      facts.decoders.push_back(caps);
    }
    if (!(encoder = reader.Member(document, "", "encoder")) ||
        !ReadEncoder(*encoder, facts.encoder)) {
      return false;
    }
    if (JsonReader::OptionalMember(document, "cudaOrdinal")) {
      facts.cuda_ordinal.emplace();
      if (!ReadInt32(document, "", "cudaOrdinal", 0, *facts.cuda_ordinal)) return false;
    }
    if (const Json* sessions = JsonReader::OptionalMember(document, "sessions")) {
      facts.sessions.emplace();
      if (!ReadSessions(*sessions, *facts.sessions)) return false;
    }
    // Warnings are optional, so a hand-written record needs none.
    if (const Json* warnings = JsonReader::OptionalMember(document, "warnings")) {
      if (!reader.StringList(*warnings, "warnings", facts.warnings)) return false;
    }
    return true;
  }
};

}  // namespace

std::string NvidiaFactsToJson(const NvidiaFacts& facts) {
  OrderedJson decoders = OrderedJson::array();
  for (const NvDecoderCaps& caps : facts.decoders) decoders.push_back(DecoderToJson(caps));
  OrderedJson document = {
      {"driverVersion", ValidUtf8(facts.driver_version)},
      {"cudaDriverVersion", facts.cuda_driver_version},
      {"name", ValidUtf8(facts.name)},
      {"pciAddress", ValidUtf8(facts.pci_address)},
      {"computeCapability", ValidUtf8(facts.compute_capability)},
      {"cudaContext", facts.cuda_context},
      {"decoders", std::move(decoders)},
      {"encoder", EncoderToJson(facts.encoder)},
  };
  if (facts.cuda_ordinal) document["cudaOrdinal"] = *facts.cuda_ordinal;
  if (facts.sessions) {
    document["sessions"] = {{"opened", facts.sessions->opened},
                            {"stoppedBy", ValidUtf8(facts.sessions->stopped_by)}};
  }
  OrderedJson warnings = OrderedJson::array();
  for (const std::string& warning : facts.warnings) warnings.push_back(ValidUtf8(warning));
  document["warnings"] = std::move(warnings);
  // Driver text is not always UTF-8. Replacing what is not keeps the report well formed.
  return JsonText(document, 2) + "\n";
}

Result<NvidiaFacts> ParseNvidiaFacts(std::string_view text) {
  const Json document = ParseJsonOrDiscarded(text);
  if (document.is_discarded()) return InvalidInput("the report is not JSON");
  if (!document.is_object()) return InvalidInput("the report is not a JSON object");
  Parser parser;
  NvidiaFacts facts;
  if (!parser.Read(document, facts)) return InvalidInput(parser.reader.error_message());
  return facts;
}

}  // namespace mc::probe
