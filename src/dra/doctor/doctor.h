// The doctor answers an operator's questions when a claim does not allocate.
// It also answers them when a capability is false.
// It asks this node and, when it has one, the cluster.
// Each check is one entry of the check table (check_table.h).
// This is the one place that runs them.
#pragma once

#include <optional>
#include <string>

#include "dra/doctor/check_result.h"
#include "dra/doctor/cluster_api.h"
#include "dra/doctor/cluster_checks.h"
#include "dra/doctor/node_input.h"
#include "probe/query/query_command.h"

namespace mc::dra {

struct NodeRequest {
  NodeRoots roots;
  LibvaSettings libva;
  // How the project's driver queries run: the probe's own, forked from this process.
  probe::QueryCommand query;
  // Whether the machine is a Kubernetes node (NodeInput::cluster).
  bool cluster = false;
};

// GatherNodeInput probes every GPU as `probe` does.
// Where there is an NVIDIA GPU, it also asks NVML.
// The caller must have one thread: the queries fork from it.
NodeInput GatherNodeInput(const NodeRequest& request);

// NodeChecks runs every node check of the table on what was gathered.
CheckResults NodeChecks(const NodeInput& input);

// InOrder sorts results into the table's order.
// It keeps each check's own order of lines.
CheckResults InOrder(CheckResults results);

}  // namespace mc::dra
