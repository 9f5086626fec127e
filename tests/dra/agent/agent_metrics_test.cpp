// The agent's metrics: one series per device query and per node, parsed by tests of their text.
#include "dra/agent/agent_metrics.h"

#include <gtest/gtest.h>

#include <string>

namespace mc::dra {
namespace {

AgentMetrics TwoDevices() {
  return {.node = "gpu-node-1",
          .devices = {{"pci-0000-01-00-0", {.healthy = true, .message = ""}},
                      {"pci-0000-02-00-0", {.healthy = false, .message = "query timed out"}}},
          .slices_published = true,
          .plugin_registered = false};
}

TEST(AgentMetrics, EachDeviceHasItsQueryVerdictUnderItsNodeAndName) {
  const std::string text = AgentMetricsText(TwoDevices());
  EXPECT_NE(
      text.find("mc_agent_device_query_ok{node=\"gpu-node-1\",device=\"pci-0000-01-00-0\"} 1\n"),
      std::string::npos)
      << text;
  EXPECT_NE(
      text.find("mc_agent_device_query_ok{node=\"gpu-node-1\",device=\"pci-0000-02-00-0\"} 0\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("mc_agent_devices{node=\"gpu-node-1\"} 2\n"), std::string::npos) << text;
}

TEST(AgentMetrics, TheSlicesAndThePluginRegistrationAreGaugesOfTheNode) {
  const std::string text = AgentMetricsText(TwoDevices());
  EXPECT_NE(text.find("# TYPE mc_agent_slices_published gauge\n"
                      "mc_agent_slices_published{node=\"gpu-node-1\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mc_agent_kubelet_plugin_registered{node=\"gpu-node-1\"} 0\n"),
            std::string::npos)
      << text;
}

TEST(AgentMetrics, ANodeWithNoDeviceStillSaysSoWithAZeroCount) {
  const std::string text = AgentMetricsText({.node = "cpu-node"});
  EXPECT_NE(text.find("mc_agent_devices{node=\"cpu-node\"} 0\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("mc_agent_device_query_ok{"), std::string::npos) << text;
}

TEST(AgentMetrics, ADeviceNameWithQuotesCannotAddASeries) {
  AgentMetrics metrics{.node = "n"};
  metrics.devices["card\"} 1\nmc_agent_devices{node=\"x"] = {.healthy = true, .message = ""};
  const std::string text = AgentMetricsText(metrics);
  EXPECT_EQ(text.find("\nmc_agent_devices{node=\"x"), std::string::npos) << text;
  EXPECT_NE(text.find("device=\"card\\\"} 1\\nmc_agent_devices{node=\\\"x\"} 1\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace mc::dra
