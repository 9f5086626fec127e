#include "fake_driver_state.h"

#include <algorithm>
#include <utility>

namespace mc::fakeva {

FakeDriverState::FakeDriverState(VainfoDump dump) : dump_(std::move(dump)) {
  for (const VainfoConfig& config : dump_.configs) {
    const auto profile = static_cast<VAProfile>(config.profile);
    if (std::ranges::find(profiles_, profile) == profiles_.end()) profiles_.push_back(profile);
  }
  for (const VAProfile profile : profiles_) {
    const auto listed =
        std::ranges::count(dump_.configs, static_cast<int>(profile), &VainfoConfig::profile);
    max_entrypoints_ = std::max(max_entrypoints_, static_cast<int>(listed));
  }
}

VAStatus FakeDriverState::QueryEntrypoints(VAProfile profile, VAEntrypoint* entrypoints,
                                           int* count) const {
  if (!entrypoints || !count) return VA_STATUS_ERROR_INVALID_PARAMETER;
  int listed = 0;
  for (const VainfoConfig& config : dump_.configs) {
    if (config.profile == profile)
      entrypoints[listed++] = static_cast<VAEntrypoint>(config.entrypoint);
  }
  *count = listed;
  return listed > 0 ? VA_STATUS_SUCCESS : VA_STATUS_ERROR_UNSUPPORTED_PROFILE;
}

VAStatus FakeDriverState::GetConfigAttributes(VAProfile profile, VAEntrypoint entrypoint,
                                              VAConfigAttrib* attributes, int count) const {
  VAStatus status = VA_STATUS_SUCCESS;
  const VainfoConfig* config = Find(profile, entrypoint, &status);
  if (!config) return status;
  if (count > 0 && !attributes) return VA_STATUS_ERROR_INVALID_PARAMETER;
  const auto pair_profile = static_cast<VAProfile>(config->profile);
  const bool encode = IsEncode(static_cast<VAEntrypoint>(config->entrypoint));
  for (int i = 0; i < count; ++i) {
    if (attributes[i].type == VAConfigAttribRTFormat) {
      attributes[i].value = config->rt_formats;
    } else {
      attributes[i].value =
          encode ? EncodeAttribute(pair_profile, attributes[i].type) : VA_ATTRIB_NOT_SUPPORTED;
    }
  }
  return VA_STATUS_SUCCESS;
}

VAStatus FakeDriverState::CreateConfig(VAProfile profile, VAEntrypoint entrypoint,
                                       const VAConfigAttrib* attributes, int count,
                                       VAConfigID* config_id) {
  if (!config_id) return VA_STATUS_ERROR_INVALID_PARAMETER;
  VAStatus status = VA_STATUS_SUCCESS;
  const VainfoConfig* config = Find(profile, entrypoint, &status);
  if (!config) return status;
  if (count > 0 && !attributes) return VA_STATUS_ERROR_INVALID_PARAMETER;
  const bool encode = IsEncode(entrypoint);
  std::uint32_t rate_control = encode ? VA_RC_CQP : 0;
  for (int i = 0; i < count; ++i) {
    if (attributes[i].type == VAConfigAttribRTFormat &&
        (attributes[i].value & ~config->rt_formats) != 0) {
      return VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT;
    }
    if (attributes[i].type == VAConfigAttribRateControl) {
      const std::uint32_t mode = attributes[i].value;
      // Exactly one mode, and one the fake states.
      if (!encode || mode == 0 || (mode & (mode - 1)) != 0 ||
          (mode & EncodeAttribute(profile, VAConfigAttribRateControl)) == 0) {
        return VA_STATUS_ERROR_INVALID_VALUE;
      }
      rate_control = mode;
    }
  }
  *config_id = static_cast<VAConfigID>(configs_.size());
  configs_.emplace_back(static_cast<std::size_t>(config - dump_.configs.data()));
  rate_controls_.push_back(rate_control);
  return VA_STATUS_SUCCESS;
}

VAStatus FakeDriverState::DestroyConfig(VAConfigID config) {
  if (!Created(config)) return VA_STATUS_ERROR_INVALID_CONFIG;
  configs_[config].reset();
  return VA_STATUS_SUCCESS;
}

VAStatus FakeDriverState::QueryConfigAttributes(VAConfigID config_id, VAProfile* profile,
                                                VAEntrypoint* entrypoint,
                                                VAConfigAttrib* attributes, int* count) const {
  const VainfoConfig* config = Created(config_id);
  if (!config) return VA_STATUS_ERROR_INVALID_CONFIG;
  if (!profile || !entrypoint || !attributes || !count) return VA_STATUS_ERROR_INVALID_PARAMETER;
  *profile = static_cast<VAProfile>(config->profile);
  *entrypoint = static_cast<VAEntrypoint>(config->entrypoint);
  attributes[0] = VAConfigAttrib{VAConfigAttribRTFormat, config->rt_formats};
  *count = 1;
  return VA_STATUS_SUCCESS;
}

VAStatus FakeDriverState::QuerySurfaceAttributes(VAConfigID config_id, VASurfaceAttrib* attributes,
                                                 unsigned* count) const {
  const VainfoConfig* config = Created(config_id);
  if (!config) return VA_STATUS_ERROR_INVALID_CONFIG;
  if (!count) return VA_STATUS_ERROR_INVALID_PARAMETER;
  const std::vector<std::uint32_t> formats = PixelFormatsFor(config->rt_formats);
  const unsigned room = *count;
  *count = static_cast<unsigned>(formats.size());
  if (!attributes) return VA_STATUS_SUCCESS;
  if (room < formats.size()) return VA_STATUS_ERROR_MAX_NUM_EXCEEDED;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    VASurfaceAttrib attribute{};
    attribute.type = VASurfaceAttribPixelFormat;
    attribute.flags = VA_SURFACE_ATTRIB_GETTABLE | VA_SURFACE_ATTRIB_SETTABLE;
    attribute.value.type = VAGenericValueTypeInteger;
    attribute.value.value.i = static_cast<int>(formats[i]);
    attributes[i] = attribute;
  }
  return VA_STATUS_SUCCESS;
}

std::optional<CreatedConfig> FakeDriverState::ConfigOf(VAConfigID config_id) const {
  const VainfoConfig* config = Created(config_id);
  if (!config) return std::nullopt;
  return CreatedConfig{static_cast<VAProfile>(config->profile),
                       static_cast<VAEntrypoint>(config->entrypoint), config->rt_formats,
                       rate_controls_[config_id]};
}

bool IsEncode(VAEntrypoint entrypoint) {
  return entrypoint == VAEntrypointEncSlice || entrypoint == VAEntrypointEncSliceLP ||
         entrypoint == VAEntrypointEncPicture;
}

std::uint32_t EncodeAttribute(VAProfile, VAConfigAttribType type) {
  // No largest picture size: a dump does not state one, and the probe would report it.
  switch (type) {
    case VAConfigAttribRateControl:
      return VA_RC_CQP | VA_RC_CBR | VA_RC_VBR;
    case VAConfigAttribEncPackedHeaders:
      return VA_ENC_PACKED_HEADER_NONE;
    case VAConfigAttribEncMaxRefFrames:
      // One reference in list 0, none in list 1: I and P pictures only.
      return 1;
    case VAConfigAttribEncMaxSlices:
      return 1;
    case VAConfigAttribEncQualityRange:
      return 7;
    default:
      return VA_ATTRIB_NOT_SUPPORTED;
  }
}

const VainfoConfig* FakeDriverState::Find(VAProfile profile, VAEntrypoint entrypoint,
                                          VAStatus* why) const {
  bool profile_listed = false;
  for (const VainfoConfig& config : dump_.configs) {
    if (config.profile != profile) continue;
    if (config.entrypoint == entrypoint) return &config;
    profile_listed = true;
  }
  *why =
      profile_listed ? VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT : VA_STATUS_ERROR_UNSUPPORTED_PROFILE;
  return nullptr;
}

const VainfoConfig* FakeDriverState::Created(VAConfigID config) const {
  if (config >= configs_.size() || !configs_[config]) return nullptr;
  return &dump_.configs[*configs_[config]];
}

std::vector<std::uint32_t> PixelFormatsFor(std::uint32_t rt_formats) {
  std::vector<std::uint32_t> formats;
  if (rt_formats & VA_RT_FORMAT_YUV420) formats.push_back(VA_FOURCC_NV12);
  if (rt_formats & VA_RT_FORMAT_YUV420_10) formats.push_back(VA_FOURCC_P010);
  return formats;
}

}  // namespace mc::fakeva
