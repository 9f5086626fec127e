// `media-capabilities doctor` runs every check of the doctor's table on this node. With a
// kubeconfig or in a pod, it checks the cluster too. It prints one line per result, or JSON.
// The exit status is 1 when any check failed.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace mc {

// AddDoctorCommand registers `doctor` on `app`; the returned function runs it and gives the
// exit status.
std::function<int()> AddDoctorCommand(CLI::App& app);

}  // namespace mc
