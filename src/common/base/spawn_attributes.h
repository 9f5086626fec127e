// The attributes every program this project starts is spawned with: no signal blocked and
// every signal at its default action, whatever the caller's threads blocked or caught (the
// agent and the pool manager block SIGTERM in all their threads to wait for it on one, and
// their children must still die of it), and a process group of its own, so that a kill at a
// deadline reaches whatever the program started.
#pragma once

#include <spawn.h>

namespace mc {

// InitChildAttributes initialises `attributes` so; the caller destroys them after the spawn.
void InitChildAttributes(posix_spawnattr_t& attributes);

}  // namespace mc
