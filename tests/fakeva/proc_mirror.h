// The fake machine's /proc, MACHINE/proc; run-on gives it the product as its proc root.
// Each process has a directory of links to the real /proc/PID's entries.
// Those are stat, status, task with its children files, cmdline, ...
// `fd` and `fdinfo` are the exception: real directories only the fake driver writes.
// So the product's evidence sampler walks the real process tree and reads real CPU times.
// Its open DRM files are exactly the render nodes the fake driver opened.
// They carry the usage counters the driver keeps for them.
#pragma once

#include <filesystem>
#include <string>

namespace mc::fakeva {

// MirrorProcess lays out `proc_root`/PID for the live process PID.
// It does nothing to an entry that is there already.
// It answers false, with the reason in `*error`, when it cannot.
bool MirrorProcess(const std::filesystem::path& proc_root, int pid, std::string* error);

// MirrorMachineFiles links /proc's files that are no process's into `proc_root`.
// Such as loadavg, meminfo, cpuinfo, ...
void MirrorMachineFiles(const std::filesystem::path& proc_root);

}  // namespace mc::fakeva
