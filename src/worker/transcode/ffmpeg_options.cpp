#include "worker/transcode/ffmpeg_options.h"

#include <algorithm>
#include <iterator>

namespace mc::worker {
namespace {

// ffmpeg 5.1's boolean options, from fftools/ffmpeg_opt.c and cmdutils. These are OPT_BOOL, and the
// OPT_EXIT listings, which take no value. A value-taking option missing here would make the parser
// read its value as an output file. So the list errs towards the full set.
constexpr std::string_view kNoValueOptions[] = {
    "-y",
    "-n",
    "-hide_banner",
    "-nostdin",
    "-stdin",
    "-nostats",
    "-stats",
    "-vn",
    "-an",
    "-sn",
    "-dn",
    "-shortest",
    "-re",
    "-copyts",
    "-start_at_zero",
    "-benchmark",
    "-benchmark_all",
    "-ignore_unknown",
    "-report",
    "-xerror",
    "-debug_ts",
    "-dump",
    "-hex",
    "-autorotate",
    "-noautorotate",
    "-accurate_seek",
    "-noaccurate_seek",
    "-psnr",
    "-qphist",
    "-vstats",
    "-bitexact",
    "-copyinkf",
    "-fix_sub_duration",
    "-deinterlace",
    "-intra",
    "-autoscale",
    "-noautoscale",
    "-find_stream_info",
    "-nofind_stream_info",
};

// The options of fftools that set a process-wide value, not one input's or output's.
constexpr std::string_view kGlobalOptions[] = {
    "-y",
    "-n",
    "-hide_banner",
    "-loglevel",
    "-v",
    "-report",
    "-max_alloc",
    "-cpuflags",
    "-cpucount",
    "-nostdin",
    "-stdin",
    "-stats",
    "-nostats",
    "-progress",
    "-benchmark",
    "-benchmark_all",
    "-timelimit",
    "-dump",
    "-hex",
    "-vsync",
    "-copyts",
    "-start_at_zero",
    "-copytb",
    "-xerror",
    "-abort_on",
    "-filter_complex",
    "-lavfi",
    "-filter_complex_script",
    "-filter_threads",
    "-debug_ts",
    "-max_error_rate",
    "-init_hw_device",
    "-filter_hw_device",
    "-vaapi_device",
    "-qsv_device",
    "-stats_period",
    "-ignore_unknown",
};

constexpr std::string_view kListingOptions[] = {
    "-L",       "-h",         "-?",        "-help",     "--help",   "-version",     "-buildconf",
    "-formats", "-muxers",    "-demuxers", "-devices",  "-codecs",  "-decoders",    "-encoders",
    "-bsfs",    "-protocols", "-filters",  "-pix_fmts", "-layouts", "-sample_fmts", "-dispositions",
    "-colors",  "-sources",   "-sinks",    "-hwaccels", "-license", "-ch_layouts",
};

template <std::size_t N>
bool Holds(const std::string_view (&table)[N], std::string_view option) {
  return std::find(std::begin(table), std::end(table), option) != std::end(table);
}

}  // namespace

bool TakesNoValue(std::string_view option) {
  return Holds(kNoValueOptions, option) || IsListingOption(option);
}

bool IsGlobalOption(std::string_view option) {
  return Holds(kGlobalOptions, option) || IsListingOption(option);
}

bool IsListingOption(std::string_view option) { return Holds(kListingOptions, option); }

bool TakesOptionalTopic(std::string_view option) {
  return option == "-h" || option == "-?" || option == "-help" || option == "--help" ||
         option == "-sources" || option == "-sinks";
}

std::string_view StreamOptionBase(std::string_view option) {
  const std::size_t colon = option.find(':');
  return colon == std::string_view::npos ? option : option.substr(0, colon);
}

std::string_view StreamSpecifier(std::string_view option) {
  const std::size_t colon = option.find(':');
  return colon == std::string_view::npos ? std::string_view{} : option.substr(colon + 1);
}

}  // namespace mc::worker
