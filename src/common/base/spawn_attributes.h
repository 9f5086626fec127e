// The attributes every program this project starts is spawned with:
// - no signal blocked;
// - every signal at its default action;
// - a process group of its own.
//
// The caller's threads may block or catch signals. The agent and the pool manager block SIGTERM in
// all threads and wait for it on one. Their children must still die of it. The process group lets a
// kill at a deadline reach whatever the program started.
#pragma once

#include <spawn.h>

namespace mc {

// InitChildAttributes initialises `attributes` so. The caller destroys them after the spawn.
void InitChildAttributes(posix_spawnattr_t& attributes);

}  // namespace mc
