// The trace format, the shipped traces, and the recorder of PeerTube job lists.
#include "pool/trace/trace.h"

#include <gtest/gtest.h>

#include "common/base/iso_time.h"
#include "pool/trace/trace_recorder.h"
#include "pool/trace/trace_shapes.h"
#include "source_file.h"

namespace mc::pool {
namespace {

using testing::SourceFile;

TEST(Trace, ReadsEveryMember) {
  Result<Trace> trace = ParseTrace(
      "{\"id\":\"a\",\"at\":1.5,\"type\":\"vod-web-video-transcoding\",\"priority\":101,"
      "\"resolution\":1080,\"fps\":60,\"duration\":300,\"parent\":null}\n"
      "\n"
      "{\"id\":\"b\",\"at\":1.5,\"type\":\"vod-hls-transcoding\",\"resolution\":720,"
      "\"source_resolution\":1080,\"parent\":\"a\",\"av1_source\":true,"
      "\"runs\":[{\"worker\":\"g0\",\"run\":4.5,\"again\":170},{\"worker\":\"g1\",\"run\":6}]}\n"
      "{\"horizon\": 3600}\n");
  ASSERT_TRUE(trace) << trace.error_message();
  ASSERT_EQ(trace->jobs.size(), 2u);
  EXPECT_EQ(trace->jobs[0].priority, 101);
  EXPECT_EQ(trace->jobs[0].shape.fps, 60);
  EXPECT_EQ(trace->jobs[0].shape.duration, Seconds(300));
  EXPECT_EQ(trace->jobs[1].parent, "a");
  EXPECT_TRUE(trace->jobs[1].shape.av1_source);
  ASSERT_EQ(trace->jobs[1].runs.size(), 2u);
  EXPECT_EQ(trace->jobs[1].runs[0].worker, "g0");
  EXPECT_EQ(trace->jobs[1].runs[0].run_s, 4.5);
  EXPECT_EQ(trace->jobs[1].runs[0].again_s, 170);
  EXPECT_EQ(trace->jobs[1].runs[1].worker, "g1");
  EXPECT_EQ(trace->jobs[1].runs[1].again_s, 0);
  EXPECT_TRUE(trace->jobs[0].runs.empty());
  EXPECT_EQ(trace->horizon_s, 3600);
}

struct BadTrace {
  const char* text;
  const char* error;
};

TEST(Trace, AnErrorNamesTheLineAndTheMember) {
  const BadTrace cases[] = {
      {"{\"id\":\"a\",\"at\":0,\"resolution\":0}\n",
       "t.jsonl: line 1: resolution: expected an integer between 1 and 8640"},
      {"\n{\"at\":0}\n", "t.jsonl: line 2: id: expected a non-empty string"},
      {"{\"id\":\"a\",\"at\":-1}\n",
       "t.jsonl: line 1: at: expected a number of seconds of at least 0"},
      {"{\"id\":\"a\",\"at\":0,\"parent\":\"b\"}\n",
       "t.jsonl: line 1: parent: b is not an earlier job"},
      {"{\"id\":\"a\",\"at\":0}\n{\"id\":\"a\",\"at\":0}\n",
       "t.jsonl: line 2: id: a appears twice"},
      {"{\"id\":\"a\",\"at\":0,\"colour\":1}\n", "t.jsonl: line 1: colour: unknown key"},
      {"[1]\n", "t.jsonl: line 1: expected one JSON object"},
      {"{\"id\":\"a\",\"at\":0,\"duration\":\"long\"}\n",
       "t.jsonl: line 1: duration: expected a number of seconds between 0 and 604800"},
      {"{\"id\":\"a\",\"at\":0,\"runs\":{}}\n", "t.jsonl: line 1: runs: expected an array of runs"},
      {"{\"id\":\"a\",\"at\":0,\"runs\":[{\"worker\":\"w\",\"run\":3},{\"worker\":\"w\",\"run\":0}]"
       "}\n",
       "t.jsonl: line 1: runs[1].run: expected a number of seconds between 0 and 604800"},
      {"{\"id\":\"a\",\"at\":0,\"runs\":[{\"run\":3}]}\n",
       "t.jsonl: line 1: runs[0].worker: expected a worker's name"},
      {"{\"id\":\"a\",\"at\":0,\"runs\":[{\"worker\":\"w\",\"run\":3,\"again\":-2}]}\n",
       "t.jsonl: line 1: runs[0].again: expected a number of seconds of at least 0"},
      {"{\"id\":\"a\",\"at\":0,\"runs\":[{\"worker\":\"w\",\"run\":3,\"at\":1}]}\n",
       "t.jsonl: line 1: runs[0].at: unknown key"},
      {"{\"id\":\"a\",\"at\":0,\"runs\":[7]}\n",
       "t.jsonl: line 1: runs[0]: expected an object {worker, run, again}"},
  };
  for (const BadTrace& c : cases) {
    Result<Trace> trace = ParseTrace(c.text, "t.jsonl");
    ASSERT_FALSE(trace) << c.text;
    EXPECT_EQ(trace.error_message(), c.error);
  }
}

TEST(Trace, ReadsTimedEventsAndWritesThemBack) {
  const std::string text =
      R"({"event":"config","at":600.0,"set":{"vendor_disabled":["nvidia"]}})"
      "\n"
      R"({"event":"sessions","at":300.0,"worker":"rtx-1","held":6,"for":600.0})"
      "\n"
      R"({"event":"evidence-fails","at":400.0,"worker":"rtx-2"})"
      "\n"
      R"({"event":"probe-fails","at":100.0,"worker":"t4-1","for":900.0})"
      "\n";
  Result<Trace> trace = ParseTrace(text, "t.jsonl");
  ASSERT_TRUE(trace) << trace.error_message();
  ASSERT_EQ(trace->events.size(), 4u);
  EXPECT_EQ(trace->events[0].kind, TraceEventKind::kConfig);
  EXPECT_EQ(trace->events[1].kind, TraceEventKind::kSessions);
  EXPECT_EQ(trace->events[1].sessions, 6);
  EXPECT_EQ(trace->events[1].line, 2u);
  EXPECT_EQ(trace->events[2].worker, "rtx-2");
  EXPECT_EQ(trace->events[3].for_s, 900);
  EXPECT_EQ(TraceToJsonl(*trace), text);
}

TEST(Trace, ABadEventIsAnErrorNamingTheLineAndTheMember) {
  const BadTrace cases[] = {
      {R"({"event":"reboot","at":1})",
       "t: line 1: event: expected config, sessions, "
       "evidence-fails or probe-fails"},
      {R"({"event":"sessions","at":1,"worker":"w"})",
       "t: line 1: held: expected a number of "
       "sessions"},
      {R"({"event":"probe-fails","at":1})", "t: line 1: worker: expected the name of a worker"},
      {R"({"event":"config","at":1,"set":{"cycle":"soon"}})",
       "t: line 1: set: cycle: expected a duration (seconds, or a number with s, m or h) between "
       "1s and 3600s"},
      {R"({"event":"config","at":1,"worker":"w","set":{}})",
       "t: line 1: worker: a config event has none"},
      {R"({"event":"evidence-fails","at":1,"worker":"w","for":5})",
       "t: line 1: for: only a sessions or probe-fails event lasts"},
      {R"({"event":"config","at":1,"set":{},"colour":1})",
       "t: line 1: colour: unknown key of an event"},
  };
  for (const BadTrace& c : cases) {
    Result<Trace> trace = ParseTrace(std::string(c.text) + "\n", "t");
    ASSERT_FALSE(trace) << c.text;
    EXPECT_EQ(trace.error_message(), c.error);
  }
}

TEST(Trace, WrittenOutItReadsBackTheSame) {
  const Trace generated = GenerateTrace(TraceShape::kUnservable4k);
  Result<Trace> read = ParseTrace(TraceToJsonl(generated));
  ASSERT_TRUE(read) << read.error_message();
  EXPECT_EQ(TraceToJsonl(*read), TraceToJsonl(generated));
}

TEST(Trace, TheShippedTracesAreTheGeneratorsOutput) {
  for (const TraceShapeInfo& shape : TraceShapes()) {
    EXPECT_EQ(SourceFile(std::string("bench/pool/pool_traces/") + shape.name + ".jsonl"),
              TraceToJsonl(GenerateTrace(shape.shape)))
        << shape.name << ": run `media-capabilities pool generate-trace --shape " << shape.name
        << "` to make it again";
  }
}

TEST(Trace, AnUploadIsPeerTubesJobGraph) {
  Trace trace;
  AddUpload(trace, "v", 10, 720, 5);
  ASSERT_EQ(trace.jobs.size(), 8u);  // web and HLS at 720, 480, 360, 240
  EXPECT_EQ(trace.jobs[0].id, "v-web-720");
  EXPECT_EQ(trace.jobs[0].parent, "");
  EXPECT_EQ(trace.jobs[1].id, "v-hls-720");
  EXPECT_EQ(trace.jobs[1].parent, "v-web-720");
  EXPECT_EQ(trace.jobs[3].id, "v-hls-480");
  EXPECT_EQ(trace.jobs[3].parent, "v-web-480");
}

TEST(Trace, ShapesAreWhatTheirNamesSay) {
  const Trace burst = GenerateTrace(TraceShape::kBurst);
  int uploads = 0;
  for (const TraceJob& job : burst.jobs) {
    if (job.parent.empty()) {
      ++uploads;
      EXPECT_GE(job.at_s, 60);
      EXPECT_LE(job.at_s, 360);
    }
  }
  EXPECT_EQ(uploads, 50);
  EXPECT_EQ(GenerateTrace(TraceShape::kDiurnal).horizon_s, 86400);
  const Trace nobody = GenerateTrace(TraceShape::kUnservable4k);
  EXPECT_EQ(std::count_if(nobody.jobs.begin(), nobody.jobs.end(),
                          [](const TraceJob& job) { return job.shape.av1_output; }),
            1);
}

TEST(Recorder, ReadsTheAdminApisJobList) {
  Result<Trace> trace = RecordTrace(SourceFile("tests/pool/trace/data/api-runner-jobs.json"), {});
  ASSERT_TRUE(trace) << trace.error_message();
  ASSERT_EQ(trace->jobs.size(), 2u);
  EXPECT_EQ(trace->jobs[0].type, "vod-web-video-transcoding");
  EXPECT_EQ(trace->jobs[0].at_s, 0);
  EXPECT_EQ(trace->jobs[0].priority, 101);
  EXPECT_EQ(trace->jobs[0].shape.resolution, 720);
  EXPECT_EQ(trace->jobs[1].parent, trace->jobs[0].id);
  EXPECT_EQ(trace->jobs[1].at_s, 0.013);
  // No length given: the recorded run time, 19:32:11.164 to 19:32:17.143.
  EXPECT_EQ(trace->jobs[0].shape.duration.count(), 5.979);
}

TEST(Recorder, ReadsSnapshotsOfAPolledJobList) {
  RecordOptions options;
  options.duration_s = 5;
  Result<Trace> trace =
      RecordTrace(SourceFile("tests/pool/trace/data/job-snapshots-5s-720p.jsonl"), options);
  ASSERT_TRUE(trace) << trace.error_message();
  ASSERT_EQ(trace->jobs.size(), 8u);
  int roots = 0;
  for (const TraceJob& job : trace->jobs) {
    roots += job.parent.empty();
    EXPECT_EQ(job.shape.duration, Seconds(5));
    EXPECT_EQ(job.shape.resolution, 720);
  }
  EXPECT_EQ(roots, 1);
  // What the recorder writes, the trace parser reads.
  EXPECT_TRUE(ParseTrace(TraceToJsonl(*trace)));
}

TEST(Recorder, RefusesWhatIsNoJobList) {
  EXPECT_FALSE(RecordTrace("{\"total\":0,\"data\":{}}", {}));
  EXPECT_FALSE(RecordTrace("not json\n", {}));
  EXPECT_FALSE(RecordTrace("[{\"type\":\"x\"}]", {}));
  EXPECT_FALSE(RecordTrace("", {}));
  EXPECT_NEAR(mc::ParseIsoTime("2026-12-02T19:32:10.105Z").value_or(0), 1796239930.105, 1e-6);
  EXPECT_FALSE(mc::ParseIsoTime("yesterday"));
}

}  // namespace
}  // namespace mc::pool
