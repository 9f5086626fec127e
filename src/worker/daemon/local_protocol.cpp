#include "worker/daemon/local_protocol.h"

#include <limits>
#include <type_traits>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "common/base/json_text.h"

namespace mc::worker {
namespace {

using Json = nlohmann::json;

constexpr std::int64_t kMaxCount = 1 << 20;
constexpr std::int64_t kMaxInt = std::numeric_limits<std::int32_t>::max();

// The readers below read an optional member. Absent leaves `out` as it is.
bool OptionalString(JsonReader& reader, const Json& object, const char* name, std::string& out) {
  const Json* value = JsonReader::OptionalMember(object, name);
  return !value || reader.String(*value, JsonReader::Child("", name), out);
}

bool OptionalInt(JsonReader& reader, const Json& object, const char* name, std::int64_t low,
                 std::int64_t high, std::int64_t& out) {
  const Json* value = JsonReader::OptionalMember(object, name);
  return !value || reader.Int(*value, JsonReader::Child("", name), low, high, out);
}

bool OptionalNumber(JsonReader& reader, const Json& object, const char* name, double& out) {
  const Json* value = JsonReader::OptionalMember(object, name);
  if (!value) return true;
  if (!value->is_number()) return reader.Fail(JsonReader::Child("", name), "expected a number");
  out = value->get<double>();
  if (!(out >= 0) || out > 1e12)
    return reader.Fail(JsonReader::Child("", name), "expected a number from 0 to 1e12");
  return true;
}

bool ReadReport(JsonReader& reader, const Json& object, WrapperRunReport& report) {
  std::int64_t exit_code = 0;
  bool ok = OptionalString(reader, object, "job_form", report.job_form) &&
            OptionalInt(reader, object, "output_height", 0, kMaxCount, report.output_height) &&
            OptionalNumber(reader, object, "output_fps", report.output_fps) &&
            OptionalInt(reader, object, "encode_sessions", 0, kMaxCount, report.encode_sessions) &&
            OptionalString(reader, object, "encoder", report.encoder) &&
            OptionalInt(reader, object, "exit_code", 0, 255, exit_code) &&
            OptionalString(reader, object, "evidence", report.evidence) &&
            OptionalString(reader, object, "gpu_failure", report.gpu_failure) &&
            OptionalNumber(reader, object, "media_seconds", report.media_seconds) &&
            OptionalNumber(reader, object, "wall_seconds", report.wall_seconds) &&
            OptionalNumber(reader, object, "cpu_seconds", report.cpu_seconds) &&
            OptionalInt(reader, object, "width", 0, kMaxReportedPictureSide, report.width) &&
            OptionalInt(reader, object, "height", 0, kMaxReportedPictureSide, report.height) &&
            OptionalInt(reader, object, "source_width", 0, kMaxReportedPictureSide,
                        report.source_width) &&
            OptionalInt(reader, object, "source_height", 0, kMaxReportedPictureSide,
                        report.source_height) &&
            OptionalString(reader, object, "source_codec", report.source_codec);
  if (!ok) return false;
  report.exit_code = static_cast<int>(exit_code);
  if (const Json* evidence_ok = JsonReader::OptionalMember(object, "evidence_ok")) {
    if (!reader.Bool(*evidence_ok, "evidence_ok", report.evidence_ok)) return false;
  }
  if (const Json* died = JsonReader::OptionalMember(object, "runner_died")) {
    if (!reader.Bool(*died, "runner_died", report.runner_died)) return false;
  }
  if (const Json* notes = JsonReader::OptionalMember(object, "notes")) {
    if (!reader.StringList(*notes, "notes", report.notes)) return false;
  }
  return true;
}

Json ReportJson(const WrapperRunReport& report) {
  return {{"job_form", report.job_form},
          {"output_height", report.output_height},
          {"output_fps", report.output_fps},
          {"encode_sessions", report.encode_sessions},
          {"encoder", report.encoder},
          {"exit_code", report.exit_code},
          {"evidence_ok", report.evidence_ok},
          {"evidence", report.evidence},
          {"gpu_failure", report.gpu_failure},
          {"runner_died", report.runner_died},
          {"media_seconds", report.media_seconds},
          {"wall_seconds", report.wall_seconds},
          {"cpu_seconds", report.cpu_seconds},
          {"width", report.width},
          {"height", report.height},
          {"source_width", report.source_width},
          {"source_height", report.source_height},
          {"source_codec", report.source_codec},
          {"notes", report.notes}};
}

Result<Json> ParseObject(std::string_view line) {
  Json value = ParseJsonOrDiscarded(line);
  if (value.is_discarded()) return InvalidInput("not JSON");
  if (!value.is_object()) return InvalidInput("expected a JSON object");
  return value;
}

}  // namespace

Result<LocalRequest> ParseLocalRequest(std::string_view line) {
  Result<Json> parsed = ParseObject(line);
  if (!parsed) return parsed.error();
  const Json& object = *parsed;
  JsonReader reader;
  std::string op;
  const Json* op_value = reader.Member(object, "", "op");
  if (!op_value || !reader.String(*op_value, "op", op)) return reader.error();
  if (op == "context") return LocalRequest{ContextRequest{}};
  if (op == "drain") return LocalRequest{DrainRequest{}};
  if (op == "enable") return LocalRequest{EnableRequest{}};
  if (op == "state") return LocalRequest{StateRequest{}};
  if (op == "acquire") {
    AcquireRequest request;
    if (!OptionalInt(reader, object, "sessions", 1, kMaxCount, request.sessions) ||
        !OptionalInt(reader, object, "pid", 0, kMaxInt, request.pid) ||
        !OptionalString(reader, object, "job_form", request.job_form) ||
        !OptionalInt(reader, object, "output_height", 0, kMaxCount, request.output_height))
      return reader.error();
    return LocalRequest{request};
  }
  if (op == "finished") {
    FinishedRequest request;
    const Json* report = reader.Member(object, "", "report");
    if (!report || !reader.Object(*report, "report") ||
        !ReadReport(reader, *report, request.report))
      return reader.error();
    return LocalRequest{request};
  }
  if (op == "refused") {
    RefusedRequest request;
    if (!OptionalString(reader, object, "reason", request.reason)) return reader.error();
    return LocalRequest{request};
  }
  if (op == "concurrency") {
    ConcurrencyRequest request;
    const Json* value = JsonReader::OptionalMember(object, "value");
    if (value && !value->is_null()) {
      std::int64_t number = 0;
      if (!reader.Int(*value, "value", 0, kMaxCount, number)) return reader.error();
      request.value = number;
    }
    return LocalRequest{request};
  }
  if (op == "eligibility") {
    EligibilityRequest request;
    if (!OptionalString(reader, object, "value", request.text)) return reader.error();
    return LocalRequest{request};
  }
  return InvalidInput("op: unknown operation \"" + op +
                      "\" (context, acquire, finished, refused, drain, enable, concurrency, "
                      "eligibility, state)");
}

std::string LocalRequestLine(const LocalRequest& request) {
  Json line = std::visit(
      [](const auto& r) -> Json {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, ContextRequest>) return {{"op", "context"}};
        if constexpr (std::is_same_v<T, AcquireRequest>)
          return {{"op", "acquire"},
                  {"sessions", r.sessions},
                  {"pid", r.pid},
                  {"job_form", r.job_form},
                  {"output_height", r.output_height}};
        if constexpr (std::is_same_v<T, FinishedRequest>)
          return {{"op", "finished"}, {"report", ReportJson(r.report)}};
        if constexpr (std::is_same_v<T, RefusedRequest>)
          return {{"op", "refused"}, {"reason", r.reason}};
        if constexpr (std::is_same_v<T, DrainRequest>) return {{"op", "drain"}};
        if constexpr (std::is_same_v<T, EnableRequest>) return {{"op", "enable"}};
        if constexpr (std::is_same_v<T, ConcurrencyRequest>)
          return {{"op", "concurrency"}, {"value", r.value ? Json(*r.value) : Json(nullptr)}};
        if constexpr (std::is_same_v<T, EligibilityRequest>)
          return {{"op", "eligibility"}, {"value", r.text}};
        if constexpr (std::is_same_v<T, StateRequest>) return {{"op", "state"}};
      },
      request);
  return JsonText(line) + "\n";
}

Result<LocalAnswer> ParseLocalAnswer(std::string_view line) {
  Result<Json> parsed = ParseObject(line);
  if (!parsed) return parsed.error();
  const Json& object = *parsed;
  JsonReader reader;
  LocalAnswer answer;
  const Json* ok = reader.Member(object, "", "ok");
  if (!ok || !reader.Bool(*ok, "ok", answer.ok) ||
      !OptionalString(reader, object, "message", answer.message) ||
      !OptionalString(reader, object, "state", answer.state))
    return reader.error();
  if (const Json* context = JsonReader::OptionalMember(object, "context")) {
    if (!reader.Object(*context, "context")) return reader.error();
    WrapperContext value;
    const Json* device = reader.Member(*context, "context", "device");
    if (!device || !reader.Object(*device, "context.device")) return reader.error();
    value.device = *device;
    std::int64_t ordinal = 0;
    double baseline_rate = 0;
    double baseline_pixels = 0;
    if (!OptionalString(reader, *context, "render_node", value.render_node) ||
        !OptionalInt(reader, *context, "cuda_ordinal", 0, 1024, ordinal) ||
        !OptionalString(reader, *context, "ffmpeg", value.ffmpeg) ||
        !OptionalString(reader, *context, "ffprobe", value.ffprobe) ||
        !OptionalString(reader, *context, "nvenc_preset", value.nvenc_preset) ||
        !OptionalString(reader, *context, "probe_module", value.probe_module) ||
        !OptionalString(reader, *context, "nvml_library", value.nvml_library) ||
        !OptionalString(reader, *context, "proc_root", value.proc_root) ||
        !OptionalNumber(reader, *context, "baseline_cpu_seconds_per_media_second", baseline_rate) ||
        !OptionalNumber(reader, *context, "baseline_pixels_per_frame", baseline_pixels) ||
        !OptionalNumber(reader, *context, "plausible_cpu_fraction", value.plausible_cpu_fraction))
      return InvalidInput("context." + reader.error_message());
    value.cuda_ordinal = static_cast<int>(ordinal);
    if (baseline_rate > 0 && baseline_pixels > 0) {
      value.baseline_cpu_seconds_per_media_second = baseline_rate;
      value.baseline_pixels_per_frame = baseline_pixels;
    }
    answer.context = std::move(value);
  }
  return answer;
}

std::string LocalAnswerLine(const LocalAnswer& answer) {
  Json line = {{"ok", answer.ok}, {"message", answer.message}, {"state", answer.state}};
  if (answer.context) {
    const WrapperContext& c = *answer.context;
    Json context = {{"device", c.device},
                    {"render_node", c.render_node},
                    {"cuda_ordinal", c.cuda_ordinal},
                    {"ffmpeg", c.ffmpeg},
                    {"ffprobe", c.ffprobe},
                    {"nvenc_preset", c.nvenc_preset},
                    {"probe_module", c.probe_module},
                    {"nvml_library", c.nvml_library},
                    {"proc_root", c.proc_root},
                    {"plausible_cpu_fraction", c.plausible_cpu_fraction}};
    if (c.baseline_cpu_seconds_per_media_second && c.baseline_pixels_per_frame) {
      context["baseline_cpu_seconds_per_media_second"] = *c.baseline_cpu_seconds_per_media_second;
      context["baseline_pixels_per_frame"] = *c.baseline_pixels_per_frame;
    }
    line["context"] = std::move(context);
  }
  return JsonText(line) + "\n";
}

}  // namespace mc::worker
