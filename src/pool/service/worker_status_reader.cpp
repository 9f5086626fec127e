#include "pool/service/worker_status_reader.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "common/base/json_parse.h"
#include "common/base/json_reader.h"
#include "pool/trace/trace_recorder.h"

namespace mc::pool {

namespace {

using Json = nlohmann::json;
constexpr double kMaxRate = 1e12;

// The policy tells NVENC's session arithmetic from VA-API's by vendor; AMD and Intel both
// encode through VA-API, so both read as the VA-API vendor.
std::string PolicyVendor(const std::string& vendor) {
  if (vendor == "nvidia") return "nvidia";
  if (vendor == "intel" || vendor == "amd") return "intel";
  return "none";
}

class StatusReader {
 public:
  explicit StatusReader(std::string name) { status_.name = std::move(name); }

  Result<pool::WorkerStatus> Read(std::string_view text) {
    const Json document = ParseJsonOrDiscarded(text);
    if (document.is_discarded()) return Failed("status: not JSON");
    if (!reader_.Object(document, "status")) return Failed();
    std::int64_t version = 0;
    if (const Json* v = reader_.Member(document, "status", "schema_version");
        !v || !reader_.Int(*v, "status.schema_version", 0, 1000, version)) {
      return Failed();
    }
    if (version != 2)
      return Failed("status: schema_version " + std::to_string(version) +
                    " is not the version 2 this manager reads");
    if (!ReadState(document) || !ReadCounts(document) || !ReadGpu(document) ||
        !ReadProbe(document) || !ReadJobs(document) || !ReadTransfer(document)) {
      return Failed();
    }
    return status_;
  }

 private:
  Error Failed(std::string what = {}) const {
    return InvalidInput(status_.name + ": " + (what.empty() ? reader_.error_message() : what));
  }

  // Int reads the member `name` of `object` at `path` into `out`; `required` says whether a
  // missing member is an error or keeps `out`.
  bool Int(const Json& object, const std::string& path, const char* name, int& out,
           bool required = true) {
    const Json* value =
        required ? reader_.Member(object, path, name) : JsonReader::OptionalMember(object, name);
    if (!value) return !required;
    if (value->is_null() && !required) return true;
    std::int64_t number = 0;
    if (!reader_.Int(*value, JsonReader::Child(path, name), 0, kMaxCount, number)) return false;
    out = static_cast<int>(number);
    return true;
  }

  // OptionalNumber reads a member that may be absent or null.
  bool OptionalNumber(const Json& object, const std::string& path, const char* name,
                      std::optional<double>& out) {
    const Json* value = JsonReader::OptionalMember(object, name);
    if (!value || value->is_null()) return true;
    double number = 0;
    if (!reader_.Number(*value, JsonReader::Child(path, name), 0, kMaxRate, number)) return false;
    out = number;
    return true;
  }

  bool ReadState(const Json& document) {
    const Json* state = reader_.Member(document, "status", "state");
    std::string name;
    if (!state || !reader_.String(*state, "status.state", name)) return false;
    // NETWORK_DEGRADED is the pool's reading of the transfer block, never the worker's word.
    const std::optional<pool::AdmissionState> found = pool::ParseAdmissionState(name);
    if (!found || *found == pool::AdmissionState::kNetworkDegraded) {
      return reader_.Fail("status.state", "unknown state \"" + name + "\"");
    }
    status_.state = *found;
    return true;
  }

  bool ReadCounts(const Json& document) {
    if (!Int(document, "status", "active_jobs", status_.active_jobs) ||
        !Int(document, "status", "concurrency", status_.concurrency)) {
      return false;
    }
    const Json* limiters = JsonReader::OptionalMember(document, "concurrency_limiters");
    if (!limiters) return true;
    if (!reader_.Object(*limiters, "status.concurrency_limiters")) return false;
    const std::string path = "status.concurrency_limiters";
    const std::array<std::pair<const char*, std::optional<int>*>, 6> bounds = {{
        {"cpu", &status_.limiters.cpu},
        {"ram", &status_.limiters.ram},
        {"disk", &status_.limiters.disk},
        {"bw", &status_.limiters.bw},
        {"gpu_sessions", &status_.limiters.gpu_sessions},
        {"vram", &status_.limiters.vram},
    }};
    for (const auto& [name, out] : bounds) {
      int bound = -1;
      if (!Int(*limiters, path, name, bound, /*required=*/false)) return false;
      if (bound >= 0) *out = bound;
    }
    return true;
  }

  bool ReadGpu(const Json& document) {
    const Json* gpu = reader_.Member(document, "status", "gpu");
    if (!gpu || !reader_.Object(*gpu, "status.gpu")) return false;
    const std::string path = "status.gpu";
    std::string vendor;
    if (const Json* v = reader_.Member(*gpu, path, "vendor");
        !v || !reader_.String(*v, "status.gpu.vendor", vendor)) {
      return false;
    }
    status_.vendor = PolicyVendor(vendor);
    if (!Int(*gpu, path, "max_height", status_.capabilities.max_height, false)) return false;
    if (const Json* capabilities = JsonReader::OptionalMember(*gpu, "capabilities")) {
      if (!ReadCapabilities(*capabilities, path + ".capabilities")) return false;
    }
    if (const Json* sessions = JsonReader::OptionalMember(*gpu, "sessions")) {
      const std::string at = path + ".sessions";
      if (!reader_.Object(*sessions, at) ||
          !Int(*sessions, at, "active", status_.sessions_active) ||
          !Int(*sessions, at, "cap", status_.sessions_cap)) {
        return false;
      }
    }
    return ReadDevices(*gpu, path);
  }

  bool ReadCapabilities(const Json& capabilities, const std::string& path) {
    if (!reader_.Object(capabilities, path)) return false;
    pool::Capabilities& out = status_.capabilities;
    const std::array<std::pair<const char*, bool*>, 6> flags = {{
        {"h264_enc", &out.h264_enc},
        {"hevc_enc", &out.hevc_enc},
        {"av1_enc", &out.av1_enc},
        {"h264_dec", &out.h264_dec},
        {"hevc_dec", &out.hevc_dec},
        {"av1_dec", &out.av1_dec},
    }};
    for (const auto& [name, flag] : flags) {
      // What the document does not state, the worker cannot do. The document writes each
      // capability as 0 or 1 (the DRA attribute's own form).
      *flag = false;
      const Json* value = JsonReader::OptionalMember(capabilities, name);
      if (!value) continue;
      std::int64_t bit = 0;
      if (!reader_.Int(*value, JsonReader::Child(path, name), 0, 1, bit)) return false;
      *flag = bit == 1;
    }
    return true;
  }

  // The devices' free VRAM is the least of them and the encoder's load the highest: a worker
  // is as roomy as its fullest device.
  bool ReadDevices(const Json& gpu, const std::string& path) {
    const Json* devices = JsonReader::OptionalMember(gpu, "devices");
    if (!devices) return true;
    const std::string at = path + ".devices";
    if (!reader_.Array(*devices, at)) return false;
    for (std::size_t i = 0; i < devices->size(); ++i) {
      const Json& device = (*devices)[i];
      const std::string place = JsonReader::Element(at, i);
      if (!reader_.Object(device, place)) return false;
      std::optional<double> vram, enc;
      if (!OptionalNumber(device, place, "vram_free_mb", vram) ||
          !OptionalNumber(device, place, "enc_util_pct", enc)) {
        return false;
      }
      if (vram) status_.vram_free_mb = std::min(status_.vram_free_mb.value_or(*vram), *vram);
      if (enc) status_.enc_util_pct = std::max(status_.enc_util_pct, *enc);
    }
    return true;
  }

  // The worker refuses `enable` unless its last probe is green and under five minutes old.
  // The document states no probe time. So a green probe reads as fresh.
  // A stale one shows up as the enable's refusal, which the service reports.
  bool ReadProbe(const Json& document) {
    const Json* probe = reader_.Member(document, "status", "probe");
    if (!probe || !reader_.Object(*probe, "status.probe")) return false;
    const Json* ok = reader_.Member(*probe, "status.probe", "ok");
    if (!ok || !reader_.Bool(*ok, "status.probe.ok", status_.probe_ok)) return false;
    status_.probe_age = pool::Seconds(0);
    const Json* evidence = JsonReader::OptionalMember(document, "hw_evidence_last_job");
    if (evidence && !evidence->is_null()) {
      if (!reader_.Object(*evidence, "status.hw_evidence_last_job")) return false;
      bool good = false;
      const Json* value = reader_.Member(*evidence, "status.hw_evidence_last_job", "ok");
      if (!value || !reader_.Bool(*value, "status.hw_evidence_last_job.ok", good)) return false;
      status_.hw_evidence_ok = good;
    }
    return true;
  }

  bool ReadJobs(const Json& document) {
    const Json* jobs = reader_.Member(document, "status", "jobs");
    if (!jobs || !reader_.Object(*jobs, "status.jobs") ||
        !Int(*jobs, "status.jobs", "completed", status_.jobs_completed) ||
        !Int(*jobs, "status.jobs", "failed", status_.jobs_failed)) {
      return false;
    }
    const Json* last = JsonReader::OptionalMember(document, "last_job");
    if (!last || last->is_null()) return true;
    const std::string path = "status.last_job";
    if (!reader_.Object(*last, path)) return false;
    std::optional<double> rate, realtime, resolution, fps;
    if (!OptionalNumber(*last, path, "output_pixel_rate", rate) ||
        !OptionalNumber(*last, path, "realtime_factor", realtime)) {
      return false;
    }
    if (const Json* job_class = JsonReader::OptionalMember(*last, "class")) {
      const std::string at = path + ".class";
      if (!reader_.Object(*job_class, at) ||
          !OptionalNumber(*job_class, at, "resolution", resolution) ||
          !OptionalNumber(*job_class, at, "fps", fps)) {
        return false;
      }
    }
    // A job that has not run its encode has no rate to learn from yet.
    if (!rate || !realtime) return true;
    pool::JobShape shape;
    shape.resolution = static_cast<int>(resolution.value_or(shape.resolution));
    shape.fps = static_cast<int>(fps.value_or(shape.fps));
    status_.last_job =
        pool::LastJob{pool::ClassifyJob(shape, pool::ClassBounds{}), *rate / 1e6, *realtime};
    status_.realtime_factor_ewma = *realtime;
    return true;
  }

  bool ReadTransfer(const Json& document) {
    const Json* transfer = JsonReader::OptionalMember(document, "transfer");
    if (!transfer) return true;
    const std::string path = "status.transfer";
    if (!reader_.Object(*transfer, path)) return false;
    std::optional<double> down, up;
    if (!OptionalNumber(*transfer, path, "recent_download_mbps", down) ||
        !OptionalNumber(*transfer, path, "recent_upload_mbps", up)) {
      return false;
    }
    status_.download_mbps = down.value_or(0);
    status_.upload_mbps = up.value_or(0);
    bool degraded = false;
    if (const Json* flag = JsonReader::OptionalMember(*transfer, "network_degraded")) {
      if (!reader_.Bool(*flag, path + ".network_degraded", degraded)) return false;
    }
    // The worker keeps taking jobs on a slow network.
    // The policy holds large classes back from it.
    // So the policy hears of the collapse as its own state.
    if (degraded && status_.state == pool::AdmissionState::kAvailable) {
      status_.state = pool::AdmissionState::kNetworkDegraded;
    }
    return true;
  }

  JsonReader reader_;
  pool::WorkerStatus status_;
};

}  // namespace

Result<pool::WorkerStatus> ParseWorkerStatus(std::string_view json, const std::string& name) {
  return StatusReader(name).Read(json);
}

pool::WorkerStatus UnreadableWorker(const std::string& name) {
  pool::WorkerStatus status;
  status.name = name;
  status.readable = false;
  status.state = pool::AdmissionState::kOffline;
  return status;
}

}  // namespace mc::pool
