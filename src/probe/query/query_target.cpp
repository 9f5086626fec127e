#include "probe/query/query_target.h"

namespace mc::probe {

std::string TargetArgument(const QueryTarget& target) {
  if (target.api == QueryTarget::Api::kVa) return "va=" + target.where;
  return std::string(target.measure_sessions ? "nvidia+sessions=" : "nvidia=") + target.where;
}

Result<QueryTarget> ParseTargetArgument(std::string_view argument) {
  const std::size_t equals = argument.find('=');
  const std::string_view kind = argument.substr(0, equals);
  if (equals == std::string_view::npos || equals + 1 == argument.size()) {
    return InvalidInput("query target \"" + std::string(argument) + "\" is not KIND=WHERE");
  }
  QueryTarget target;
  target.where = std::string(argument.substr(equals + 1));
  if (kind == "va") {
    target.api = QueryTarget::Api::kVa;
  } else if (kind == "nvidia" || kind == "nvidia+sessions") {
    target.api = QueryTarget::Api::kNvidia;
    target.measure_sessions = kind == "nvidia+sessions";
  } else {
    return InvalidInput("query target \"" + std::string(argument) + "\" has the unknown kind \"" +
                        std::string(kind) + "\" (va, nvidia or nvidia+sessions)");
  }
  return target;
}

}  // namespace mc::probe
