#include "worker/evidence/drm_fdinfo.h"

#include "common/base/text.h"

namespace mc::worker {
namespace {

// Nanoseconds reads "<uint> ns", the form the specification gives drm-engine-<class>.
std::optional<std::uint64_t> Nanoseconds(std::string_view text) {
  if (!text.ends_with("ns")) return std::nullopt;
  return ParseInteger<std::uint64_t>(Trim(text.substr(0, text.size() - 2), kLinePadding));
}

bool TakePrefix(std::string_view& key, std::string_view prefix) {
  if (!key.starts_with(prefix) || key.size() == prefix.size()) return false;
  key.remove_prefix(prefix.size());
  return true;
}

// Store keeps a parsed value under the engine class's name; false when it did not parse.
bool Store(std::optional<std::uint64_t> value, std::map<std::string, std::uint64_t>& map,
           std::string_view engine) {
  if (!value) return false;
  map[std::string(engine)] = *value;
  return true;
}

Error Malformed(std::size_t line, std::string_view key, std::string_view expected) {
  return InvalidInput("fdinfo line " + std::to_string(line) + ": " + std::string(key) +
                      ": expected " + std::string(expected));
}

}  // namespace

Result<DrmFdinfo> ParseDrmFdinfo(std::string_view text) {
  DrmFdinfo fdinfo;
  bool has_driver = false;
  std::size_t line_number = 0;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = Trim(line.substr(0, colon), kLinePadding);
    const std::string_view value = Trim(line.substr(colon + 1), kLinePadding);
    if (!key.starts_with("drm-")) continue;

    std::string_view name = key;
    if (key == "drm-driver") {
      if (value.empty()) return Malformed(line_number, key, "a driver name");
      fdinfo.driver = std::string(value);
      has_driver = true;
    } else if (key == "drm-pdev") {
      fdinfo.pdev = std::string(value);
    } else if (key == "drm-client-id") {
      const std::optional<std::uint64_t> id = ParseInteger<std::uint64_t>(value);
      if (!id) return Malformed(line_number, key, "an unsigned integer");
      fdinfo.client_id = *id;
    } else if (TakePrefix(name, "drm-engine-capacity-")) {
      if (!Store(ParseInteger<std::uint64_t>(value), fdinfo.engine_capacity, name))
        return Malformed(line_number, key, "an unsigned integer");
    } else if (TakePrefix(name, "drm-engine-")) {
      if (!Store(Nanoseconds(value), fdinfo.engine_ns, name)) {
        return Malformed(line_number, key, "\"<unsigned integer> ns\"");
      }
    } else if (TakePrefix(name, "drm-total-cycles-")) {
      if (!Store(ParseInteger<std::uint64_t>(value), fdinfo.total_cycles, name))
        return Malformed(line_number, key, "an unsigned integer");
    } else if (TakePrefix(name, "drm-cycles-")) {
      if (!Store(ParseInteger<std::uint64_t>(value), fdinfo.cycles, name))
        return Malformed(line_number, key, "an unsigned integer");
    }
  }
  if (!has_driver) return NotFound("no drm-driver key: not the fdinfo of a DRM file");
  return fdinfo;
}

MediaEngineTime MediaEngineTimeOf(const DrmFdinfo& fdinfo) {
  MediaEngineTime time;
  auto in = [](const std::map<std::string, std::uint64_t>& map, const char* engine) {
    auto it = map.find(engine);
    return it == map.end() ? std::uint64_t{0} : it->second;
  };
  auto ns = [&](const char* engine) { return in(fdinfo.engine_ns, engine); };
  if (fdinfo.driver == "amdgpu") {
    // UVD and VCN decode print as "dec"; VCE, VCN encode and UVD's encode ring as "enc" and
    // "enc_1". An absent key is an engine this client never used.
    time.decode_ns = ns("dec");
    time.encode_ns = ns("enc") + ns("enc_1");
  } else {
    time.codec_ns = ns("video");
    time.enhance_ns = ns("video-enhance");
  }
  time.codec_cycles = in(fdinfo.cycles, "vcs");
  time.codec_total_cycles = in(fdinfo.total_cycles, "vcs");
  time.enhance_cycles = in(fdinfo.cycles, "vecs");
  return time;
}

}  // namespace mc::worker
