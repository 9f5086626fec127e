// What ffmpeg 5.1's command line says about its own options, as the parser needs it:
// - which options take no value;
// - which are global: they apply wherever they are written;
// - which make ffmpeg print a listing and exit.
#pragma once

#include <string_view>

namespace mc::worker {

// TakesNoValue says whether `option` is one of ffmpeg's boolean options. `option` is as written:
// "-vn", "-y". Boolean options are written without a value. Every other option takes one.
bool TakesNoValue(std::string_view option);

// IsGlobalOption says whether `option` is one of ffmpeg's global options. These belong to no input
// or output, wherever they stand. The runner writes -y after its input.
bool IsGlobalOption(std::string_view option);

// IsListingOption says whether `option` makes ffmpeg print something about itself and exit:
// -encoders, -formats, -version, -h, ...
bool IsListingOption(std::string_view option);

// TakesOptionalTopic says whether a listing option may take a topic word, as in `-h
// encoder=libx264`.
bool TakesOptionalTopic(std::string_view option);

// StreamOptionBase gives an option's name without its stream specifier. "-maxrate" for
// "-maxrate:v", "-c" for "-c:v:0".
std::string_view StreamOptionBase(std::string_view option);

// StreamSpecifier gives what follows the first colon. "v" for "-maxrate:v", "" for "-bf".
std::string_view StreamSpecifier(std::string_view option);

}  // namespace mc::worker
