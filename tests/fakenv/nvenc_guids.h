// NVENC's GUIDs by name, as nvEncodeAPI.h defines them: codecs, profiles and presets. The
// stand-in knows them itself rather than through the product's name table, so that a wrong
// name in either shows up as a report that does not replay.
#pragma once

#include <ffnvcodec/nvEncodeAPI.h>

#include <string_view>

namespace fakenv {

bool SameGuid(const GUID& a, const GUID& b);

// GuidOf finds the GUID of a codec (`codec` empty) or of one of a codec's profiles, or reads
// a name in "{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}" form; it aborts on anything else,
// because the record cannot be replayed then.
GUID GuidOf(std::string_view codec, std::string_view name);

// PresetRank is 1 to 7 for NVENC's presets P1 to P7, and 4 (P4, ffmpeg's default) for the
// older presets and any GUID it does not know.
int PresetRank(const GUID& preset);

// ProfileNumber is the profile_idc of an H.264 or HEVC profile GUID, 0 for "autoselect".
unsigned ProfileNumber(const GUID& profile);

}  // namespace fakenv
