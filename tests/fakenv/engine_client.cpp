#include "engine_client.h"

#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fakenv_state.h"

extern char** environ;

namespace fakenv {
namespace {

std::string EnginePath() {
  if (const char* named = std::getenv("FAKENV_ENGINE"); named && *named) return named;
  return FAKENV_ENGINE_PATH;
}

}  // namespace

std::unique_ptr<EngineClient> EngineClient::Start(Role role, const std::string& state_dir,
                                                  std::uint32_t client_id, std::string* error) {
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) {
    *error = std::string("socketpair failed: ") + std::strerror(errno);
    return nullptr;
  }
  // The engine's standard input is its end of the socket; dup2 clears close-on-exec there.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  const std::string path = EnginePath();
  const std::string role_name = role == Role::kEncoder ? "encode" : "decode";
  const std::string id = std::to_string(client_id);
  const std::string owner = std::to_string(getpid());
  const std::string& state = state_dir;
  // "--detach": the engine leaves the client's process tree.
  // A GPU's engine is no child of its client either.
  // So the client's CPU time is the client's alone.
  // That holds even as wait4 counts it, with its children's.
  std::vector<char*> argv = {const_cast<char*>(path.c_str()),
                             const_cast<char*>("--detach"),
                             const_cast<char*>(role_name.c_str()),
                             const_cast<char*>(state.c_str()),
                             const_cast<char*>(id.c_str()),
                             const_cast<char*>(owner.c_str()),
                             nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  int status = 0;
  if (spawned == 0) {
    // What was spawned starts the engine and exits at once.
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  if (spawned != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    close(ends[0]);
    *error = "cannot start the engine " + path + ": " +
             (spawned != 0 ? std::strerror(spawned) : "it did not detach");
    return nullptr;
  }
  return std::unique_ptr<EngineClient>(new EngineClient(ends[0]));
}

EngineClient::~EngineClient() {
  // Closing the fake's half of the socket ends the engine's work.
  // It writes its last sample and exits, which closes its half.
  // Waiting for that keeps a finished job's samples complete when its client exits.
  shutdown(socket_, SHUT_WR);
  char ignored[256];
  for (;;) {
    const ssize_t got = read(socket_, ignored, sizeof ignored);
    if (got > 0 || (got < 0 && errno == EINTR)) continue;
    break;
  }
  close(socket_);
}

bool EngineClient::Send(wire::Request type, std::span<const std::byte> body,
                        std::span<const std::byte> bytes) {
  if (gone_) return false;
  gone_ = !wire::Send(socket_, static_cast<std::uint32_t>(type), 0, body, bytes);
  return !gone_;
}

std::optional<wire::Message> EngineClient::Receive() {
  if (gone_) return std::nullopt;
  std::optional<wire::Message> message = wire::Receive(socket_);
  gone_ = !message;
  return message;
}

}  // namespace fakenv
