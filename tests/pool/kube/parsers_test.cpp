// The parsers of the API server's answers: the scale subresource, the pod list, an object's
// UID, and the Event the manager writes.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "pool/kube_api/event_json.h"
#include "pool/kube_api/pod_list_json.h"
#include "pool/kube_api/scale_json.h"

namespace mc::pool {
namespace {

TEST(ParseScale, ReadsTheReplicasAndTheVersionToWriteAgainst) {
  Result<Scale> scale = ParseScale(
      R"({"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"peertube-worker",)"
      R"("resourceVersion":"4711"},"spec":{"replicas":2},"status":{"replicas":1}})");
  ASSERT_TRUE(scale) << scale.error_message();
  EXPECT_EQ(scale->replicas, 2);
  EXPECT_EQ(scale->resource_version, "4711");
}

TEST(ParseScale, AnOmittedReplicasIsZeroAsTheApiLeavesItOut) {
  Result<Scale> scale = ParseScale(R"({"metadata":{"resourceVersion":"9"},"spec":{}})");
  ASSERT_TRUE(scale) << scale.error_message();
  EXPECT_EQ(scale->replicas, 0);
}

TEST(ParseScale, ErrorsNameTheMemberAtFault) {
  EXPECT_EQ(ParseScale("{").error_message(), "scale: not valid JSON");
  EXPECT_EQ(ParseScale(R"({"spec":{"replicas":1}})").error_message(), "scale: metadata: missing");
  Result<Scale> negative =
      ParseScale(R"({"metadata":{"resourceVersion":"1"},"spec":{"replicas":-1}})");
  ASSERT_FALSE(negative);
  EXPECT_NE(negative.error_message().find("spec.replicas"), std::string::npos)
      << negative.error_message();
  EXPECT_TRUE(negative.error().IsInvalidInput());
}

TEST(ScaleBodies, TheUpdateNamesTheVersionAndThePatchDoesNot) {
  const auto update = nlohmann::json::parse(ScaleUpdate("ns", "set", 3, "77"));
  EXPECT_EQ(update["kind"], "Scale");
  EXPECT_EQ(update["apiVersion"], "autoscaling/v1");
  EXPECT_EQ(update["metadata"]["resourceVersion"], "77");
  EXPECT_EQ(update["metadata"]["namespace"], "ns");
  EXPECT_EQ(update["spec"]["replicas"], 3);
  EXPECT_EQ(nlohmann::json::parse(ScalePatch(0)),
            nlohmann::json::parse(R"({"spec":{"replicas":0}})"));
}

// A pod as the StatefulSet controller makes it, with what the scheduler and kubelet add.
std::string Pod(const std::string& name, const std::string& extra_metadata,
                const std::string& status, const std::string& owner = "peertube-worker") {
  return R"({"metadata":{"name":")" + name + R"(",)" + extra_metadata +
         R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"StatefulSet","name":")" + owner +
         R"(","uid":"u","controller":true}]},"spec":{"containers":[]},"status":)" + status + "}";
}

TEST(ParseWorkerPods, ReadsEachPodsOrdinalPhaseAddressAndReadinessByOrdinal) {
  const std::string list =
      R"({"kind":"PodList","items":[)" +
      Pod("peertube-worker-1", R"("labels":{"apps.kubernetes.io/pod-index":"1"},)",
          R"({"phase":"Running","podIP":"10.1.0.7","conditions":[{"type":"PodScheduled",)"
          R"("status":"True"},{"type":"Ready","status":"True"}]})") +
      "," +
      Pod("peertube-worker-0", "",
          R"({"phase":"Running","podIP":"10.1.0.6","conditions":[{"type":"Ready","status":"False"}]})") +
      "]}";
  Result<std::vector<WorkerPod>> pods = ParseWorkerPods(list, "peertube-worker");
  ASSERT_TRUE(pods) << pods.error_message();
  ASSERT_EQ(pods->size(), 2u);
  EXPECT_EQ((*pods)[0].name, "peertube-worker-0");
  EXPECT_EQ((*pods)[0].ordinal, 0);
  EXPECT_FALSE((*pods)[0].ready);
  EXPECT_EQ((*pods)[1].ordinal, 1);
  EXPECT_EQ((*pods)[1].phase, "Running");
  EXPECT_EQ((*pods)[1].pod_ip, "10.1.0.7");
  EXPECT_TRUE((*pods)[1].ready);
  EXPECT_TRUE((*pods)[1].unschedulable.empty());
}

TEST(ParseWorkerPods, APendingPodCarriesTheSchedulersReason) {
  const std::string list =
      R"({"items":[)" +
      Pod("peertube-worker-0", "",
          R"({"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",)"
          R"("reason":"Unschedulable","message":"0/2 nodes are available: 2 cannot allocate all claims."}]})") +
      "]}";
  Result<std::vector<WorkerPod>> pods = ParseWorkerPods(list, "peertube-worker");
  ASSERT_TRUE(pods) << pods.error_message();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ((*pods)[0].phase, "Pending");
  EXPECT_EQ((*pods)[0].unschedulable, "0/2 nodes are available: 2 cannot allocate all claims.");
}

TEST(ParseWorkerPods, KeepsOnlyThePodsTheStatefulSetControls) {
  const std::string list = R"({"items":[)" + Pod("peertube-worker-0", "", "{}") + "," +
                           Pod("peertube-worker-av1-0", "", "{}", "peertube-worker-av1") + "," +
                           R"({"metadata":{"name":"stray"}}]})";
  Result<std::vector<WorkerPod>> pods = ParseWorkerPods(list, "peertube-worker");
  ASSERT_TRUE(pods) << pods.error_message();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ((*pods)[0].name, "peertube-worker-0");
}

TEST(ParseWorkerPods, ReadsTheRunnerNameAnnotationAndADeletionUnderWay) {
  const std::string list =
      R"({"items":[)" +
      Pod("peertube-worker-3",
          R"("annotations":{"media.liken.sh/runner-name":"w3:gpu0"},"deletionTimestamp":"2026-01-01T00:00:00Z",)",
          "{}") +
      "]}";
  Result<std::vector<WorkerPod>> pods = ParseWorkerPods(list, "peertube-worker");
  ASSERT_TRUE(pods) << pods.error_message();
  ASSERT_EQ(pods->size(), 1u);
  EXPECT_EQ((*pods)[0].runner_name, "w3:gpu0");
  EXPECT_TRUE((*pods)[0].terminating);
}

TEST(ParseWorkerPods, AnEmptyListIsNoPods) {
  for (const char* body : {R"({"items":[]})", R"({"items":null})", R"({"kind":"PodList"})"}) {
    Result<std::vector<WorkerPod>> pods = ParseWorkerPods(body, "s");
    ASSERT_TRUE(pods) << body << ": " << pods.error_message();
    EXPECT_TRUE(pods->empty());
  }
}

TEST(ParseWorkerPods, ErrorsNameThePodAndTheMember) {
  Result<std::vector<WorkerPod>> pods = ParseWorkerPods(
      R"({"items":[)" + Pod("peertube-worker-0", "", R"({"podIP":7})") + "]}", "peertube-worker");
  ASSERT_FALSE(pods);
  EXPECT_EQ(pods.error_message(), "pods: items[0].status.podIP: expected a string");
  EXPECT_FALSE(ParseWorkerPods(R"({"items":{}})", "s"));
  EXPECT_FALSE(ParseWorkerPods(R"({"items":[{"metadata":{}}]})", "s"));
}

TEST(OrdinalOf, IsTheNumberAfterTheStatefulSetsNameAndDash) {
  EXPECT_EQ(OrdinalOf("peertube-worker-12", "peertube-worker"), 12);
  EXPECT_EQ(OrdinalOf("peertube-worker-av1-0", "peertube-worker"), -1);
  EXPECT_EQ(OrdinalOf("peertube-worker-", "peertube-worker"), -1);
  EXPECT_EQ(OrdinalOf("peertube-worker", "peertube-worker"), -1);
  EXPECT_EQ(OrdinalOf("other-1", "peertube-worker"), -1);
}

TEST(ParseObjectUid, ReadsMetadataUid) {
  Result<std::string> uid = ParseObjectUid(R"({"metadata":{"name":"s","uid":"1234-abcd"}})");
  ASSERT_TRUE(uid) << uid.error_message();
  EXPECT_EQ(*uid, "1234-abcd");
  EXPECT_EQ(ParseObjectUid(R"({"metadata":{"uid":""}})").error_message(),
            "object: metadata.uid: empty");
}

TEST(EventBody, NamesTheStatefulSetAsTheInvolvedObjectAndWhoReportsIt) {
  const auto at = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
  const EventSource source{.ns = "peertube-workers",
                           .statefulset = "peertube-worker",
                           .uid = "u-1",
                           .component = "media-capabilities-pool",
                           .instance = "media-pool-0"};
  const auto body = nlohmann::json::parse(
      EventBody(source, {EventType::kWarning, "DrainFailed", "peertube-worker-1: drain: 401"}, at));
  EXPECT_EQ(body["apiVersion"], "v1");
  EXPECT_EQ(body["kind"], "Event");
  EXPECT_EQ(body["metadata"]["namespace"], "peertube-workers");
  EXPECT_EQ(body["metadata"]["name"], "peertube-worker.18fae27693b40000");
  EXPECT_EQ(body["involvedObject"]["kind"], "StatefulSet");
  EXPECT_EQ(body["involvedObject"]["apiVersion"], "apps/v1");
  EXPECT_EQ(body["involvedObject"]["name"], "peertube-worker");
  EXPECT_EQ(body["involvedObject"]["namespace"], "peertube-workers");
  EXPECT_EQ(body["involvedObject"]["uid"], "u-1");
  EXPECT_EQ(body["type"], "Warning");
  EXPECT_EQ(body["reason"], "DrainFailed");
  EXPECT_EQ(body["source"]["component"], "media-capabilities-pool");
  EXPECT_EQ(body["reportingInstance"], "media-pool-0");
  EXPECT_EQ(body["firstTimestamp"], "2027-01-15T08:00:00Z");
  EXPECT_EQ(body["count"], 1);
}

TEST(EventBody, CutsALongMessageToWhatTheApiKeeps) {
  const std::string message(5000, 'x');
  const auto body = nlohmann::json::parse(
      EventBody({.ns = "n", .statefulset = "s", .component = "c"},
                {EventType::kNormal, "ScaledUp", message}, std::chrono::system_clock::now()));
  EXPECT_EQ(body["message"].get<std::string>().size(), 1024u);
  EXPECT_FALSE(body["involvedObject"].contains("uid"));
  EXPECT_FALSE(body.contains("reportingInstance"));
}

}  // namespace
}  // namespace mc::pool
