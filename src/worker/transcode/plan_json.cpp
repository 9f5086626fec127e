#include "worker/transcode/plan_json.h"

#include <nlohmann/json.hpp>

#include "common/base/json_text.h"

namespace mc::worker {

std::string PlanJson(const Plan& plan) {
  nlohmann::ordered_json json;
  switch (plan.kind) {
    case PlanKind::kRun:
      json["run"] = plan.argv;
      json["notes"] = plan.notes;
      json["env"] = plan.environment;
      json["encoder"] = plan.encoder;
      json["encode_sessions"] = plan.encode_sessions;
      json["hardware_decode"] = plan.hardware_decode;
      json["job_form"] = plan.job_form;
      json["output_height"] = plan.output_height;
      json["output_fps"] = plan.output_fps;
      break;
    case PlanKind::kPassThrough:
      json["pass"] = plan.argv;
      json["job_form"] = plan.job_form;
      break;
    case PlanKind::kRefuse:
      json["refuse"] = plan.refusal;
      json["job_form"] = plan.job_form;
      break;
  }
  // Replacement rather than an exception: an argv may hold any bytes.
  return JsonText(json);
}

}  // namespace mc::worker
