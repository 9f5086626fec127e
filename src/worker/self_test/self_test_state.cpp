#include "worker/self_test/self_test_state.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/base/json_parse.h"
#include "common/base/json_text.h"
#include "common/base/read_file.h"
#include "worker/probe_contract/utc_time.h"

namespace mc::worker {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

template <typename T>
json OrNull(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace

json SelfTestReportJson(const SelfTestReport& report) {
  json steps = json::array();
  for (const SelfTestStep& step : report.steps) {
    steps.push_back({{"name", step.name},
                     {"ok", step.ok},
                     {"seconds", step.seconds},
                     {"evidence", step.evidence},
                     {"detail", step.detail}});
  }
  json baseline = nullptr;
  if (report.cpu_baseline) {
    baseline = {{"cpu_seconds_per_media_second", report.cpu_baseline->cpu_seconds_per_media_second},
                {"pixels_per_frame", report.cpu_baseline->pixels_per_frame}};
  }
  return {{"ts", report.ts},
          {"ok", report.ok},
          {"evidence", report.evidence},
          {"detail", report.detail},
          {"steps", steps},
          {"sessions_cap", OrNull(report.sessions_cap)},
          {"pipeline_vram_mb", OrNull(report.pipeline_vram_mb)},
          {"cpu_baseline", baseline},
          {"downgraded", report.downgraded},
          {"gpu",
           {{"pci_ids", report.gpu.pci_ids},
            {"driver", report.gpu.driver},
            {"pci_address", OrNull(report.gpu.pci_address)},
            {"subsystem_ids", report.gpu.subsystem_ids}}}};
}

namespace {

// TestedGpuFromJson reads the report's gpu object; an older worker's names no board.
TestedGpu TestedGpuFromJson(const json& gpu) {
  TestedGpu tested{gpu.at("pci_ids").get<std::string>(), gpu.at("driver").get<std::string>()};
  if (gpu.contains("pci_address") && !gpu.at("pci_address").is_null())
    tested.pci_address = gpu.at("pci_address").get<std::string>();
  if (gpu.contains("subsystem_ids"))
    tested.subsystem_ids = gpu.at("subsystem_ids").get<std::string>();
  return tested;
}

// DescribeTestedGpu names a GPU, its board and its driver for a refusal.
std::string DescribeTestedGpu(const TestedGpu& gpu) {
  std::string words = gpu.pci_ids.empty() ? std::string("an unnamed GPU") : gpu.pci_ids;
  if (!gpu.pci_address)
    words += " on a board it does not name (a report of an older worker)";
  else
    words += " at " +
             (gpu.pci_address->empty() ? std::string("no PCI address") : *gpu.pci_address) +
             " with board ids " +
             (gpu.subsystem_ids.empty() ? std::string("unknown") : gpu.subsystem_ids);
  return words + " with driver " +
         (gpu.driver.empty() ? std::string("unnamed") : "\"" + gpu.driver + "\"");
}

SelfTestReport FromJson(const json& document) {
  SelfTestReport report;
  report.ts = document.at("ts").get<std::string>();
  report.ok = document.at("ok").get<bool>();
  report.evidence = document.at("evidence").get<std::string>();
  report.detail = document.at("detail").get<std::string>();
  for (const json& step : document.at("steps")) {
    report.steps.push_back({step.at("name").get<std::string>(), step.at("ok").get<bool>(),
                            step.at("seconds").get<double>(),
                            step.at("evidence").get<std::string>(),
                            step.at("detail").get<std::string>()});
  }
  if (!document.at("sessions_cap").is_null())
    report.sessions_cap = document.at("sessions_cap").get<std::int64_t>();
  if (!document.at("pipeline_vram_mb").is_null())
    report.pipeline_vram_mb = document.at("pipeline_vram_mb").get<double>();
  if (document.contains("cpu_baseline") && !document.at("cpu_baseline").is_null()) {
    report.cpu_baseline =
        CpuBaseline{document.at("cpu_baseline").at("cpu_seconds_per_media_second").get<double>(),
                    document.at("cpu_baseline").at("pixels_per_frame").get<double>()};
  }
  if (document.contains("downgraded"))
    report.downgraded = document.at("downgraded").get<std::vector<std::string>>();
  if (document.contains("gpu")) report.gpu = TestedGpuFromJson(document.at("gpu"));
  return report;
}

std::optional<double> SecondsSince(const std::string& ts,
                                   std::chrono::system_clock::time_point now) {
  const std::optional<std::chrono::system_clock::time_point> then = ParseUtc(ts);
  if (!then) return std::nullopt;
  return std::chrono::duration<double>(now - *then).count();
}

}  // namespace

std::string DefaultStateDir(const Environment& environment) {
  if (std::optional<std::string> xdg = environment("XDG_STATE_HOME"); xdg && !xdg->empty()) {
    return (fs::path(*xdg) / "peertube-worker").string();
  }
  return "/var/lib/peertube-worker/state";
}

std::string SelfTestStatePath(const std::string& state_dir, const std::string& device_name) {
  return (fs::path(state_dir) / ("self-test-" + device_name + ".json")).string();
}

Result<void> SaveSelfTest(const std::string& path, const SelfTestReport& report) {
  std::error_code error;
  fs::create_directories(fs::path(path).parent_path(), error);
  if (error)
    return Unavailable("cannot make " + fs::path(path).parent_path().string() + ": " +
                       error.message());
  const std::string temporary = path + ".new";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << JsonText(SelfTestReportJson(report), 2) << "\n";
    if (!out) return Unavailable("cannot write " + temporary);
  }
  fs::rename(temporary, path, error);
  if (error)
    return Unavailable("cannot rename " + temporary + " to " + path + ": " + error.message());
  return {};
}

TestedGpu TestedGpuOf(const ContractDevice& device) {
  return {device.pci_ids, device.driver_version.empty() ? device.driver : device.driver_version,
          device.pci_address, device.subsystem_ids};
}

Result<SelfTestReport> LoadSelfTestOf(const std::string& path, const ContractDevice& device,
                                      std::chrono::system_clock::time_point now) {
  Result<SelfTestReport> report = LoadSelfTest(path, now);
  if (!report) return report;
  const TestedGpu here = TestedGpuOf(device);
  if (report->gpu == here) return report;
  return InvalidInput("the self-test's report at " + path + " is of " +
                      DescribeTestedGpu(report->gpu) + ", and this GPU is " +
                      DescribeTestedGpu(here) + ": the self-test must run again");
}

Result<SelfTestReport> LoadSelfTest(const std::string& path,
                                    std::chrono::system_clock::time_point now) {
  Result<std::string> text = ReadFileText(path);
  if (!text) return NotFound("no self-test report at " + path + " (" + text.error_message() + ")");
  Result<json> parsed = ParseJson(*text);
  if (!parsed) return InvalidInput(path + " is not a self-test report: " + parsed.error_message());
  const json& document = *parsed;
  if (!document.is_object()) return InvalidInput(path + " is not a self-test report");
  try {
    SelfTestReport report = FromJson(document);
    report.age_seconds = SecondsSince(report.ts, now);
    return report;
  } catch (const json::exception& error) {
    return InvalidInput(path + " is not a self-test report: " + error.what());
  }
}

}  // namespace mc::worker
