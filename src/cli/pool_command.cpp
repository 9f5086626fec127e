#include "cli/pool_command.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "cli/option_checks.h"
#include "cli/pool_replay_command.h"
#include "cli/pool_run.h"
#include "common/base/read_file.h"
#include "pool/page/pool_page.h"
#include "pool/page/simulated_page.h"
#include "pool/policy/config_yaml.h"
#include "pool/service/service_config.h"
#include "pool/simulator/frontier.h"
#include "pool/simulator/sim_report.h"
#include "pool/simulator/simulator.h"
#include "pool/trace/trace_recorder.h"
#include "pool/trace/trace_shapes.h"

namespace mc {

namespace {

// Every option of every pool subcommand, filled by CLI11.
struct PoolOptions {
  std::string trace_file;
  std::string workers_file;
  std::string config_file;
  std::string policy = "ours";
  std::string output = "table";
  std::string plot_file;
  std::string html_file;
  std::string target_waits;  // with --compare: ours once per target wait
  std::string outage;        // FROM:FOR, in seconds
  bool reasons = false;
  bool compare = false;
  unsigned race_order = 1;
  std::string shape;
  unsigned variant = 1;
  double scale = 1;
  std::string jobs_file;
  int resolution = 720;
  double duration_s = 0;
  // The manager's default listen, as `pool run` takes it.
  std::string status_url = std::string("http://") + pool::kDefaultPoolListen;
  std::string record_file;
};

Result<pool::PoolConfig> LoadConfig(const std::string& path) {
  if (path.empty()) return pool::PoolConfig{};
  Result<std::string> text = ReadFileText(path);
  if (!text) return text.error();
  return pool::ParsePoolConfig(*text, path);
}

int Fail(const std::string& message) {
  std::cerr << "pool: " << message << "\n";
  return 1;
}

// One trace under ours, the design's rules, every baseline and the clairvoyant limit. The
// limit is held to ours' p95 wait. It prints a table or JSON. With --plot, it writes one SVG a
// policy beside FILE.
int RunCompare(const PoolOptions& options, const pool::Trace& trace,
               const std::vector<pool::SimWorkerSpec>& workers, pool::SimOptions sim) {
  std::vector<pool::NamedResult> runs;
  const auto run = [&](const char* name, pool::PolicyKind kind, pool::PolicyProfile profile) {
    pool::SimOptions options_of = sim;
    options_of.policy = kind;
    options_of.config.profile = profile;
    runs.push_back({name, pool::Simulate(trace, workers, options_of)});
  };
  const pool::PolicyProfile profile = sim.config.profile;
  run("ours", pool::PolicyKind::kPoolManager, profile);
  if (!options.target_waits.empty()) {
    Result<std::vector<pool::Duration>> waits = pool::ParseTargetWaits(options.target_waits);
    if (!waits) return Fail(waits.error_message());
    for (pool::FrontierPoint& point : pool::SimulateFrontier(trace, workers, sim, *waits)) {
      runs.push_back({"ours " + pool::FormatDuration(point.target_wait), std::move(point.result)});
    }
  }
  if (profile != pool::PolicyProfile::kDesign) {
    run("design", pool::PolicyKind::kPoolManager, pool::PolicyProfile::kDesign);
  }
  for (pool::PolicyKind kind : {pool::PolicyKind::kHpa, pool::PolicyKind::kKeda,
                                pool::PolicyKind::kArc, pool::PolicyKind::kStatic}) {
    run(std::string(pool::PolicyKindName(kind)).c_str(), kind, profile);
  }
  sim.bound_wait_s = std::max(1.0, runs.front().result.wait_p95_s);
  run("bound", pool::PolicyKind::kBound, profile);
  std::cout << (options.output == "json" ? pool::CompareJson(runs) : pool::CompareTable(runs));
  if (!options.plot_file.empty()) {
    std::string base = options.plot_file;
    if (base.size() > 4 && base.ends_with(".svg")) base.resize(base.size() - 4);
    for (const pool::NamedResult& named : runs) {
      const std::string file = base + "-" + named.name + ".svg";
      std::ofstream plot(file);
      plot << pool::PressurePlot(named.result, options.trace_file + ", " + named.name);
      if (!plot) return Fail(file + ": cannot be written");
    }
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

int RunSimulate(const PoolOptions& options) {
  Result<std::string> trace_text = ReadFileText(options.trace_file);
  if (!trace_text) return Fail(trace_text.error_message());
  Result<pool::Trace> trace = pool::ParseTrace(*trace_text, options.trace_file);
  if (!trace) return Fail(trace.error_message());
  Result<std::string> workers_text = ReadFileText(options.workers_file);
  if (!workers_text) return Fail(workers_text.error_message());
  Result<std::vector<pool::SimWorkerSpec>> workers =
      pool::ParseWorkers(*workers_text, options.workers_file);
  if (!workers) return Fail(workers.error_message());
  Result<pool::PoolConfig> config = LoadConfig(options.config_file);
  if (!config) return Fail(config.error_message());
  // An event about a worker the pool lacks would do nothing: name it instead.
  for (const pool::TraceEvent& event : trace->events) {
    if (event.worker.empty()) continue;
    const bool known = std::any_of(workers->begin(), workers->end(),
                                   [&](const auto& spec) { return spec.name == event.worker; });
    if (!known) {
      return Fail(options.trace_file + ": line " + std::to_string(event.line) +
                  ": worker: " + event.worker + " is not in " + options.workers_file);
    }
  }

  pool::SimOptions sim;
  sim.policy = *pool::ParsePolicyKind(options.policy);
  sim.config = *config;
  sim.race_order = options.race_order;
  if (!options.outage.empty()) {
    double from = 0, lasts = 0;
    char colon = 0;
    std::istringstream in(options.outage);
    if (!(in >> from >> colon >> lasts) || colon != ':' || from < 0 || lasts <= 0) {
      return Fail("--queue-outage: expected FROM:FOR in seconds, such as 600:600");
    }
    sim.queue_outages.push_back({from, lasts});
  }
  if (options.compare && !options.html_file.empty())
    return Fail("--html draws the page of one run: leave out --compare, or give --policy");
  if (!options.compare && !options.target_waits.empty())
    return Fail("--target-waits draws a frontier beside the baselines: add --compare");
  if (options.compare) return RunCompare(options, *trace, *workers, sim);
  sim.keep_log = options.reasons || options.output == "json" || !options.html_file.empty();
  const pool::SimResult result = pool::Simulate(*trace, *workers, sim);
  if (options.reasons) {
    for (const std::string& line : result.log) std::cerr << line << "\n";
  }
  std::cout << (options.output == "json" ? pool::ResultJson(result) : pool::ResultTable(result));
  if (!options.plot_file.empty()) {
    std::ofstream plot(options.plot_file);
    plot << pool::PressurePlot(result, options.trace_file + ", " + options.policy);
    if (!plot) return Fail(options.plot_file + ": cannot be written");
  }
  if (!options.html_file.empty()) {
    std::ofstream html(options.html_file);
    html << pool::PoolPageHtml(pool::SimulatedPageInput(
        result, *workers, options.trace_file + " under " + options.policy, sim.config.target_wait));
    if (!html) return Fail(options.html_file + ": cannot be written");
  }
  std::cout.flush();
  return std::cout ? 0 : 1;
}

int RunGenerate(const PoolOptions& options) {
  const std::optional<pool::TraceShape> shape = pool::ParseTraceShape(options.shape);
  if (!shape) return Fail("--shape: unknown shape " + options.shape);
  std::cout << pool::TraceToJsonl(pool::GenerateTrace(*shape, options.variant, options.scale));
  std::cout.flush();
  return std::cout ? 0 : 1;
}

int RunRecord(const PoolOptions& options) {
  Result<std::string> text = ReadFileText(options.jobs_file);
  if (!text) return Fail(text.error_message());
  pool::RecordOptions record{options.resolution, options.duration_s};
  Result<pool::Trace> trace = pool::RecordTrace(*text, record, options.jobs_file);
  if (!trace) return Fail(trace.error_message());
  std::cout << pool::TraceToJsonl(*trace);
  std::cout.flush();
  return std::cout ? 0 : 1;
}

int RunConfig(const PoolOptions& options) {
  Result<pool::PoolConfig> config = LoadConfig(options.config_file);
  if (!config) return Fail(config.error_message());
  std::cout << pool::PoolConfigToYaml(*config);
  std::cout.flush();
  return std::cout ? 0 : 1;
}

// The subcommands, each with its options, in the order `pool --help` lists them.

CLI::App* AddSimulate(CLI::App& pool, PoolOptions& options) {
  CLI::App* simulate =
      pool.add_subcommand("simulate", "run a trace against simulated workers under one policy");
  simulate
      ->add_option("--trace", options.trace_file, "the trace, JSON Lines (docs/pool/simulator.md)")
      ->required();
  simulate
      ->add_option("--workers", options.workers_file, "the workers, YAML (docs/pool/simulator.md)")
      ->required();
  simulate
      ->add_option("--policy", options.policy,
                   "ours, hpa, keda, arc, static, or bound (the clairvoyant limit)")
      ->check(OneOf({"ours", "hpa", "keda", "arc", "static", "bound"}, "policy", "policies"))
      ->capture_default_str();
  simulate->add_option("-o,--output", options.output, "table or json")
      ->check(OneOf({"table", "json"}, "format"))
      ->capture_default_str();
  simulate->add_option("--config", options.config_file, "the pool's YAML configuration");
  simulate->add_option("--plot", options.plot_file, "write P over time as an SVG file");
  simulate->add_option("--html", options.html_file,
                       "write the pool manager's page for the simulated run as an HTML file");
  simulate->add_option("--queue-outage", options.outage, "FROM:FOR seconds without a job list");
  simulate->add_flag("--compare", options.compare,
                     "run the trace under ours, the design's rules, every baseline and the "
                     "clairvoyant limit, a row each");
  simulate->add_option("--target-waits", options.target_waits,
                       "with --compare, also ours once per target wait, as in 30s,1m,2m,5m: the "
                       "p95 wait each buys against its worker-hours");
  simulate->add_option("--race-order", options.race_order,
                       "which random order the free runners ask in (default 1)");
  simulate->add_flag("--reasons", options.reasons,
                     "print ours' reasons, with their times, on stderr");
  return simulate;
}

CLI::App* AddGenerateTrace(CLI::App& pool, PoolOptions& options) {
  CLI::App* generate = pool.add_subcommand("generate-trace", "print a generated trace");
  std::string shapes;
  for (const pool::TraceShapeInfo& info : pool::TraceShapes()) {
    shapes += std::string(shapes.empty() ? "" : ", ") + info.name;
  }
  generate->add_option("--shape", options.shape, shapes)->required();
  generate->add_option("--variant", options.variant, "which of the shape's random draws")
      ->capture_default_str();
  generate->add_option("--scale", options.scale, "multiply the number of uploads")
      ->check(NumberFrom(0.01, 1000.0))
      ->capture_default_str();
  return generate;
}

CLI::App* AddRecordTrace(CLI::App& pool, PoolOptions& options) {
  CLI::App* record = pool.add_subcommand("record-trace", "turn a PeerTube job list into a trace");
  record
      ->add_option("--jobs", options.jobs_file,
                   "GET /api/v1/runners/jobs JSON, or JSON Lines of its jobs")
      ->required();
  record->add_option("--resolution", options.resolution, "for jobs whose payload states none")
      ->capture_default_str();
  record
      ->add_option("--duration", options.duration_s,
                   "the videos' length in seconds; 0: each job's recorded run time")
      ->capture_default_str();
  return record;
}

CLI::App* AddConfigPrint(CLI::App& pool, PoolOptions& options) {
  CLI::App* config = pool.add_subcommand("config", "print the configuration in effect, as YAML");
  config->add_option("--config", options.config_file, "the pool's YAML configuration");
  return config;
}

CLI::App* AddPoolRun(CLI::App& pool, PoolOptions& options) {
  CLI::App* run = pool.add_subcommand(
      "run", "run the pool manager: read PeerTube's queue and the workers, admit and drain them");
  run->add_option("--config", options.config_file,
                  "the pool service's YAML file (docs/pool/operating.md)")
      ->required();
  run->add_option(
      "--record", options.record_file,
      "write every cycle's inputs and decisions to FILE, JSON Lines (docs/pool/operating.md)");
  return run;
}

CLI::App* AddReplay(CLI::App& pool, PoolOptions& options, ReplayOptions& replay_options) {
  CLI::App* replay = pool.add_subcommand(
      "replay", "replay a pool run's record in the simulator and compare the decisions");
  replay->add_option("--record", replay_options.record_file, "pool run --record's file")
      ->required();
  replay->add_option("--config", replay_options.config_file,
                     "the policy's YAML, in place of the record's own");
  replay->add_flag("--strict", replay_options.strict,
                   "feed the recorded cycles to the policy alone: exactly the recorded decisions");
  replay->add_option("-o,--output", options.output, "table or json")
      ->check(OneOf({"table", "json"}, "format"));
  replay->add_flag("--reasons", replay_options.reasons,
                   "print the simulation's reasons, with their times, on stderr");
  return replay;
}

CLI::App* AddPoolStatus(CLI::App& pool, PoolOptions& options) {
  CLI::App* status = pool.add_subcommand("status", "print a running pool manager's view");
  status->add_option("--url", options.status_url, "the manager's report address (its listen)")
      ->capture_default_str();
  status->add_option("-o,--output", options.output, "table or json")
      ->check(OneOf({"table", "json"}, "format"));
  return status;
}

}  // namespace

std::function<int()> AddPoolCommand(CLI::App& app) {
  auto options = std::make_shared<PoolOptions>();
  auto replay_options = std::make_shared<ReplayOptions>();
  CLI::App* pool = app.add_subcommand(
      "pool", "the pool manager: run, status, simulate, replay, generate and record traces");
  pool->require_subcommand(1);
  CLI::App* simulate = AddSimulate(*pool, *options);
  CLI::App* generate = AddGenerateTrace(*pool, *options);
  CLI::App* record = AddRecordTrace(*pool, *options);
  CLI::App* config = AddConfigPrint(*pool, *options);
  CLI::App* run = AddPoolRun(*pool, *options);
  CLI::App* replay = AddReplay(*pool, *options, *replay_options);
  CLI::App* status = AddPoolStatus(*pool, *options);
  return [=]() -> int {
    if (*simulate) return RunSimulate(*options);
    if (*generate) return RunGenerate(*options);
    if (*record) return RunRecord(*options);
    if (*config) return RunConfig(*options);
    if (*run) return RunPool(options->config_file, options->record_file);
    if (*status) return RunPoolStatus(options->status_url, options->output == "json");
    if (*replay) {
      replay_options->json = options->output == "json";
      return RunReplay(*replay_options);
    }
    return 2;
  };
}

}  // namespace mc
