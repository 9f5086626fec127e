// The query batch: every driver query of one pass runs in a forked child of one process,
// `media-capabilities query-batch`, that the agent starts. Starting a program costs this
// machine about 1.5 ms of CPU (exec, dynamic linking, C++ start-up), forking a started one
// a tenth of that, so eight GPUs cost eight forks instead of eight starts. The isolation is
// the same: each query still has a process of its own, killed at its deadline and free to
// crash. The batch forks only because it is a fresh process with one thread; the agent,
// which runs the threads of the kubelet plugin and its watches, never forks: it starts the
// batch.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include "probe/query/child_process.h"
#include "probe/query/query_command.h"
#include "probe/query/query_target.h"

namespace mc::probe {

// How much longer than its children's deadline the batch itself may take: it runs no
// driver code, so only a machine too loaded to schedule it uses this.
inline constexpr std::chrono::milliseconds kBatchGrace{5000};

// RunQueryBatch runs the targets' queries in one batch and gives each target's outcome, in
// order. When the batch itself fails, every target's outcome says so. With
// command.fork_from_caller set, the queries fork from the caller instead, with no batch.
std::vector<ChildOutcome> RunQueryBatch(const QueryCommand& command,
                                        const std::vector<QueryTarget>& targets);

// RunQueryBatchChild is the batch's side: it forks one child per target that runs
// `query(target)`, waits for them under the deadline, and prints their outcomes as JSON on
// stdout. It returns the batch's exit status. `query` is RunQueryTarget in the product; tests
// give it a stand-in.
int RunQueryBatchChild(const std::vector<QueryTarget>& targets, std::chrono::milliseconds deadline,
                       const std::function<int(const QueryTarget&)>& query);

}  // namespace mc::probe
