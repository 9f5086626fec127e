#include "cli/ffmpeg_plan_command.h"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/base/read_file.h"
#include "common/base/text.h"
#include "worker/transcode/plan.h"
#include "worker/transcode/plan_json.h"

namespace mc {
namespace {

struct FfmpegPlanOptions {
  std::string device_file;
  std::string facts_file;
  std::string nvenc_preset = "p5";
  std::string cuda_ordinal = "0";
  std::string render_node;
  std::string max_b_frames;
  std::vector<std::string> args;
};

constexpr int kUsageError = 2;

int Usage(const std::string& message) {
  std::cerr << "ffmpeg-plan: " << message << "\n";
  return kUsageError;
}

std::optional<int> Count(const std::string& text) {
  const std::optional<int> value = ParseInteger<int>(text);
  if (!value || *value < 0) return std::nullopt;
  return value;
}

// Run plans the runner's arguments; `extras` is what CLI11 left over, which must be no more
// than the -- before them.
int Run(const FfmpegPlanOptions& given, const std::vector<std::string>& extras) {
  for (const std::string& extra : extras) {
    if (extra != "--") return Usage("unknown argument " + extra + " before --");
  }
  if (given.device_file.empty()) return Usage("--device DEVICE.json is required");
  if (given.args.empty()) return Usage("no ffmpeg arguments after --");
  Result<std::string> device_text = ReadFileText(given.device_file);
  if (!device_text) return Usage("--device: " + device_text.error_message());
  Result<worker::PlanDevice> device = worker::ParsePlanDevice(*device_text);
  if (!device) return Usage("--device " + given.device_file + ": " + device.error_message());
  std::optional<worker::InputFacts> facts;
  if (!given.facts_file.empty()) {
    Result<std::string> facts_text = ReadFileText(given.facts_file);
    if (!facts_text) return Usage("--input-facts: " + facts_text.error_message());
    Result<worker::InputFacts> parsed = worker::ParseInputFacts(*facts_text);
    if (!parsed) return Usage("--input-facts " + given.facts_file + ": " + parsed.error_message());
    facts = *parsed;
  }
  worker::PlanOptions options;
  options.nvenc_preset = given.nvenc_preset;
  options.render_node = given.render_node;
  const std::optional<int> ordinal = Count(given.cuda_ordinal);
  if (!ordinal) return Usage("--cuda-ordinal: expected a whole number, got " + given.cuda_ordinal);
  options.cuda_ordinal = *ordinal;
  if (!given.max_b_frames.empty()) {
    options.max_b_frames = Count(given.max_b_frames);
    if (!options.max_b_frames) {
      return Usage("--max-b-frames: expected a whole number, got " + given.max_b_frames);
    }
  }
  const worker::Plan plan = worker::PlanArgv(given.args, *device, facts, options);
  std::cout << worker::PlanJson(plan) << "\n";
  return plan.kind == worker::PlanKind::kRefuse ? 1 : 0;
}

}  // namespace

std::function<int()> AddFfmpegPlanCommand(CLI::App& app) {
  auto given = std::make_shared<FfmpegPlanOptions>();
  CLI::App* command = app.add_subcommand(
      "ffmpeg-plan", "print what the GPU runs instead of one of the runner's ffmpeg command lines");
  // CLI11 leaves the -- itself among the extras, and the words after it to `args`.
  command->allow_extras();
  command->add_option("--device", given->device_file,
                      "the device, as `probe --output json` prints it");
  command->add_option("--input-facts", given->facts_file,
                      "ffprobe's JSON of the input (-show_streams -show_format)");
  command->add_option("--nvenc-preset", given->nvenc_preset, "the NVENC preset")
      ->capture_default_str();
  command
      ->add_option("--cuda-ordinal", given->cuda_ordinal,
                   "CUDA's index of this GPU in PCI bus order")
      ->capture_default_str();
  command->add_option("--render-node", given->render_node, "VA-API: the GPU's render node");
  command->add_option("--max-b-frames", given->max_b_frames,
                      "cap the runner's -bf (default: drop it, the encoder's preset chooses)");
  command->add_option("args", given->args, "the runner's ffmpeg arguments, after --");
  return [given, command] { return Run(*given, command->remaining()); };
}

}  // namespace mc
