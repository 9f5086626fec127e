#include "dra/agent/agent_command.h"

#include <pthread.h>
#include <signal.h>

#include <iostream>
#include <mutex>
#include <thread>

#include "common/kube/kube_client.h"
#include "common/kube/kube_config.h"
#include "dra/agent/agent.h"

namespace mc::dra {
namespace {

// StopOnSignal blocks SIGTERM and SIGINT in every thread.
// So it must be made before any other thread.
// It waits for them on a thread of its own, which stops the agent.
// A signal handler could do nothing that safe.
class StopOnSignal {
 public:
  explicit StopOnSignal(Agent& agent) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGTERM);
    sigaddset(&signals_, SIGINT);
    sigaddset(&signals_, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    thread_ = std::thread([this, &agent] {
      int received = 0;
      sigwait(&signals_, &received);
      if (received != SIGUSR1) agent.Stop();
    });
  }
  ~StopOnSignal() {
    // SIGUSR1 only ends the waiting thread, for an agent that stopped by itself.
    pthread_kill(thread_.native_handle(), SIGUSR1);
    thread_.join();
  }

 private:
  sigset_t signals_;
  std::thread thread_;
};

}  // namespace

int RunAgentCommand(AgentCommand command) {
  std::mutex log_mutex;
  AgentLog log = [&log_mutex](const std::string& line) {
    std::lock_guard lock(log_mutex);
    std::cerr << line << '\n' << std::flush;
  };
  if (command.agent.node_name.empty()) {
    log("agent: no node name: pass --node-name, or set NODE_NAME (the DaemonSet sets it from the "
        "downward API)");
    return 2;
  }
  Result<kube::KubeConfig> config = command.kubeconfig.empty()
                                        ? kube::InClusterConfig(kube::ProcessEnvironment())
                                        : kube::LoadKubeconfig(command.kubeconfig);
  if (!config) {
    log("agent: " + config.error_message());
    return 1;
  }
  Result<std::unique_ptr<kube::KubeClient>> client =
      kube::KubeClient::Create(std::move(config).value());
  if (!client) {
    log("agent: " + client.error_message());
    return 1;
  }
  // A peer that closes a socket must give an error, not kill the agent.
  signal(SIGPIPE, SIG_IGN);
  Agent agent(std::move(command.agent), **client, log);
  StopOnSignal stop(agent);
  return agent.Run();
}

}  // namespace mc::dra
