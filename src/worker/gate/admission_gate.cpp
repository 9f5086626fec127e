#include "worker/gate/admission_gate.h"

#include <cstdio>
#include <sstream>

#include "common/base/text.h"
#include "common/peertube/runner_jobs.h"
#include "common/peertube/runner_paths.h"

namespace mc::worker {
namespace {

using peertube::ClassifyRunnerRequest;
using peertube::RunnerCall;

std::string ClassText(const peertube::RunnerJob& job) {
  std::ostringstream text;
  text << job.type;
  if (job.resolution) text << " " << *job.resolution << "p";
  if (job.fps) text << *job.fps;
  return text.str();
}

std::string AdvertisedOrigin(const http::ReverseProxy& proxy) {
  std::string host = proxy.host();
  if (host == "0.0.0.0") host = "127.0.0.1";
  if (host == "::") host = "::1";
  if (host.find(':') != std::string::npos) host = "[" + host + "]";
  return "http://" + host + ":" + std::to_string(proxy.port());
}

// An answer the gate rewrote no longer matches the server's validators or coding.
void DropRepresentationHeaders(http::ProxyResponse& response) {
  http::RemoveHeader(response.head.headers, "ETag");
  http::RemoveHeader(response.head.headers, "Content-Encoding");
}

}  // namespace

Result<std::unique_ptr<AdmissionGate>> AdmissionGate::Start(const std::string& listen_address,
                                                            http::Url upstream,
                                                            std::function<Admission()> admission,
                                                            JobBook& book, GateOptions options) {
  std::unique_ptr<AdmissionGate> gate(
      new AdmissionGate(book, std::move(admission), std::move(options)));
  if (!gate->options_.log)
    gate->options_.log = [](const std::string& line) {
      std::fprintf(stderr, "%s\n", line.c_str());
    };
  gate->server_origins_ = gate->options_.server_origins;
  gate->server_origins_.push_back(upstream.Origin());
  http::ProxyHooks hooks{
      .plan = [raw = gate.get()](const http::RequestHead& head) { return raw->PlanFor(head); },
      .rewrite = [raw = gate.get()](
                     const http::ProxyRequest& request,
                     http::ProxyResponse& response) { raw->Rewrite(request, response); },
      .observe = [raw =
                      gate.get()](const http::ExchangeRecord& exchange) { raw->Observe(exchange); },
  };
  Result<std::unique_ptr<http::ReverseProxy>> proxy = http::ReverseProxy::Start(
      listen_address, std::move(upstream), std::move(hooks), gate->options_.limits);
  if (!proxy) return proxy.error().WithContext("the admission gate");
  gate->origin_ = gate->options_.advertised_origin.empty() ? AdvertisedOrigin(**proxy)
                                                           : gate->options_.advertised_origin;
  gate->proxy_ = std::move(*proxy);
  return gate;
}

http::Plan AdmissionGate::PlanFor(const http::RequestHead& head) const {
  const RunnerCall call = ClassifyRunnerRequest(head.method, head.Path()).call;
  // The worker's state answers the list of jobs. The gate reads the accepted job and points its
  // downloads at the gate. Both are small JSON answers.
  if (call == RunnerCall::kJobsRequest || call == RunnerCall::kAccept)
    return {.handling = http::Handling::kIntercept};
  return {.handling = http::Handling::kForward};
}

void AdmissionGate::Rewrite(const http::ProxyRequest& request, http::ProxyResponse& response) {
  const RunnerCall call = ClassifyRunnerRequest(request.head.method, request.head.Path()).call;
  if (call == RunnerCall::kJobsRequest) return AnswerJobsRequest(response);
  if (call == RunnerCall::kAccept) return RecordAccept(response);
}

void AdmissionGate::AnswerJobsRequest(http::ProxyResponse& response) {
  if (response.head.status != 200) {
    Log("gate: jobs-request: the server answered " + std::to_string(response.head.status) +
        "; passed on");
    return;
  }
  const Admission admission = admission_();
  const std::string_view coding = http::HeaderValue(response.head.headers, "Content-Encoding");
  Result<std::vector<peertube::AvailableJob>> offered =
      coding.empty() || coding == "identity"
          ? peertube::ParseAvailableJobs(response.body)
          : Result<std::vector<peertube::AvailableJob>>(
                InvalidInput("the answer is " + std::string(coding) + "-coded"));
  const std::string offered_count = offered ? std::to_string(offered->size()) : "?";
  if (!admission.admitting) {
    response.body = peertube::NoAvailableJobs(coding.empty() ? response.body : "");
    DropRepresentationHeaders(response);
    Log("gate: jobs-request: " + PrintableLine(admission.state) + " (" +
        PrintableLine(admission.reason) + "): the server offered " + offered_count +
        ", answered 0");
    return;
  }
  if (!offered) {
    // An answer the gate cannot read offers nothing: the gate fails closed.
    response.body = peertube::NoAvailableJobs("");
    DropRepresentationHeaders(response);
    Log("gate: jobs-request: the server's answer is unreadable (" + offered.error_message() +
        "); answered 0");
    return;
  }
  std::int64_t kept = 0;
  std::int64_t ineligible = 0;
  std::string kept_classes;
  Result<std::string> filtered = peertube::FilterAvailableJobs(
      response.body, [&](std::size_t, const peertube::AvailableJob& job) {
        if (!Eligible(job, admission.eligibility)) {
          ++ineligible;
          return false;
        }
        if (kept >= admission.free_jobs) return false;
        ++kept;
        kept_classes += (kept_classes.empty() ? "" : ", ") + ClassText(job);
        return true;
      });
  response.body = filtered ? *filtered : peertube::NoAvailableJobs("");
  DropRepresentationHeaders(response);
  Log("gate: jobs-request: " + PrintableLine(admission.state) + " with room for " +
      std::to_string(admission.free_jobs) + ": the server offered " + offered_count + ", " +
      std::to_string(ineligible) + " not eligible, answered " + std::to_string(kept) +
      (kept_classes.empty() ? "" : " (" + kept_classes + ")"));
}

void AdmissionGate::RecordAccept(http::ProxyResponse& response) {
  if (response.head.status != 200) return;
  Result<peertube::AcceptedJob> job = peertube::ParseAcceptedJob(response.body);
  if (!job) {
    Log("gate: accept: the server's answer is unreadable (" + job.error_message() + "); passed on");
    return;
  }
  book_.RecordAccepted(*job, WallClock::now());
  Result<std::string> rewritten =
      peertube::RewriteInputUrls(response.body, server_origins_, origin_);
  if (rewritten) {
    response.body = std::move(*rewritten);
    DropRepresentationHeaders(response);
  }
  Log("gate: accepted job " + job->uuid + " (" + ClassText(*job) + ")" +
      (rewritten ? "; its downloads pass through the gate" : ""));
}

void AdmissionGate::Observe(const http::ExchangeRecord& exchange) {
  const peertube::ClassifiedRequest request = ClassifyRunnerRequest(exchange.method, exchange.path);
  const bool answered = exchange.status >= 200 && exchange.status < 300;
  switch (request.call) {
    case RunnerCall::kFileDownload:
      if (answered) {
        book_.RecordTransfer(TransferDirection::kDownload, exchange.bytes_down, exchange.duration);
        book_.RecordDownload(request.job_uuid, exchange.bytes_down);
      }
      break;
    case RunnerCall::kSuccess:
    case RunnerCall::kError:
    case RunnerCall::kAbort: {
      if (answered && request.call == RunnerCall::kSuccess)
        book_.RecordTransfer(TransferDirection::kUpload, exchange.bytes_up, exchange.duration);
      const JobOutcome outcome = request.call == RunnerCall::kSuccess ? JobOutcome::kSuccess
                                 : request.call == RunnerCall::kError ? JobOutcome::kError
                                                                      : JobOutcome::kAbort;
      if (exchange.status > 0)
        book_.RecordOutcome(request.job_uuid, outcome, exchange.status, WallClock::now());
      Log("gate: job " + request.job_uuid + " " + std::string(JobOutcomeName(outcome)) +
          ", the server answered " + std::to_string(exchange.status));
      break;
    }
    case RunnerCall::kUpdate:
      if (answered)
        book_.RecordTransfer(TransferDirection::kUpload, exchange.bytes_up, exchange.duration);
      break;
    default:
      break;
  }
  if (!exchange.error.empty())
    Log("gate: " + exchange.method + " " + PrintableLine(exchange.path) + ": " + exchange.error);
}

void AdmissionGate::Log(const std::string& line) {
  std::lock_guard lock(log_mutex_);
  options_.log(line);
}

}  // namespace mc::worker
