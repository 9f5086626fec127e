// The runner API as PeerTube's own published models describe it (@peertube/peertube-types,
// fetched by tests/peertube/fetch-peertube-types): documents filled from upstream's
// declarations are read by our parsers, what we send names only members upstream declares, and
// every job type and state upstream defines is one our tables know. A type, a state or a
// member we do not know passes as it came, or counts as work of another kind.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>

#include "common/base/read_file.h"
#include "common/peertube/runner_job_list.h"
#include "common/peertube/runner_job_types.h"
#include "common/peertube/runner_jobs.h"
#include "common/peertube/runner_registration.h"
#include "common/peertube/typescript_declarations.h"
#include "worker/gate/eligibility.h"

namespace mc::peertube::testing {
namespace {

using Json = nlohmann::json;

constexpr char kJobUuid[] = "3f1c6f5e-4f3a-4c1e-9a53-0c2b1a7f9d10";
constexpr char kVideoUuid[] = "9b0a2c44-7e31-4d52-8f0e-5a6b7c8d9e0f";

// Each job type's payload, as upstream's models name it (RunnerJobPayload's members).
const std::map<std::string, std::string> kPayloadOf = {
    {"vod-web-video-transcoding", "RunnerJobVODWebVideoTranscodingPayload"},
    {"vod-hls-transcoding", "RunnerJobVODHLSTranscodingPayload"},
    {"vod-audio-merge-transcoding", "RunnerJobVODAudioMergeTranscodingPayload"},
    {"live-rtmp-hls-transcoding", "RunnerJobLiveRTMPHLSTranscodingPayload"},
    {"video-studio-transcoding", "RunnerJobStudioTranscodingPayload"},
    {"video-transcription", "RunnerJobTranscriptionPayload"},
    {"generate-video-storyboard", "RunnerJobGenerateStoryboardPayload"},
};

std::string ModelsDir() {
  const char* dir = std::getenv("MEDIA_CAP_PEERTUBE_TYPES");
  if (dir && *dir) return dir;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "") + "/.cache/media-capabilities/peertube-types";
}

// The models, read once: a missing copy fails every test with how to fetch it.
class UpstreamModels : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Result<std::string> text = ReadFileText(ModelsDir() + "/index.d.ts");
    Result<std::string> version = ReadFileText(ModelsDir() + "/version");
    if (!text || !version) {
      missing_ = "PeerTube's models are not in " + ModelsDir() +
                 ": run tests/peertube/fetch-peertube-types (make check does)";
      return;
    }
    models_ = new TypeScriptDeclarations(*text);
    version_ = version->substr(0, version->find('\n'));
    std::cout << "checked against @peertube/peertube-types " << version_ << "\n";
  }
  static void TearDownTestSuite() {
    delete models_;
    models_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(models_, nullptr) << missing_;
    RecordProperty("peertube_types", version_);
  }

  const TypeScriptDeclarations& Models() const { return *models_; }

  // Declared is the interface `name`, read once, or null where upstream declares none.
  const std::map<std::string, Member>* Declared(const std::string& name) const {
    auto [found, added] = interfaces_.try_emplace(name);
    if (added) found->second = Models().Interface(name);
    return found->second ? &*found->second : nullptr;
  }

  std::map<std::string, Member> InterfaceOf(const std::string& name) const {
    const std::map<std::string, Member>* members = Declared(name);
    EXPECT_NE(members, nullptr) << "upstream's models declare no interface " << name;
    return members ? *members : std::map<std::string, Member>{};
  }

  // Fill makes a value of the TypeScript type `type` for the member `name`, as a server
  // would send it: every required member, none of the optional ones. A type it cannot fill
  // fails the test, naming it.
  Json Fill(const std::string& name, const std::string& type, const Json& job_type,
            int state) const {
    if (type.ends_with("[]")) {
      // A list of URLs holds one; any other list is left empty.
      if (name.ends_with("Url") && type == "string[]")
        return {Fill(name, "string", job_type, state)};
      return Json::array();
    }
    if (name.ends_with("At")) return "2026-12-01T10:00:00.000Z";
    if (name == "uuid") return kJobUuid;
    if (name == "videoUUID") return kVideoUuid;
    if (name.ends_with("Url")) return "https://videos.example.org/api/v1/runners/jobs/files";
    if (name == "resolution") return 720;
    if (name == "fps") return 30;
    if (type == "RunnerJobType") return job_type;
    if (type == "ConstantLabel<RunnerJobStateType>") return {{"id", state}, {"label", "State"}};
    if (type == "string" || type.starts_with("string |")) return "text";
    if (type == "number" || type.starts_with("number |")) return 1;
    if (type == "boolean") return false;
    if (type == "T" || type == "P") return Payload(job_type, state);
    if (type == "U") return {{"videoUUID", kVideoUuid}};
    if (type.starts_with("{")) {
      return FillMembers(TypeScriptDeclarations::Members(type.substr(1, type.rfind('}') - 1)),
                         job_type, state);
    }
    if (const std::map<std::string, Member>* members = Declared(type))
      return FillMembers(*members, job_type, state);
    ADD_FAILURE() << "the contract test cannot fill " << name << " of type " << type;
    return nullptr;
  }

  Json FillMembers(const std::map<std::string, Member>& members, const Json& job_type,
                   int state) const {
    Json object = Json::object();
    for (const auto& [name, member] : members) {
      if (!member.optional) object[name] = Fill(name, member.type, job_type, state);
    }
    return object;
  }

  Json FillInterface(const std::string& name, const Json& job_type, int state = 1) const {
    return FillMembers(InterfaceOf(name), job_type, state);
  }

  // The payload of a job of `job_type`; for a type this test does not map to its payload
  // (which another test reports), one input file, as every kind has.
  Json Payload(const Json& job_type, int state = 1) const {
    const auto payload = kPayloadOf.find(job_type.is_string() ? job_type.get<std::string>() : "");
    if (payload == kPayloadOf.end())
      return {{"input", {{"videoFileUrl", "https://videos.example.org/v"}}}};
    return FillInterface(payload->second, job_type, state);
  }

  // What the admin list answers: every job type in every state, as RunnerJobAdmin.
  Json AdminList() const {
    Json data = Json::array();
    for (const std::string& type : Models().StringUnion("RunnerJobType")) {
      for (const auto& [name, id] : Models().ConstNumbers("RunnerJobState")) {
        Json job = FillInterface("RunnerJobAdmin", type, id);
        job["uuid"] = std::string(kJobUuid).substr(0, 24) + std::to_string(100000000000 + id);
        data.push_back(job);
      }
    }
    return {{"total", data.size()}, {"data", data}};
  }

 private:
  mutable std::map<std::string, std::optional<std::map<std::string, Member>>> interfaces_;
  static TypeScriptDeclarations* models_;
  static std::string version_;
  static std::string missing_;
};

TypeScriptDeclarations* UpstreamModels::models_ = nullptr;
std::string UpstreamModels::version_;
std::string UpstreamModels::missing_;

std::set<std::string> Names(const std::map<std::string, Member>& members) {
  std::set<std::string> names;
  for (const auto& [name, member] : members) names.insert(name);
  return names;
}

TEST_F(UpstreamModels, EveryJobTypeUpstreamDefinesIsOneTheTableKnows) {
  const std::vector<std::string> upstream = Models().StringUnion("RunnerJobType");
  ASSERT_FALSE(upstream.empty()) << "upstream's models declare no RunnerJobType";
  std::set<std::string> ours;
  for (const RunnerJobType& type : kRunnerJobTypes) ours.insert(std::string(type.name));
  EXPECT_EQ(std::set<std::string>(upstream.begin(), upstream.end()), ours);
  for (const std::string& type : upstream)
    EXPECT_TRUE(kPayloadOf.contains(type)) << type << ": which payload does upstream give it?";
}

TEST_F(UpstreamModels, EveryJobStateUpstreamDefinesHasTheTablesNumber) {
  std::map<std::string, int> ours;
  for (const RunnerJobState& state : kRunnerJobStates) ours[std::string(state.name)] = state.id;
  EXPECT_EQ(Models().ConstNumbers("RunnerJobState"), ours);
}

TEST_F(UpstreamModels, AnOfferOfEveryTypeIsReadAndOnlyTheTranscodesAreTakenByDefault) {
  for (const std::string& type : Models().StringUnion("RunnerJobType")) {
    Json offer = FillInterface("RequestRunnerJobResult", type);
    Json job = {{"uuid", kJobUuid}, {"type", type}, {"payload", Payload(type)}};
    offer["availableJobs"] = Json::array({job});
    Result<std::vector<AvailableJob>> jobs = ParseAvailableJobs(offer.dump());
    ASSERT_TRUE(jobs) << type << ": " << jobs.error_message() << "\n" << offer.dump();
    ASSERT_EQ(jobs->size(), 1u);
    EXPECT_EQ((*jobs)[0].type, type);
    EXPECT_EQ(worker::Eligible((*jobs)[0], {}), IsVodTranscoding(type)) << type;
    // Named in the eligibility, a job of another kind is taken too.
    EXPECT_TRUE(worker::Eligible((*jobs)[0], {.job_types = {type}})) << type;
  }
}

TEST_F(UpstreamModels, AnOfferWithMembersWeDoNotKnowIsWrittenBackAsItCame) {
  Json offer = FillInterface("RequestRunnerJobResult", "vod-hls-transcoding");
  Json job = {{"uuid", kJobUuid},
              {"type", "a-type-of-a-later-peertube"},
              {"payload", {{"input", {{"videoFileUrl", "https://videos.example.org/v"}}}}},
              {"aMemberOfALaterPeerTube", {1, 2}}};
  offer["availableJobs"] = Json::array({job});
  offer["anotherLaterMember"] = true;
  Result<std::string> kept =
      FilterAvailableJobs(offer.dump(), [](std::size_t, const auto&) { return true; });
  ASSERT_TRUE(kept) << kept.error_message();
  EXPECT_EQ(Json::parse(*kept), offer);
  Result<std::vector<AvailableJob>> jobs = ParseAvailableJobs(offer.dump());
  ASSERT_TRUE(jobs) << jobs.error_message();
  EXPECT_FALSE(worker::Eligible(jobs->at(0), {}));
}

TEST_F(UpstreamModels, TheAcceptAnswerOfEveryTranscodeIsRead) {
  for (const RunnerJobType& type : kRunnerJobTypes) {
    if (type.kind != JobKind::kVodTranscoding) continue;
    // AcceptRunnerJobResult's job is RunnerJob & {jobToken: string}.
    Json job = FillInterface("RunnerJob", std::string(type.name));
    job["jobToken"] = "ptrjt-00000000-0000-0000-0000-000000000000";
    Result<AcceptedJob> accepted = ParseAcceptedJob(Json{{"job", job}}.dump());
    ASSERT_TRUE(accepted) << type.name << ": " << accepted.error_message();
    EXPECT_EQ(accepted->uuid, kJobUuid);
    EXPECT_EQ(accepted->resolution, 720);
  }
}

TEST_F(UpstreamModels, TheAdminListOfEveryTypeInEveryStateIsRead) {
  const Json list = AdminList();
  Result<RunnerJobPage> page = ParseRunnerJobList(list.dump());
  ASSERT_TRUE(page) << page.error_message();
  ASSERT_EQ(page->jobs.size(), list["data"].size());
  for (const PendingJob& job : page->jobs) {
    EXPECT_EQ(job.video_uuid, kVideoUuid) << job.type;
    EXPECT_GT(job.created_at_s, 0) << job.type;
  }
  // A state of a later PeerTube is read, and is no pending job.
  Json later = list;
  later["data"][0]["state"]["id"] = 10;
  Result<RunnerJobPage> read = ParseRunnerJobList(later.dump());
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_EQ(read->jobs[0].state, 10);
}

TEST_F(UpstreamModels, TheJobListsQueryNamesOnlyParametersUpstreamDeclares) {
  const std::set<std::string> declared = Names(InterfaceOf("ListRunnerJobsQuery"));
  const std::string target = PendingJobsTarget({std::string(kHlsJob)}, 0, 10);
  ASSERT_NE(target.find('?'), std::string::npos) << target;
  std::string query = target.substr(target.find('?') + 1);
  while (!query.empty()) {
    const std::string pair = query.substr(0, query.find('&'));
    query = query.find('&') == std::string::npos ? "" : query.substr(query.find('&') + 1);
    EXPECT_TRUE(declared.contains(pair.substr(0, pair.find('=')))) << pair;
  }
}

TEST_F(UpstreamModels, TheRegistrationSendsOnlyDeclaredMembersAndReadsTheDeclaredResult) {
  const std::map<std::string, Member> body = InterfaceOf("RegisterRunnerBody");
  std::set<std::string> sent;
  for (const auto& [name, value] : RegisterRunnerForm("ptrrt-x", "gpu-0", "a GPU worker")) {
    EXPECT_TRUE(body.contains(name)) << name;
    sent.insert(name);
  }
  for (const auto& [name, member] : body)
    EXPECT_TRUE(member.optional || sent.contains(name)) << "upstream requires " << name;
  Result<RunnerRegistration> registered =
      ParseRegisterRunnerResult(FillInterface("RegisterRunnerResult", nullptr).dump());
  ASSERT_TRUE(registered) << registered.error_message();
  EXPECT_EQ(registered->runner_token, "text");
}

}  // namespace
}  // namespace mc::peertube::testing
