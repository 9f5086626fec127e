#include "probe/query/child/run_query_target.h"

#include "probe/query/child/nvidia_child.h"
#include "probe/query/child/va_child.h"

namespace mc::probe {

int RunQueryTarget(const QueryTarget& target) {
  if (target.api == QueryTarget::Api::kVa) return RunQueryVa(target.where);
  return RunQueryNvidia(target.where,
                        NvidiaQueryOptions{.measure_sessions = target.measure_sessions});
}

}  // namespace mc::probe
