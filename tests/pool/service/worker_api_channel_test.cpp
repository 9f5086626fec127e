// WorkerApiChannel against the real worker's control API (worker::WorkerDaemon in this
// process), and against the project's HTTP server recording what arrives, where the order
// and the headers of the requests are the point.
#include "pool/service/worker_api_channel.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "control_recorder.h"
#include "pool/service/control_token.h"
#include "real_worker.h"
#include "support/free_port.h"
#include "support/run_command.h"
#include "test_peer.h"

namespace mc::pool {
namespace {

using pool::Action;
using pool::ActionKind;
using pool::Bit;
using pool::JobClass;
using testing::ActionOn;
using testing::ControlRecorder;
using testing::Has;
using testing::kWorkerToken;
using testing::RealWorker;

// EndpointAt is a worker at `url` whose token file, in `dir`, holds the worker's token.
WorkerEndpoint EndpointAt(const mc::testing::TempDir& dir, const std::string& url) {
  return {.name = "gpu-box-1:gpu0",
          .url = url,
          .control_url = url,
          .control_token_file = dir.Write("control-token", std::string(kWorkerToken) + "\n")};
}

TEST(WorkerApiChannel, ADrainWithTheWorkersTokenTakesEffect) {
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), worker.Endpoint());
  ASSERT_TRUE(drained) << drained.error_message();
  EXPECT_TRUE(worker.Logged("worker: drain asked"));
}

TEST(WorkerApiChannel, AWrongTokenIsAnErrorNamingTheWorkerTheActionAnd401ButNoToken) {
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  const std::string wrong = "ctl-wrong-77aa";
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), worker.Endpoint(wrong));
  ASSERT_FALSE(drained);
  EXPECT_TRUE(drained.error().IsPermissionDenied()) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "gpu-box-1:gpu0: drain: ")) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "answered 401")) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "a valid bearer token is needed"))
      << drained.error_message();
  EXPECT_FALSE(Has(drained.error_message(), wrong)) << drained.error_message();
  EXPECT_FALSE(Has(drained.error_message(), kWorkerToken)) << drained.error_message();
  EXPECT_FALSE(worker.Logged("worker: drain asked"));
}

TEST(WorkerApiChannel, TheTokenIsReadAtEachUseSoARotatedOneIsPickedUp) {
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  const WorkerEndpoint stale = worker.Endpoint("ctl-old-1234");
  EXPECT_FALSE(channel.Apply(ActionOn(ActionKind::kDrain), stale));
  // The same file, rewritten with the worker's token.
  const WorkerEndpoint rotated = worker.Endpoint();
  ASSERT_EQ(rotated.control_token_file, stale.control_token_file);
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), rotated);
  EXPECT_TRUE(drained) << drained.error_message();
}

TEST(WorkerApiChannel, AWorkerWithItsControlApiOffHasNoControlListenerAndItsStatusPortNoAction) {
  RealWorker worker(kWorkerToken, "127.0.0.1:0", "");
  ASSERT_TRUE(worker.started()) << worker.start_error();
  WorkerApiChannel channel;
  WorkerEndpoint endpoint = worker.Endpoint();
  ASSERT_TRUE(endpoint.control_url.empty());
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(drained);
  EXPECT_TRUE(drained.error().IsUnsupported()) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "no control API configured")) << drained.error_message();
  // /status and /metrics are read-only: the status port takes no action, token or not.
  endpoint.control_url = endpoint.url;
  drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(drained);
  EXPECT_TRUE(drained.error().IsUnsupported()) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "answered 404")) << drained.error_message();
  EXPECT_FALSE(worker.Logged("worker: drain asked"));
}

TEST(WorkerApiChannel, AControlListenerWithoutATokenIsRefusedAtTheStart) {
  RealWorker worker("", "127.0.0.1:0", "127.0.0.1:0");
  EXPECT_FALSE(worker.started());
  EXPECT_TRUE(Has(worker.start_error(), "needs this worker's token")) << worker.start_error();
}

TEST(WorkerApiChannel, AControlListenerBeyondLoopbackWithoutTlsIsRefusedAtTheStart) {
  for (const char* address : {"0.0.0.0:0", ":0", "[::]:0"}) {
    RealWorker worker(kWorkerToken, "127.0.0.1:0", address);
    EXPECT_FALSE(worker.started()) << address;
    EXPECT_TRUE(Has(worker.start_error(), "only over TLS")) << worker.start_error();
  }
}

TEST(WorkerApiChannel, OverTlsTheChannelChecksTheWorkersCertificateByItsStableNameAndDrainsIt) {
  mc::testing::TempDir certificates;
  const http::testing::TestCertificate certificate = http::testing::MakeTestCertificate(
      certificates.path().string(), "DNS:peertube-worker-0.peertube-worker.peertube-workers.svc",
      "peertube-worker-0");
  ASSERT_FALSE(certificate.certificate.empty()) << "openssl req failed";
  RealWorker worker(kWorkerToken, "127.0.0.1:0", "0.0.0.0:0",
                    http::ServerTlsFiles{.certificate_file = certificate.certificate,
                                         .key_file = certificate.key});
  ASSERT_TRUE(worker.started()) << worker.start_error();
  WorkerEndpoint endpoint = worker.Endpoint();
  const std::string port = endpoint.control_url.substr(endpoint.control_url.rfind(':'));
  endpoint.control_url = "https://127.0.0.1" + port;
  endpoint.control_ca_file = certificate.certificate;
  WorkerApiChannel channel;
  // The address is no name the certificate holds: refused until the stable name is given.
  Result<void> refused = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(refused);
  EXPECT_TRUE(Has(refused.error_message(), "does not verify")) << refused.error_message();
  EXPECT_FALSE(worker.Logged("worker: drain asked"));
  endpoint.control_tls_name = "peertube-worker-0.peertube-worker.peertube-workers.svc";
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_TRUE(drained) << drained.error_message();
  EXPECT_TRUE(worker.Logged("worker: drain asked")) << "the drain reached the worker";
}

TEST(WorkerApiChannel, ATokenDerivedFromThePoolsKeyIsTheOneTheWorkerWasGiven) {
  mc::testing::TempDir dir;
  const std::string key = dir.Write("control-key", "pool-control-key\n").string();
  Result<std::string> token = DeriveControlToken("pool-control-key", "gpu-box-1:gpu0");
  ASSERT_TRUE(token) << token.error_message();
  RealWorker worker(*token);
  ASSERT_TRUE(worker.started()) << worker.start_error();
  WorkerEndpoint endpoint = worker.Endpoint("not the token");
  endpoint.control_key_file = key;
  WorkerApiChannel channel;
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_TRUE(drained) << drained.error_message();
  // Another worker's token, derived from the same key, is refused.
  endpoint.name = "gpu-box-2:gpu0";
  Result<void> other = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(other);
  EXPECT_TRUE(other.error().IsPermissionDenied()) << other.error_message();
}

TEST(WorkerApiChannel, AnEnableSetsTheConcurrencyFirstAndNamesTheWorkersRefusal) {
  // The worker has no GPU, so its probe is red and it refuses the enable with 409; the
  // concurrency, posted before it, has already taken effect.
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 3), worker.Endpoint());
  ASSERT_FALSE(enabled);
  EXPECT_TRUE(enabled.error().IsConflict()) << enabled.error_message();
  EXPECT_TRUE(Has(enabled.error_message(),
                  "gpu-box-1:gpu0: enable: POST /enable: the control API "
                  "answered 409: not enabled: the last probe failed"))
      << enabled.error_message();
  EXPECT_TRUE(worker.Logged("worker: concurrency hint 3"));
}

TEST(WorkerApiChannel, SetClassesGivesTheWorkerTheEligibilityText) {
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  Result<void> set =
      channel.Apply(ActionOn(ActionKind::kSetClasses, 0, Bit(JobClass::kS) | Bit(JobClass::kM)),
                    worker.Endpoint());
  ASSERT_TRUE(set) << set.error_message();
  EXPECT_TRUE(worker.Logged("worker: eligibility max-resolution=1440"));
  Result<void> every = channel.Apply(ActionOn(ActionKind::kSetClasses), worker.Endpoint());
  ASSERT_TRUE(every) << every.error_message();
  // The worker's own lines (its probe's, on its own clock) may come after; the last word on
  // eligibility is that every class is allowed again.
  std::vector<std::string> eligibility;
  for (const std::string& line : worker.Log()) {
    if (line.rfind("worker: eligibility", 0) == 0) eligibility.push_back(line);
  }
  ASSERT_EQ(eligibility.size(), 2u);
  EXPECT_EQ(eligibility.back(), "worker: eligibility ");
}

TEST(WorkerApiChannel, AJobListReachesTheWorkersGateAndLapsesUnlessRenewed) {
  RealWorker worker(kWorkerToken, "127.0.0.1:0", "127.0.0.1:0", std::nullopt,
                    std::chrono::seconds(1));
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  pool::Action listed =
      ActionOn(ActionKind::kSetClasses, 0, Bit(JobClass::kL) | Bit(JobClass::kXL));
  listed.jobs = {"aaaaaaaa-0000-4000-8000-000000000001", "aaaaaaaa-0000-4000-8000-000000000002"};
  EXPECT_TRUE(Has(channel.Describe(listed, worker.Endpoint()),
                  "/eligibility 2 job(s) listed (classes L+XL)"));
  Result<void> set = channel.Apply(listed, worker.Endpoint());
  ASSERT_TRUE(set) << set.error_message();
  EXPECT_TRUE(worker.Logged("worker: eligibility jobs=2 listed by the pool manager"));
  const worker::Admission admission = worker.Admission();
  ASSERT_TRUE(admission.eligibility.jobs);
  EXPECT_EQ(admission.eligibility.jobs->size(), 2u);
  EXPECT_TRUE(admission.eligibility.jobs->contains("aaaaaaaa-0000-4000-8000-000000000002"));

  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_FALSE(worker.Admission().eligibility.jobs);
  EXPECT_TRUE(worker.Logged("worker: the pool manager's job list lapsed, not renewed within 1 s"));
}

TEST(WorkerApiChannel, ClassesTheGateCannotCarryAreUnsupportedAndNothingIsSent) {
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerApiChannel channel;
  Result<void> set =
      channel.Apply(ActionOn(ActionKind::kSetClasses, 0, Bit(JobClass::kL) | Bit(JobClass::kXL)),
                    worker.Endpoint());
  ASSERT_FALSE(set);
  EXPECT_TRUE(set.error().IsUnsupported()) << set.error_message();
  EXPECT_TRUE(Has(set.error_message(), "gpu-box-1:gpu0: set-classes: ")) << set.error_message();
  EXPECT_FALSE(worker.Logged("worker: eligibility"));
}

TEST(WorkerApiChannel, ProbeWakeAndSuspendAreUnsupportedSayingWhy) {
  WorkerApiChannel channel;
  const WorkerEndpoint endpoint{.name = "gpu-box-1:gpu0", .url = "http://127.0.0.1:1"};
  Result<void> probe = channel.Apply(ActionOn(ActionKind::kProbe), endpoint);
  ASSERT_FALSE(probe);
  EXPECT_TRUE(probe.error().IsUnsupported());
  EXPECT_TRUE(
      Has(probe.error_message(), "gpu-box-1:gpu0: probe: the worker's control API has no probe"))
      << probe.error_message();
  for (ActionKind kind : {ActionKind::kWake, ActionKind::kSuspend}) {
    Result<void> applied = channel.Apply(ActionOn(kind), endpoint);
    ASSERT_FALSE(applied);
    EXPECT_TRUE(applied.error().IsUnsupported());
    EXPECT_TRUE(Has(applied.error_message(),
                    "the worker API cannot wake or suspend a box; configure "
                    "bare-metal commands"))
        << applied.error_message();
  }
}

TEST(WorkerApiChannel, AWorkerThatIsNotListeningIsUnavailable) {
  mc::testing::TempDir dir;
  const WorkerEndpoint endpoint =
      EndpointAt(dir, "http://127.0.0.1:" + std::to_string(mc::testing::FreePort()));
  WorkerApiChannel channel;
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(drained);
  EXPECT_TRUE(drained.error().IsUnavailable()) << drained.error_message();
  EXPECT_TRUE(
      Has(drained.error_message(), "gpu-box-1:gpu0: drain: POST " + endpoint.url + "/drain"))
      << drained.error_message();
  EXPECT_FALSE(channel.Answers(endpoint, std::chrono::seconds(2)));
}

TEST(WorkerApiChannel, AWorkerThatNeverAnswersIsCutOffAtTheDeadline) {
  // A socket that listens and never accepts: the kernel completes the connection, and
  // nobody answers.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(fd, 4), 0);
  socklen_t size = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size);
  mc::testing::TempDir dir;
  const WorkerEndpoint endpoint =
      EndpointAt(dir, "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)));

  WorkerApiChannel channel({.request_deadline = std::chrono::milliseconds(300)});
  const auto started = std::chrono::steady_clock::now();
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  const auto took = std::chrono::steady_clock::now() - started;
  close(fd);
  ASSERT_FALSE(drained);
  EXPECT_TRUE(drained.error().IsDeadlineExceeded()) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "gpu-box-1:gpu0: drain: ")) << drained.error_message();
  EXPECT_LT(took, std::chrono::seconds(2));
}

TEST(WorkerApiChannel, AMissingTokenFileIsAnErrorNamingTheFileAndTheWorker) {
  RealWorker worker;
  ASSERT_TRUE(worker.started());
  WorkerEndpoint endpoint = worker.Endpoint();
  endpoint.control_token_file = (worker.dir().path() / "no-such-token").string();
  WorkerApiChannel channel;
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(drained);
  EXPECT_TRUE(Has(drained.error_message(),
                  "gpu-box-1:gpu0: drain: the control token file: " + endpoint.control_token_file))
      << drained.error_message();
  EXPECT_FALSE(worker.Logged("worker: drain asked"));
}

TEST(WorkerApiChannel, AnEnablePostsTheConcurrencyThenTheEnableEachWithTheToken) {
  ControlRecorder recorder({});
  mc::testing::TempDir dir;
  // A trailing slash is no second one in the path.
  const WorkerEndpoint endpoint = EndpointAt(dir, recorder.url() + "/");
  WorkerApiChannel channel;
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 4), endpoint);
  ASSERT_TRUE(enabled) << enabled.error_message();
  const std::vector<ControlRecorder::Seen> seen = recorder.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].path, "/concurrency");
  EXPECT_EQ(seen[0].body, "4");
  EXPECT_EQ(seen[1].path, "/enable");
  EXPECT_EQ(seen[1].body, "");
  for (const ControlRecorder::Seen& request : seen)
    EXPECT_EQ(request.authorization, std::string("Bearer ") + kWorkerToken);
}

TEST(WorkerApiChannel, ARefusedConcurrencyStopsTheEnableBeforeItIsSent) {
  ControlRecorder recorder({{"/concurrency",
                             {.status = 400,
                              .body = "the body must be a whole "
                                      "number or auto\nsecond line\n"}}});
  mc::testing::TempDir dir;
  const WorkerEndpoint endpoint = EndpointAt(dir, recorder.url());
  WorkerApiChannel channel;
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 2), endpoint);
  ASSERT_FALSE(enabled);
  EXPECT_TRUE(enabled.error().IsInvalidInput()) << enabled.error_message();
  EXPECT_EQ(enabled.error_message(),
            "gpu-box-1:gpu0: enable: POST /concurrency: the control API "
            "answered 400: the body must be a whole number or auto");
  ASSERT_EQ(recorder.seen().size(), 1u);
  EXPECT_EQ(recorder.seen()[0].path, "/concurrency");
}

TEST(WorkerApiChannel, AServerThatEchoesTheTokenDoesNotPutItIntoTheError) {
  ControlRecorder recorder(
      {{"/drain", {.status = 500, .body = std::string("you sent Bearer ") + kWorkerToken + "\n"}}});
  mc::testing::TempDir dir;
  const WorkerEndpoint endpoint = EndpointAt(dir, recorder.url());
  WorkerApiChannel channel;
  Result<void> drained = channel.Apply(ActionOn(ActionKind::kDrain), endpoint);
  ASSERT_FALSE(drained);
  EXPECT_TRUE(drained.error().IsUnavailable()) << drained.error_message();
  EXPECT_FALSE(Has(drained.error_message(), kWorkerToken)) << drained.error_message();
  EXPECT_TRUE(Has(drained.error_message(), "answered 500: you sent Bearer [redacted]"))
      << drained.error_message();
}

TEST(WorkerApiChannel, AnEnableAskedWithNoConcurrencyIsRefusedBeforeAnyRequest) {
  ControlRecorder recorder({});
  mc::testing::TempDir dir;
  const WorkerEndpoint endpoint = EndpointAt(dir, recorder.url());
  WorkerApiChannel channel;
  Result<void> enabled = channel.Apply(ActionOn(ActionKind::kEnable, 0), endpoint);
  ASSERT_FALSE(enabled);
  EXPECT_TRUE(enabled.error().IsInvalidInput());
  EXPECT_TRUE(recorder.seen().empty());
}

TEST(WorkerApiChannel, DescribeSaysWhatWouldBeSent) {
  WorkerApiChannel channel;
  const WorkerEndpoint endpoint{.name = "gpu-box-1:gpu0",
                                .url = "http://10.0.0.5:9464",
                                .control_url = "https://10.0.0.5:9466"};
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kDrain), endpoint),
            "POST https://10.0.0.5:9466/drain");
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kEnable, 3), endpoint),
            "POST https://10.0.0.5:9466/concurrency 3, then POST https://10.0.0.5:9466/enable");
  EXPECT_EQ(channel.Describe(ActionOn(ActionKind::kSetClasses, 0, Bit(JobClass::kS)), endpoint),
            "POST https://10.0.0.5:9466/eligibility \"max-resolution=1080\" (classes S)");
  EXPECT_TRUE(channel.Describe(ActionOn(ActionKind::kWake), endpoint).starts_with("nothing: "));
}

}  // namespace
// The init container's step: the token the pool derives for this worker's name, written
// privately; neither the token nor the key is printed.
TEST(WorkerControlToken, WritesTheTokenThePoolDerivesForTheNameAndPrintsNeither) {
  mc::testing::TempDir dir;
  const std::string key = dir.Write("key", "the pool's control key\n").string();
  const std::string out = (dir.path() / "token").string();
  const probe::ChildOutcome run =
      mc::testing::RunCommand({MEDIA_CAP_BINARY, "worker", "control-token", "--key-file", key,
                               "--name", "peertube-worker-0", "--out", out});
  ASSERT_EQ(run.code, 0) << run.err;
  Result<std::string> expected = DeriveControlToken("the pool's control key", "peertube-worker-0");
  ASSERT_TRUE(expected) << expected.error_message();
  std::ifstream written(out);
  std::string token;
  std::getline(written, token);
  EXPECT_EQ(token, *expected);
  EXPECT_EQ(std::filesystem::status(out).permissions() & std::filesystem::perms::all,
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  EXPECT_EQ((run.out + run.err).find(*expected), std::string::npos);
  EXPECT_EQ((run.out + run.err).find("the pool's control key"), std::string::npos);
  const probe::ChildOutcome missing = mc::testing::RunCommand(
      {MEDIA_CAP_BINARY, "worker", "control-token", "--key-file", (dir.path() / "none").string(),
       "--name", "peertube-worker-0", "--out", out});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find((dir.path() / "none").string()), std::string::npos) << missing.err;
}

}  // namespace mc::pool
