#include "pool/replay/replay_inputs.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "common/base/iso_time.h"
#include "common/base/json_parse.h"
#include "pool/service/worker_status_reader.h"

namespace mc::pool {

namespace {

using Json = nlohmann::json;
using pool::AdmissionState;

// Seconds to a tenth, for the notes.
std::string Tenths(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", seconds);
  return text;
}

bool Admitting(AdmissionState state) {
  return state == AdmissionState::kAvailable || state == AdmissionState::kBusy;
}

// One worker over the record: what each cycle read of it.
struct WorkerHistory {
  std::string name;
  std::optional<pool::WorkerStatus> first;  // the first document read
  int most_concurrency = 0;
  // Per cycle: the document's state, or empty when it was lost (or the worker not listed).
  std::vector<std::optional<AdmissionState>> states;
  std::vector<bool> lost;
  std::vector<double> accepted_s;  // when it accepted each job its documents list
};

// One run of a job as the worker that ran it lists it (recent_jobs).
// It says what the job was, when the worker accepted it, and how long the run took.
// And whether the run completed the job.
struct WorkerRun {
  std::string worker;
  std::string type;
  pool::JobShape shape;
  double accepted_s = 0;
  double run_s = 0;
  bool completed = false;
};

// The ended runs the worker's document lists, each once however many documents list it.
// They are keyed by job, then by worker and acceptance.
// Also when the worker accepted each job it took.
using RunsOfJob = std::map<std::pair<std::string, double>, WorkerRun>;
using RunsByJob = std::map<std::string, RunsOfJob>;

void ReadJobs(const std::string& document, RunsByJob& runs, WorkerHistory& history) {
  const Json json = ParseJsonOrDiscarded(document);
  const auto jobs = json.is_object() ? json.find("recent_jobs") : json.end();
  if (!json.is_object() || jobs == json.end() || !jobs->is_array()) return;
  for (const Json& job : *jobs) {
    if (!job.is_object()) continue;
    const auto uuid = job.find("uuid");
    const auto accepted = job.find("accepted_at");
    if (uuid == job.end() || !uuid->is_string() || accepted == job.end() ||
        !accepted->is_string()) {
      continue;
    }
    const std::optional<double> at = ParseIsoTime(accepted->get<std::string>());
    if (!at) continue;
    if (std::find(history.accepted_s.begin(), history.accepted_s.end(), *at) ==
        history.accepted_s.end()) {
      history.accepted_s.push_back(*at);
    }
    const auto outcome = job.find("outcome");
    const auto wall = job.find("wall_seconds");
    if (outcome == job.end() || !outcome->is_string() || *outcome == "running" ||
        wall == job.end() || !wall->is_number() || wall->get<double>() <= 0) {
      continue;
    }
    WorkerRun& out = runs[uuid->get<std::string>()][{history.name, *at}];
    out.worker = history.name;
    out.accepted_s = *at;
    out.run_s = wall->get<double>();
    out.completed = *outcome == "success";
    if (const auto type = job.find("type"); type != job.end() && type->is_string()) {
      out.type = type->get<std::string>();
    }
    // The document states the output's class and the source; the video's length it does not.
    const auto number = [](const Json& object, const char* key, double fallback) {
      const auto value = object.is_object() ? object.find(key) : object.end();
      return value != object.end() && value->is_number() ? value->get<double>() : fallback;
    };
    if (const auto klass = job.find("class"); klass != job.end()) {
      out.shape.resolution = static_cast<int>(number(*klass, "resolution", out.shape.resolution));
      out.shape.fps = static_cast<int>(number(*klass, "fps", out.shape.fps));
    }
    if (const auto source = job.find("source"); source != job.end()) {
      out.shape.source_resolution = static_cast<int>(number(*source, "height", 0));
    }
  }
}

// One job's runs of `RunsByJob`, in the order they were accepted.
std::vector<WorkerRun> InAcceptanceOrder(const RunsOfJob& keyed) {
  std::vector<WorkerRun> runs;
  for (const auto& [key, run] : keyed) runs.push_back(run);
  std::sort(runs.begin(), runs.end(),
            [](const WorkerRun& a, const WorkerRun& b) { return a.accepted_s < b.accepted_s; });
  return runs;
}

// A job's runs as the simulator plays them, in the order they were accepted.
// They stop at the one that completed it.
// After a run that did not, the job is pending again. That is when either:
//  - the record first saw it pending after the run;
//  - or else the next run was accepted.
// An error puts the job back at once.
// An abort PeerTube never heard of does so only after its stall timeout.
std::vector<pool::TraceRun> TraceRuns(const std::vector<WorkerRun>& runs,
                                      const std::vector<double>& seen_s, double start_s) {
  std::vector<pool::TraceRun> out;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const WorkerRun& run = runs[k];
    out.push_back({run.worker, run.run_s, 0});
    if (run.completed || k + 1 == runs.size()) break;
    double again = runs[k + 1].accepted_s;
    for (double seen : seen_s) {
      if (seen > run.accepted_s && seen < again) again = seen;
    }
    out.back().again_s = std::max(again, run.accepted_s + run.run_s) - start_s;
  }
  return out;
}

// The intervals of cycles in which `in_interval` holds, as [first, last] cycle indexes.
template <typename Pred>
std::vector<std::pair<std::size_t, std::size_t>> Intervals(std::size_t cycles, Pred in_interval) {
  std::vector<std::pair<std::size_t, std::size_t>> intervals;
  for (std::size_t c = 0; c < cycles; ++c) {
    if (!in_interval(c)) continue;
    if (!intervals.empty() && intervals.back().second + 1 == c) {
      intervals.back().second = c;
    } else {
      intervals.push_back({c, c});
    }
  }
  return intervals;
}

// What the record's cycles read of each worker, in the order the workers first appear, and
// the runs their documents list.
struct Histories {
  std::vector<WorkerHistory> workers;
  std::map<std::string, std::size_t> index;  // a worker's name to its place in `workers`
  RunsByJob runs;
};

// The record's times, from its first cycle and in seconds.
struct Timeline {
  double start_s = 0;
  double cycle_s = 0;
};

Result<Histories> ReadHistories(const std::vector<pool::CycleRecord>& cycles) {
  Histories histories;
  for (std::size_t c = 0; c < cycles.size(); ++c) {
    for (const pool::RecordedWorker& worker : cycles[c].workers) {
      auto [at, added] = histories.index.emplace(worker.name, histories.workers.size());
      if (added) {
        histories.workers.push_back(WorkerHistory{worker.name});
        histories.workers.back().states.resize(cycles.size());
        histories.workers.back().lost.resize(cycles.size());
      }
      WorkerHistory& history = histories.workers[at->second];
      if (!worker.lost.empty()) {
        history.lost[c] = true;
        continue;
      }
      Result<pool::WorkerStatus> status = pool::ParseWorkerStatus(worker.document, worker.name);
      if (!status) return status.error();
      status->wakeable = worker.wakeable;
      history.states[c] = status->state;
      history.most_concurrency = std::max(history.most_concurrency, status->concurrency);
      if (!history.first) history.first = *status;
      ReadJobs(worker.document, histories.runs, history);
    }
  }
  return histories;
}

// How soon an enabled worker really took a job.
// It runs from the cycle that enabled it while jobs waited, to its next accepted job.
// The median, with a note saying so.
double StartupDelay(const std::vector<pool::CycleRecord>& cycles, const Histories& histories,
                    double cycle_s, std::vector<std::string>& notes) {
  std::vector<double> take_delays;
  for (std::size_t c = 0; c < cycles.size(); ++c) {
    if (cycles[c].queue.pending.empty()) continue;
    for (const pool::Action& action : cycles[c].actions) {
      if (action.kind != pool::ActionKind::kEnable) continue;
      const WorkerHistory& history = histories.workers[histories.index.at(action.worker)];
      if (history.states[c] && Admitting(*history.states[c])) continue;
      double first = -1;
      for (double accepted : history.accepted_s) {
        if (accepted >= cycles[c].t_s && (first < 0 || accepted < first)) first = accepted;
      }
      if (first >= 0 && first - cycles[c].t_s < 10 * cycle_s) {
        take_delays.push_back(first - cycles[c].t_s);
      }
    }
  }
  std::sort(take_delays.begin(), take_delays.end());
  const double startup_s = take_delays.empty() ? 0 : take_delays[take_delays.size() / 2];
  notes.push_back(
      take_delays.empty()
          ? "no enabled worker took a waiting job in the record: workers take jobs at once"
          : "an enabled worker took its first waiting job " + Tenths(startup_s) +
                " s after the cycle that enabled it (the median of " +
                std::to_string(take_delays.size()) + ")");
  return startup_s;
}

// An interval of lost documents is a worker that cannot be read.
// An interval of GPU_UNAVAILABLE is a GPU gone.
// Each begins half a cycle before the cycle that first saw it.
// So the simulation's cycle sees it too. It lasts to half a cycle after the last.
// The first interval is the worker's failure, the others its later ones; each gets a note.
void AddFaults(const WorkerHistory& history, const std::vector<pool::CycleRecord>& cycles,
               const Timeline& time, pool::SimWorkerSpec& spec, std::vector<std::string>& notes) {
  struct Fault {
    pool::FailureKind kind;
    std::size_t first, last;
  };
  std::vector<Fault> faults;
  for (const auto& [first, last] :
       Intervals(cycles.size(), [&](std::size_t c) { return history.lost[c]; })) {
    faults.push_back({pool::FailureKind::kUnreadable, first, last});
  }
  for (const auto& [first, last] : Intervals(cycles.size(), [&](std::size_t c) {
         return history.states[c] == AdmissionState::kGpuUnavailable;
       })) {
    faults.push_back({pool::FailureKind::kGpuUnavailable, first, last});
  }
  std::sort(faults.begin(), faults.end(),
            [](const Fault& a, const Fault& b) { return a.first < b.first; });
  for (std::size_t k = 0; k < faults.size(); ++k) {
    const Fault& fault = faults[k];
    const double from = std::max(0.0, cycles[fault.first].t_s - time.start_s - time.cycle_s / 2);
    const bool to_the_end = fault.last + 1 == cycles.size();
    const double to = cycles[fault.last].t_s - time.start_s + time.cycle_s / 2;
    const std::string words =
        std::string(fault.kind == pool::FailureKind::kUnreadable ? "unreadable"
                                                                 : "GPU unavailable") +
        " from " + Tenths(from) + " s" + (to_the_end ? " to the end" : " to " + Tenths(to) + " s");
    const pool::WorkerFailure failure{fault.kind, from, to_the_end ? 0 : to - from};
    if (k == 0) {
      spec.failure = failure;
    } else {
      spec.later_failures.push_back(failure);
    }
    notes.push_back(history.name + ": " + words);
  }
}

// The simulated worker of one real one: what its first document stated, and its faults.
pool::SimWorkerSpec DeriveWorker(const WorkerHistory& history,
                                 const std::vector<pool::CycleRecord>& cycles, const Timeline& time,
                                 double startup_s, std::vector<std::string>& notes) {
  pool::SimWorkerSpec spec;
  spec.name = history.name;
  spec.startup_s = startup_s;
  if (history.first) {
    const pool::WorkerStatus& first = *history.first;
    spec.vendor = first.vendor;
    spec.capabilities = first.capabilities;
    spec.concurrency = std::max(1, history.most_concurrency);
    if (first.realtime_factor_ewma > 0) spec.speed = first.realtime_factor_ewma;
    spec.sessions_cap = first.sessions_cap;
    if (first.vram_free_mb) spec.vram_free_mb = *first.vram_free_mb;
    if (first.download_mbps > 0) spec.download_mbps = first.download_mbps;
    spec.wakeable = first.wakeable;
    spec.on_battery = first.on_battery;
    spec.probe_age_at_start = first.probe_age.count();
  }
  spec.starts_available = history.states.front() && Admitting(*history.states.front());
  AddFaults(history, cycles, time, spec, notes);
  return spec;
}

// The simulation's options: the real policy's settings, asked when the real one was.
// The job list is hidden where the real policy could not read it.
pool::SimOptions DeriveOptions(const pool::RunRecord& record, const Timeline& time,
                               std::vector<std::string>& notes) {
  const std::vector<pool::CycleRecord>& cycles = record.cycles;
  pool::SimOptions options;
  // An interval in which PeerTube's job list could not be read: a 429, a 5xx, the server down.
  // The real policy held through it, so the simulated one must not see the list either.
  // Like a worker's fault it begins half a cycle before the first cycle that saw it.
  for (const auto& [first, last] :
       Intervals(cycles.size(), [&](std::size_t c) { return !cycles[c].queue.read_ok; })) {
    const double from = std::max(0.0, cycles[first].t_s - time.start_s - time.cycle_s / 2);
    const double to = cycles[last].t_s - time.start_s + time.cycle_s / 2;
    options.queue_outages.push_back({from, to - from});
    notes.push_back("the job list: lost from " + Tenths(from) + " s to " + Tenths(to) + " s");
  }
  options.policy = pool::PolicyKind::kPoolManager;
  options.config = record.policy;
  options.keep_log = true;
  options.start_as_service = true;
  // The policy is asked when the real one was.
  // A cycle made longer by a silent worker's read or a loaded box is as long here.
  for (const pool::CycleRecord& cycle : cycles)
    options.cycles_at_s.push_back(cycle.t_s - time.start_s);
  // A quarter-second step, or a twelfth of a shorter cycle.
  // A replayed job then ends within a quarter second of its real run.
  // A 1 s step would add up to a second a job.
  // Then a worker running a dozen jobs in a row would fall a cycle behind the real one.
  options.step_s = std::min(0.25, time.cycle_s / 12);
  return options;
}

// The jobs to replay, in the order they arrived:
//  - those the record listed;
//  - then those taken between two reads.
// Each has the runs its workers' documents state. A note counts them.
pool::Trace DeriveTrace(const pool::RunRecord& record, const RunsByJob& runs, double start_s,
                        std::vector<std::string>& notes) {
  pool::Trace trace;
  // PeerTube offers the pending jobs in order of priority.
  // The priority counts the user's uploads of the week.
  // So a burst's later videos wait behind the earlier ones' later jobs.
  // The record has each listed job's priority.
  // A job taken between two reads was offered at once: it goes first, at the best priority.
  std::optional<int> first_in_line;
  for (const pool::RecordedJob& job : record.jobs) {
    if (job.priority)
      first_in_line = std::min(first_in_line.value_or(*job.priority), *job.priority);
  }
  int measured = 0;
  int run_again = 0;
  std::set<std::string> listed;
  for (const pool::RecordedJob& job : record.jobs) {
    pool::TraceJob out;
    out.id = job.id;
    out.at_s = std::max(0.0, job.created_s - start_s);
    out.type = job.type;
    out.shape = job.shape;
    if (job.priority) out.priority = *job.priority;
    // A job PeerTube released when its parent completed arrives then; its age counts from then.
    // The replay keeps the real queue's arrivals rather than the job graph's.
    // A runner may take a job before any read lists it, and it comes back after a failed run.
    // Then it was first listed with the age of its return.
    // It arrives when it was first taken.
    if (const auto found = runs.find(job.id); found != runs.end()) {
      const std::vector<WorkerRun> job_runs = InAcceptanceOrder(found->second);
      out.at_s = std::min(out.at_s, std::max(0.0, job_runs.front().accepted_s - start_s));
      out.runs = TraceRuns(job_runs, job.seen_s, start_s);
    }
    measured += !out.runs.empty();
    run_again += out.runs.size() > 1;
    listed.insert(job.id);
    trace.jobs.push_back(std::move(out));
  }
  // A job a runner accepted between two reads of the queue was never listed pending.
  // Its worker's documents still name it. It arrives when it was first accepted.
  int unlisted = 0;
  for (const auto& [id, keyed] : runs) {
    if (listed.count(id)) continue;
    const std::vector<WorkerRun> job_runs = InAcceptanceOrder(keyed);
    const WorkerRun& first = job_runs.front();
    if (first.accepted_s < start_s) continue;
    pool::TraceJob out;
    out.id = id;
    out.at_s = first.accepted_s - start_s;
    if (!first.type.empty()) out.type = first.type;
    out.shape = first.shape;
    out.priority = first_in_line.value_or(out.priority);
    out.runs = TraceRuns(job_runs, {}, start_s);
    ++measured;
    ++unlisted;
    run_again += out.runs.size() > 1;
    trace.jobs.push_back(std::move(out));
  }
  std::stable_sort(
      trace.jobs.begin(), trace.jobs.end(),
      [](const pool::TraceJob& a, const pool::TraceJob& b) { return a.at_s < b.at_s; });
  trace.horizon_s = record.cycles.back().t_s - start_s;
  notes.push_back(std::to_string(trace.jobs.size()) + " jobs (" + std::to_string(unlisted) +
                  " of them never listed pending, taken between two reads), " +
                  std::to_string(measured) + " with the runs their workers' documents state, " +
                  std::to_string(run_again) + " of them run more than once");
  return trace;
}

}  // namespace

Result<ReplayInputs> DeriveInputs(const pool::RunRecord& record) {
  if (record.cycles.empty()) return InvalidInput("the record has no cycle to replay");
  ReplayInputs inputs;
  const std::vector<pool::CycleRecord>& cycles = record.cycles;
  inputs.start_s = cycles.front().t_s;
  const Timeline time{inputs.start_s, static_cast<double>(record.policy.cycle.count())};

  Result<Histories> histories = ReadHistories(cycles);
  if (!histories) return histories.error();
  const double startup_s = StartupDelay(cycles, *histories, time.cycle_s, inputs.notes);
  for (const WorkerHistory& history : histories->workers)
    inputs.workers.push_back(DeriveWorker(history, cycles, time, startup_s, inputs.notes));
  inputs.options = DeriveOptions(record, time, inputs.notes);
  inputs.trace = DeriveTrace(record, histories->runs, inputs.start_s, inputs.notes);
  return inputs;
}

}  // namespace mc::pool
