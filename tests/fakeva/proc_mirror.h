// The fake machine's /proc (MACHINE/proc, which run-on gives the product as its proc root):
// per process, a directory whose entries are links to the real /proc/PID's (stat, status,
// task with its children files, cmdline, ...), except `fd` and `fdinfo`, which are real
// directories that only the stand-in driver writes. So the product's evidence sampler walks
// the real process tree and reads real CPU times, and sees as open DRM files exactly the
// render nodes the stand-in driver opened, with the usage counters it keeps for them.
#pragma once

#include <filesystem>
#include <string>

namespace mc::fakeva {

// MirrorProcess lays out `proc_root`/PID for the live process PID; it does nothing to an entry
// that is there already, and answers false, with the reason in `*error`, when it cannot.
bool MirrorProcess(const std::filesystem::path& proc_root, int pid, std::string* error);

// MirrorMachineFiles links the files of /proc that are no process's (loadavg, meminfo,
// cpuinfo, ...) into `proc_root`.
void MirrorMachineFiles(const std::filesystem::path& proc_root);

}  // namespace mc::fakeva
