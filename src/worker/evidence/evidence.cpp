#include "worker/evidence/evidence.h"

#include <sstream>

namespace mc::worker {
namespace {

void AddMethod(std::string& method, const char* name) {
  if (method.find(name) != std::string::npos) return;
  method += (method.empty() ? "" : "+") + std::string(name);
}

}  // namespace

EvidenceVerdict JudgeEvidence(const EvidenceRecord& record, const Expectation& expectation) {
  EvidenceVerdict verdict;
  std::ostringstream seen;
  seen << record.samples << " samples over " << record.wall_seconds << " s";

  bool encode = false;
  bool decode = false;
  // On newer parts, amdgpu's encode engine serves decoding too (one unified queue). So it proves
  // decoding only on a pass that encodes nothing on the GPU.
  bool encode_engine = false;
  if (record.nvml) {
    const NvmlEvidence& nvml = *record.nvml;
    seen << "; NVML: " << nvml.max_sessions_of_tree
         << " encoder sessions of the tree, encUtil up to " << nvml.max_enc_util
         << " %, decUtil up to " << nvml.max_dec_util << " % in " << nvml.samples_of_tree
         << " samples of the tree";
    if (nvml.max_sessions_of_tree > 0) {
      encode = true;
      AddMethod(verdict.method, "nvml_encoder_sessions");
    }
    if (nvml.max_enc_util > 0) {
      encode = true;
      AddMethod(verdict.method, "nvml_process_util");
    }
    if (nvml.max_dec_util > 0) {
      decode = true;
      AddMethod(verdict.method, "nvml_process_util");
    }
  }
  if (record.drm) {
    const DrmEvidence& drm = *record.drm;
    const MediaEngineTime& time = drm.time;
    seen << "; DRM fdinfo of " << drm.clients << " clients: encode " << time.encode_ns
         << " ns, decode " << time.decode_ns << " ns, video " << time.codec_ns
         << " ns, video-enhance " << time.enhance_ns << " ns, vcs " << time.codec_cycles
         << " cycles";
    if (time.encode_ns > 0 || time.codec_ns > 0 || time.codec_cycles > 0) {
      encode = true;
      encode_engine = time.encode_ns > 0;
      AddMethod(verdict.method, "drm_fdinfo");
    }
    // Intel's video engine (i915's "video", xe's vcs) decodes and encodes alike. The kernel counts
    // its time as one. So that time proves the decode beside the encode. A decode that fell back to
    // the CPU cannot hide behind it. The plan keeps the decoded pictures on the GPU
    // (-hwaccel_output_format vaapi). There, CPU pictures fail the filters.
    if (time.decode_ns > 0 || time.codec_ns > 0 || time.codec_cycles > 0) {
      decode = true;
      AddMethod(verdict.method, "drm_fdinfo");
    }
  }
  if (!expectation.encode && encode_engine) decode = true;
  for (const std::string& problem : record.problems) seen << "; " << problem;

  verdict.encode_proven = expectation.encode && encode;
  verdict.decode_proven = expectation.decode && decode;
  if (verdict.method.empty()) verdict.method = "none";
  if (!expectation.encode && !expectation.decode) {
    verdict.evidence = "no hardware evidence: the job asks the GPU for nothing; " + seen.str();
    return verdict;
  }
  std::string missing;
  if (expectation.encode && !encode) missing = "no encoder work";
  if (expectation.decode && !decode)
    missing += std::string(missing.empty() ? "" : " and ") + "no decoder work";
  if (!missing.empty()) {
    verdict.evidence = "no hardware evidence (" + missing + " seen): " + seen.str();
    return verdict;
  }
  verdict.ok = true;
  verdict.evidence = seen.str();
  return verdict;
}

}  // namespace mc::worker
