// `media-capabilities doctor`: every check of the doctor's table on this node and, with a
// kubeconfig or in a pod, on the cluster; one line per result, or JSON; exit status 1 when
// any check failed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace mc {

// AddDoctorCommand registers `doctor` on `app`; the returned function runs it and gives the
// exit status.
std::function<int()> AddDoctorCommand(CLI::App& app);

}  // namespace mc
