#include "common/peertube/video_facts.h"

#include "common/peertube/admin_json.h"
#include "common/peertube/runner_paths.h"

namespace mc::peertube {
namespace {

using Json = nlohmann::json;

// One file of the video, as much as choosing the highest needs.
struct VideoFile {
  std::int64_t id = 0;
  int resolution = 0;
  double fps = 0;
};

bool ReadFile(JsonReader& reader, const Json& value, const std::string& path, VideoFile& file) {
  if (!reader.Object(value, path)) return false;
  const Json* id = reader.Member(value, path, "id");
  if (!id || !reader.Int(*id, JsonReader::Child(path, "id"), 0, INT64_MAX, file.id)) return false;
  const std::string resolution_path = JsonReader::Child(path, "resolution");
  const Json* resolution = reader.Member(value, path, "resolution");
  if (!resolution || !reader.Object(*resolution, resolution_path)) return false;
  const Json* resolution_id = reader.Member(*resolution, resolution_path, "id");
  std::int64_t height = 0;
  if (!resolution_id ||
      !reader.Int(*resolution_id, JsonReader::Child(resolution_path, "id"), 0, 100000, height))
    return false;
  file.resolution = static_cast<int>(height);
  // An audio-only file states fps -1 or null. Only a picture's rate counts.
  if (const Json* fps = JsonReader::OptionalMember(value, "fps"); fps && !fps->is_null()) {
    if (!reader.Number(*fps, JsonReader::Child(path, "fps"), -1, 1000, file.fps)) return false;
    if (file.fps < 0) file.fps = 0;
  }
  return true;
}

bool ReadFiles(JsonReader& reader, const Json& value, const std::string& path,
               std::optional<VideoFile>& highest) {
  if (!reader.Array(value, path)) return false;
  for (std::size_t i = 0; i < value.size(); ++i) {
    VideoFile file;
    if (!ReadFile(reader, value[i], JsonReader::Element(path, i), file)) return false;
    if (file.resolution > 0 && (!highest || file.resolution > highest->resolution)) highest = file;
  }
  return true;
}

}  // namespace

Result<VideoAnswer> ParseVideo(std::string_view json) {
  Result<Json> document = ParseAnswer(json, "the video");
  if (!document) return document.error();
  JsonReader reader;
  VideoAnswer answer;
  std::optional<VideoFile> highest;
  [&] {
    if (!reader.Object(*document, "(answer)")) return;
    const Json* uuid = reader.Member(*document, "", "uuid");
    if (!uuid || !reader.String(*uuid, "uuid", answer.facts.uuid)) return;
    if (!IsUuid(answer.facts.uuid)) {
      reader.Fail("uuid", "not a UUID");
      return;
    }
    const Json* duration = reader.Member(*document, "", "duration");
    // PeerTube transcodes no upload longer than a day in one piece. A live has 0.
    if (!duration || !reader.Number(*duration, "duration", 0, 1e7, answer.facts.duration_s)) return;
    if (const Json* files = JsonReader::OptionalMember(*document, "files");
        files && !ReadFiles(reader, *files, "files", highest))
      return;
    const Json* playlists = JsonReader::OptionalMember(*document, "streamingPlaylists");
    if (!playlists) return;
    if (!reader.Array(*playlists, "streamingPlaylists")) return;
    for (std::size_t i = 0; i < playlists->size(); ++i) {
      const std::string path = JsonReader::Element("streamingPlaylists", i);
      if (!reader.Object((*playlists)[i], path)) return;
      const Json* files = JsonReader::OptionalMember((*playlists)[i], "files");
      if (files && !ReadFiles(reader, *files, JsonReader::Child(path, "files"), highest)) return;
    }
  }();
  if (!reader.error_message().empty()) return InvalidInput("the video: " + reader.error_message());
  if (highest) {
    answer.facts.height = highest->resolution;
    answer.facts.fps = highest->fps;
    answer.highest_file_id = highest->id;
  }
  return answer;
}

Result<std::string> ParseVideoFileCodec(std::string_view json) {
  Result<Json> document = ParseAnswer(json, "the video file's metadata");
  if (!document) return document.error();
  JsonReader reader;
  std::string codec;
  [&] {
    if (!reader.Object(*document, "(answer)")) return;
    const Json* streams = reader.Member(*document, "", "streams");
    if (!streams || !reader.Array(*streams, "streams")) return;
    for (std::size_t i = 0; i < streams->size(); ++i) {
      const std::string path = JsonReader::Element("streams", i);
      const Json& stream = (*streams)[i];
      if (!reader.Object(stream, path)) return;
      const Json* type = JsonReader::OptionalMember(stream, "codec_type");
      if (!type || !type->is_string() || type->get_ref<const std::string&>() != "video") continue;
      const Json* name = reader.Member(stream, path, "codec_name");
      if (name) reader.String(*name, JsonReader::Child(path, "codec_name"), codec);
      return;
    }
  }();
  if (!reader.error_message().empty())
    return InvalidInput("the video file's metadata: " + reader.error_message());
  return codec;
}

}  // namespace mc::peertube
