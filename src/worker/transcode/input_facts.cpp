#include "worker/transcode/input_facts.h"

#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/text.h"

namespace mc::worker {
namespace {

using Json = nlohmann::json;

// The containers of a single picture: ffmpeg's image demuxers.
bool IsImageContainer(std::string_view format_name) {
  return format_name == "image2" || format_name.ends_with("_pipe");
}

// ReadOptionalString reads a string member where it is present.
bool ReadOptionalString(JsonReader& reader, const Json& object, const std::string& path,
                        const char* name, std::string& out) {
  const Json* member = JsonReader::OptionalMember(object, name);
  return !member || reader.String(*member, JsonReader::Child(path, name), out);
}

// ReadPictureSide reads a width or a height. Where no decoder could open the stream, ffprobe prints
// what the container states. A container may state 65535x65535 or more. So a side past
// kMaxPictureSide is refused here, naming the field. Then no product of two sides can overflow
// downstream: a pixel count, a scaled width.
bool ReadPictureSide(JsonReader& reader, const Json& object, const std::string& path,
                     const char* name, int& out) {
  const Json* member = JsonReader::OptionalMember(object, name);
  if (!member) return true;
  const std::string place = JsonReader::Child(path, name);
  std::int64_t number = 0;
  if (!reader.Int(*member, place, std::numeric_limits<std::int64_t>::min(),
                  std::numeric_limits<std::int64_t>::max(), number))
    return false;
  if (number < 0 || number > kMaxPictureSide)
    return reader.Fail(place, std::to_string(number) + " pixels is not a picture's side (0 to " +
                                  std::to_string(kMaxPictureSide) + ")");
  out = static_cast<int>(number);
  return true;
}

// RateOf reads ffprobe's "N/D" rate. "0/0" and a missing rate give 0.
bool RateOf(JsonReader& reader, const Json& stream, const std::string& path, const char* name,
            double& out) {
  std::string text;
  if (!ReadOptionalString(reader, stream, path, name, text)) return false;
  if (text.empty()) return true;
  const std::size_t slash = text.find('/');
  const std::string_view rate = text;
  const std::optional<long long> numerator = ParseInteger<long long>(rate.substr(0, slash));
  const std::optional<long long> denominator =
      slash == std::string::npos ? std::optional<long long>(1)
                                 : ParseInteger<long long>(rate.substr(slash + 1));
  if (!numerator || !denominator || *numerator < 0 || *denominator < 0) {
    return reader.Fail(JsonReader::Child(path, name),
                       "expected a rate such as \"30/1\", got \"" + text + "\"");
  }
  out = *denominator == 0 ? 0 : static_cast<double>(*numerator) / static_cast<double>(*denominator);
  return true;
}

bool ReadVideoStream(JsonReader& reader, const Json& stream, const std::string& path,
                     InputFacts& facts) {
  if (!ReadOptionalString(reader, stream, path, "codec_name", facts.video_codec) ||
      !ReadOptionalString(reader, stream, path, "profile", facts.video_profile) ||
      !ReadOptionalString(reader, stream, path, "pix_fmt", facts.pix_fmt) ||
      !ReadPictureSide(reader, stream, path, "width", facts.width) ||
      !ReadPictureSide(reader, stream, path, "height", facts.height) ||
      !RateOf(reader, stream, path, "avg_frame_rate", facts.fps)) {
    return false;
  }
  if (facts.fps == 0 && !RateOf(reader, stream, path, "r_frame_rate", facts.fps)) return false;
  std::string raw_bits;
  if (!ReadOptionalString(reader, stream, path, "bits_per_raw_sample", raw_bits)) return false;
  facts.bit_depth = BitDepthOfPixelFormat(facts.pix_fmt);
  if (facts.bit_depth == 0) {
    int bits = 0;
    const auto parsed = std::from_chars(raw_bits.data(), raw_bits.data() + raw_bits.size(), bits);
    facts.bit_depth = parsed.ec == std::errc() && bits > 0 && bits <= 16 ? bits : 8;
  }
  std::string frames;
  if (!ReadOptionalString(reader, stream, path, "nb_frames", frames)) return false;
  if (frames == "1") facts.still_image = true;
  if (const std::optional<std::int64_t> count = ParseInteger<std::int64_t>(frames);
      count && *count > 0)
    facts.frame_count = *count;
  return true;
}

// IsAttachedPicture says whether a video stream is a cover picture (disposition.attached_pic).
// ffmpeg's stream selection passes over one while there is a real video stream.
bool IsAttachedPicture(const Json& stream) {
  const Json* disposition = JsonReader::OptionalMember(stream, "disposition");
  if (!disposition) return false;
  const Json* attached = JsonReader::OptionalMember(*disposition, "attached_pic");
  return attached && attached->is_number_integer() && attached->get<std::int64_t>() == 1;
}

}  // namespace

int BitDepthOfPixelFormat(std::string_view pix_fmt) {
  if (pix_fmt.ends_with("le") || pix_fmt.ends_with("be")) pix_fmt.remove_suffix(2);
  std::size_t digits = pix_fmt.size();
  while (digits > 0 && pix_fmt[digits - 1] >= '0' && pix_fmt[digits - 1] <= '9') --digits;
  if (digits == pix_fmt.size()) {
    return pix_fmt.empty() ? 0 : 8;
  }
  // "yuv420p10": the depth follows the planar mark. "p010": the whole tail is the depth.
  if (digits == 0 || pix_fmt[digits - 1] != 'p') return 8;
  int bits = 0;
  std::from_chars(pix_fmt.data() + digits, pix_fmt.data() + pix_fmt.size(), bits);
  return bits > 0 && bits <= 16 ? bits : 8;
}

bool IsChroma420(std::string_view pix_fmt) {
  return pix_fmt.starts_with("yuv420") || pix_fmt.starts_with("yuvj420") ||
         pix_fmt.starts_with("yuva420") || pix_fmt == "nv12" || pix_fmt == "nv21" ||
         pix_fmt.starts_with("p010") || pix_fmt.starts_with("p016");
}

Result<InputFacts> ParseInputFacts(std::string_view ffprobe_json) {
  const Json document = ParseJsonOrDiscarded(ffprobe_json);
  if (document.is_discarded()) return InvalidInput("ffprobe's answer is not valid JSON");
  JsonReader reader;
  if (!reader.Object(document, "ffprobe")) return reader.error();
  const Json* streams = reader.Member(document, "ffprobe", "streams");
  if (!streams || !reader.Array(*streams, "streams")) return reader.error();
  InputFacts facts;
  const Json* video = nullptr;
  std::string video_path;
  for (std::size_t i = 0; i < streams->size(); ++i) {
    const Json& stream = (*streams)[i];
    const std::string path = JsonReader::Element("streams", i);
    if (!reader.Object(stream, path)) return reader.error();
    std::string type;
    if (!ReadOptionalString(reader, stream, path, "codec_type", type)) return reader.error();
    if (type == "video" && (!video || (IsAttachedPicture(*video) && !IsAttachedPicture(stream)))) {
      video = &stream;
      video_path = path;
    }
    if (type == "audio" && !facts.has_audio) {
      facts.has_audio = true;
      if (!ReadOptionalString(reader, stream, path, "codec_name", facts.audio_codec)) {
        return reader.error();
      }
    }
  }
  if (video) {
    facts.has_video = true;
    if (!ReadVideoStream(reader, *video, video_path, facts)) return reader.error();
    if (IsAttachedPicture(*video)) facts.still_image = true;
  }
  if (const Json* format = JsonReader::OptionalMember(document, "format")) {
    if (!reader.Object(*format, "format")) return reader.error();
    std::string format_name;
    if (!ReadOptionalString(reader, *format, "format", "format_name", format_name)) {
      return reader.error();
    }
    if (facts.has_video && IsImageContainer(format_name)) facts.still_image = true;
  }
  return facts;
}

}  // namespace mc::worker
