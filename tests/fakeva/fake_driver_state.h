// What the fake VA driver states, built from one recorded vainfo text.
// Also the answers it gives to the queries libva forwards.
// It is the driver's whole logic, kept apart from the vtable glue.
// So tests can ask it questions without loading libva.
#pragma once

#include <va/va.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vainfo_dump.h"

namespace mc::fakeva {

// A config the client created: its pair, its formats and the rate control it chose.
struct CreatedConfig {
  VAProfile profile = VAProfileNone;
  VAEntrypoint entrypoint = VAEntrypointVLD;
  std::uint32_t rt_formats = 0;
  // One VA_RC_* mode for an encode config; 0 otherwise.
  // It is the client's choice, else constant QP.
  std::uint32_t rate_control = 0;
};

// IsEncode says whether an entrypoint encodes.
// Those are VAEntrypointEncSlice, EncSliceLP and EncPicture.
bool IsEncode(VAEntrypoint entrypoint);

// EncodeAttribute is what the fake states of an encode config's attribute `type`.
// VA_ATTRIB_NOT_SUPPORTED for any other. It states:
//  - rate control CQP, CBR and VBR;
//  - no packed headers: the engine writes whole access units, parameter sets in-band;
//  - one reference picture and no B-pictures;
//  - one slice;
//  - quality levels 1 to 7.
// It states no largest picture size, as no dump does.
std::uint32_t EncodeAttribute(VAProfile profile, VAConfigAttribType type);

class FakeDriverState {
 public:
  // `dump` is one of an initialised run; the driver's init refuses the others.
  explicit FakeDriverState(VainfoDump dump);

  const std::string& vendor() const { return dump_.vendor; }
  // Every listed profile once, in the dump's order.
  const std::vector<VAProfile>& profiles() const { return profiles_; }
  // The most entrypoints any one profile lists, and never 0.
  // libva refuses a driver whose maxima are 0.
  // Callers size their arrays by it.
  int max_entrypoints() const { return max_entrypoints_; }

  // The entrypoints listed for `profile`, in the dump's order, into `entrypoints`.
  // `entrypoints` has room for max_entrypoints().
  // VA_STATUS_ERROR_UNSUPPORTED_PROFILE when none are listed.
  VAStatus QueryEntrypoints(VAProfile profile, VAEntrypoint* entrypoints, int* count) const;
  // The attributes of a pair:
  //  - VAConfigAttribRTFormat: the pair's formats;
  //  - an encode pair's others: EncodeAttribute's;
  //  - every other type: VA_ATTRIB_NOT_SUPPORTED.
  VAStatus GetConfigAttributes(VAProfile profile, VAEntrypoint entrypoint,
                               VAConfigAttrib* attributes, int count) const;
  // A config for a listed pair. The errors:
  //  - an unlisted profile: VA_STATUS_ERROR_UNSUPPORTED_PROFILE;
  //  - an unlisted entrypoint: VA_STATUS_ERROR_UNSUPPORTED_ENTRYPOINT;
  //  - an RTFormat beyond the pair's formats: VA_STATUS_ERROR_UNSUPPORTED_RT_FORMAT;
  //  - a rate control mode not stated: VA_STATUS_ERROR_INVALID_VALUE.
  VAStatus CreateConfig(VAProfile profile, VAEntrypoint entrypoint,
                        const VAConfigAttrib* attributes, int count, VAConfigID* config);
  VAStatus DestroyConfig(VAConfigID config);
  // The pair and its one attribute, RTFormat (so max_attributes is 1).
  VAStatus QueryConfigAttributes(VAConfigID config, VAProfile* profile, VAEntrypoint* entrypoint,
                                 VAConfigAttrib* attributes, int* count) const;
  // The config's pixel formats (see PixelFormatsFor) as VASurfaceAttribPixelFormat entries.
  // With `attributes` null it only counts them.
  // With too little room it answers VA_STATUS_ERROR_MAX_NUM_EXCEEDED and the room needed.
  // va.h asks that of drivers.
  VAStatus QuerySurfaceAttributes(VAConfigID config, VASurfaceAttrib* attributes,
                                  unsigned* count) const;
  // The config the client created as `config`.
  // nullopt for an unknown or destroyed one.
  std::optional<CreatedConfig> ConfigOf(VAConfigID config) const;

 private:
  // The dump's config for the pair, or the status that says why there is none.
  const VainfoConfig* Find(VAProfile profile, VAEntrypoint entrypoint, VAStatus* why) const;
  const VainfoConfig* Created(VAConfigID config) const;

  VainfoDump dump_;
  std::vector<VAProfile> profiles_;
  int max_entrypoints_ = 1;
  // VAConfigID i is configs_[i], holding:
  //  - an index into dump_.configs, empty once destroyed;
  //  - the rate control it was created with.
  std::vector<std::optional<std::size_t>> configs_;
  std::vector<std::uint32_t> rate_controls_;
};

// PixelFormatsFor is the FourCCs the fake driver gives a config's surfaces:
//  - NV12 for VA_RT_FORMAT_YUV420;
//  - P010 for VA_RT_FORMAT_YUV420_10.
// A dump names render-target formats only.
// So this is the one mapping to pixel formats that the tests rely on.
// A plain dump, whose pairs all get YUV420, thus states NV12 alone.
std::vector<std::uint32_t> PixelFormatsFor(std::uint32_t rt_formats);

}  // namespace mc::fakeva
