// The decode matrix's test streams, one second at 320x240, for the self-tests of the tests:
// the fake's decoding engines spend the CPU a GPU would spare, and at the default 1080p
// the matrix alone takes some 20 s.
#pragma once

#include <filesystem>

namespace mc::testing {

// TinyStreams makes the streams once, with Debian's ffmpeg, and gives their folder, which a
// self-test takes as --streams.
const std::filesystem::path& TinyStreams();

}  // namespace mc::testing
