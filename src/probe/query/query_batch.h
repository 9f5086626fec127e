// The query batch. Every driver query of one pass runs in a forked child of one process. That
// process is `media-capabilities query-batch`, which the agent starts. Starting a program costs
// about 1.5 ms of CPU: exec, dynamic linking, C++ start-up. Forking a started one costs a tenth of
// that. So eight GPUs cost eight forks instead of eight starts. The isolation is the same. Each
// query still has a process of its own, killed at its deadline and free to crash. The batch may
// fork because it is a fresh process with one thread. The agent never forks: it runs the kubelet
// plugin's threads and its watches. It starts the batch.
#pragma once

#include <chrono>
#include <functional>
#include <vector>

#include "probe/query/child_process.h"
#include "probe/query/query_command.h"
#include "probe/query/query_target.h"

namespace mc::probe {

// How much longer than its children's deadline the batch may take. It runs no driver code. So only
// a machine too loaded to schedule it uses this.
inline constexpr std::chrono::milliseconds kBatchGrace{5000};

// RunQueryBatch runs the targets' queries in one batch. It gives each target's outcome, in order.
// When the batch itself fails, every target's outcome says so. With command.fork_from_caller set,
// the queries fork from the caller instead, with no batch.
std::vector<ChildOutcome> RunQueryBatch(const QueryCommand& command,
                                        const std::vector<QueryTarget>& targets);

// RunQueryBatchChild is the batch's side. It forks one child per target that runs `query(target)`.
// It waits for them under the deadline. It prints their outcomes as JSON on stdout. It returns the
// batch's exit status. `query` is RunQueryTarget in the product; tests give a fake.
int RunQueryBatchChild(const std::vector<QueryTarget>& targets, std::chrono::milliseconds deadline,
                       const std::function<int(const QueryTarget&)>& query);

}  // namespace mc::probe
