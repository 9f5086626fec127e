// DryRunChannel takes no action: the channel it wraps is only asked to describe.
#include "pool/service/dry_run_channel.h"

#include <gtest/gtest.h>

#include "control_recorder.h"
#include "pool/service/command_channel.h"
#include "pool/service/worker_api_channel.h"
#include "support/temp_dir.h"

namespace mc::pool {
namespace {

using pool::Action;
using pool::ActionKind;

// Counting is a channel that counts what it is asked and fails every Apply.
class Counting : public ControlChannel {
 public:
  explicit Counting(int& applies) : applies_(applies) {}
  Result<void> Apply(const Action&, const WorkerEndpoint&) override {
    ++applies_;
    return Internal("applied");
  }
  std::string Describe(const Action& action, const WorkerEndpoint& worker) const override {
    return std::string(pool::ActionKindName(action.kind)) + " on " + worker.url;
  }

 private:
  int& applies_;
};

TEST(DryRunChannel, ApplySaysWhatItWouldDoAndNeverAppliesTheInnerChannel) {
  int applies = 0;
  std::vector<std::string> log;
  Counting inner(applies);
  DryRunChannel channel(inner, [&](const std::string& line) { log.push_back(line); });
  const WorkerEndpoint worker{.name = "gpu-box-1:gpu0", .url = "http://10.0.0.5:9464"};
  for (ActionKind kind : {ActionKind::kEnable, ActionKind::kDrain, ActionKind::kSetClasses,
                          ActionKind::kProbe, ActionKind::kWake, ActionKind::kSuspend}) {
    Result<void> applied = channel.Apply({.kind = kind, .worker = worker.name}, worker);
    EXPECT_TRUE(applied) << applied.error_message();
  }
  EXPECT_EQ(applies, 0);
  ASSERT_EQ(log.size(), 6u);
  EXPECT_EQ(log[1], "dry run: would drain gpu-box-1:gpu0: drain on http://10.0.0.5:9464");
  EXPECT_EQ(channel.Describe({.kind = ActionKind::kDrain}, worker),
            "dry run: drain on http://10.0.0.5:9464");
}

TEST(DryRunChannel, AroundTheRealChannelsNothingReachesTheWorkerAndNoCommandRuns) {
  mc::testing::TempDir dir;
  testing::ControlRecorder recorder({});
  const std::string touched = (dir.path() / "touched").string();
  const WorkerEndpoint worker{
      .name = "gpu-box-1:gpu0",
      .url = recorder.url(),
      .control_url = recorder.url(),
      .control_token_file = dir.Write("control-token", "t\n").string(),
      .commands = {.start = {"/usr/bin/touch", touched}, .wake = {"/usr/bin/touch", touched}}};
  std::vector<std::string> log;
  auto keep = [&](const std::string& line) { log.push_back(line); };
  WorkerApiChannel api_inner;
  CommandChannel commands_inner(CommandChannelOptions{.log = keep});
  DryRunChannel api(api_inner, keep);
  DryRunChannel commands(commands_inner, keep);
  for (ControlChannel* channel :
       {static_cast<ControlChannel*>(&api), static_cast<ControlChannel*>(&commands)}) {
    EXPECT_TRUE(channel->Apply({.kind = ActionKind::kEnable, .concurrency = 2}, worker));
    EXPECT_TRUE(channel->Apply({.kind = ActionKind::kDrain}, worker));
    EXPECT_TRUE(channel->Apply({.kind = ActionKind::kWake}, worker));
  }
  EXPECT_TRUE(recorder.seen().empty());
  EXPECT_FALSE(std::filesystem::exists(touched));
  ASSERT_EQ(log.size(), 6u);
  EXPECT_EQ(log[1], "dry run: would drain gpu-box-1:gpu0: POST " + recorder.url() + "/drain");
  EXPECT_EQ(log[5], "dry run: would wake gpu-box-1:gpu0: run: /usr/bin/touch " + touched);
}

}  // namespace
}  // namespace mc::pool
