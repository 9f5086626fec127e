#include "support/cluster_suite.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace mc::testing {
namespace {

TEST(ReadClusterEnv, ReadsEachNameAndItsValueWithoutTheQuotes) {
  TempDir dir;
  dir.Write("cluster.env",
            "# Written by start-control-plane; source it from a shell.\n"
            "CLUSTER_DIR='/tmp/cluster one'\n"
            "API_PORT=6443\n"
            "\n"
            "ADMIN_TOKEN='a=b'\n");
  const Result<std::map<std::string, std::string>> env = ReadClusterEnv(dir.path());
  ASSERT_TRUE(env) << env.error_message();
  EXPECT_EQ(*env, (std::map<std::string, std::string>{{"CLUSTER_DIR", "/tmp/cluster one"},
                                                      {"API_PORT", "6443"},
                                                      {"ADMIN_TOKEN", "a=b"}}));
}

TEST(ReadClusterEnv, SkipsLinesWithoutANameAndAValue) {
  TempDir dir;
  dir.Write("cluster.env", "export\n#API_PORT=1\nAPI_PORT=2\n");
  const Result<std::map<std::string, std::string>> env = ReadClusterEnv(dir.path());
  ASSERT_TRUE(env) << env.error_message();
  EXPECT_EQ(*env, (std::map<std::string, std::string>{{"API_PORT", "2"}}));
}

TEST(ReadClusterEnv, KeepsAValueOfOneQuoteAsItIs) {
  TempDir dir;
  dir.Write("cluster.env", "ODD='\nEMPTY=''\n");
  const Result<std::map<std::string, std::string>> env = ReadClusterEnv(dir.path());
  ASSERT_TRUE(env) << env.error_message();
  EXPECT_EQ(env->at("ODD"), "'");
  EXPECT_EQ(env->at("EMPTY"), "");
}

TEST(ReadClusterEnv, NamesTheFileItCannotRead) {
  TempDir dir;
  const Result<std::map<std::string, std::string>> env = ReadClusterEnv(dir.path());
  ASSERT_FALSE(env);
  EXPECT_EQ(env.error_message(), "cannot read " + (dir.path() / "cluster.env").string());
  EXPECT_TRUE(env.error().IsNotFound());
}

}  // namespace
}  // namespace mc::testing
