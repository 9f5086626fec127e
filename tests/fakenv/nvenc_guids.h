// NVENC's GUIDs by name, as nvEncodeAPI.h defines them: codecs, profiles and presets.
// The fake knows them itself, not through the product's name table.
// So a wrong name in either shows up as a report that does not replay.
#pragma once

#include <ffnvcodec/nvEncodeAPI.h>

#include <string_view>

namespace fakenv {

bool SameGuid(const GUID& a, const GUID& b);

// GuidOf gives a GUID for:
//  - a codec, with `codec` empty;
//  - one of a codec's profiles;
//  - a name in "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" form, read as it is.
// It aborts on anything else, since the record cannot be replayed then.
GUID GuidOf(std::string_view codec, std::string_view name);

// PresetRank is 1 to 7 for NVENC's presets P1 to P7.
// It is 4 (P4, ffmpeg's default) for the older presets and any GUID it does not know.
int PresetRank(const GUID& preset);

// ProfileNumber is the profile_idc of an H.264 or HEVC profile GUID.
// It is 0 for "autoselect".
unsigned ProfileNumber(const GUID& profile);

}  // namespace fakenv
