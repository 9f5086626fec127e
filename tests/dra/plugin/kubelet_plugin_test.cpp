// The plugin as the kubelet sees it: the real gRPC C++ client over the unix sockets, in a
// temporary directory that stands in for /var/lib/kubelet.
#include "dra/plugin/kubelet_plugin.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <mutex>
#include <vector>

#include "kubelet/dra-health/v1/api.grpc.pb.h"
#include "kubelet/dra-health/v1alpha1/api.grpc.pb.h"
#include "kubelet/dra/v1/api.grpc.pb.h"
#include "kubelet/dra/v1beta1/api.grpc.pb.h"
#include "kubelet/pluginregistration/v1/api.grpc.pb.h"
#include "support/temp_dir.h"

namespace mc::dra {
namespace {

namespace fs = std::filesystem;
namespace kubelet_dra = k8s::io::kubelet::pkg::apis::dra::v1;
using std::chrono::milliseconds;

constexpr const char* kDriver = "media.liken.sh";

std::shared_ptr<grpc::Channel> Dial(const fs::path& socket) {
  return grpc::CreateChannel("unix:" + socket.string(), grpc::InsecureChannelCredentials());
}

void WithDeadline(grpc::ClientContext& context) {
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
}

// Fixture runs a plugin in its own directory, with a checker that refuses one claim and a
// log the tests can read.
class KubeletPluginTest : public ::testing::Test {
 protected:
  KubeletPluginConfig Config() const {
    KubeletPluginConfig config;
    config.driver_name = kDriver;
    config.plugins_dir = dir_.path() / "plugins";
    config.registry_dir = dir_.path() / "plugins_registry";
    config.health.pool_name = "node-a";
    config.health.poll_every = milliseconds(10);
    config.health.resend_every = std::chrono::hours(1);
    return config;
  }

  std::unique_ptr<KubeletPlugin> StartPlugin() {
    ClaimChecker checker = [](const std::string& ns, const std::string& name,
                              const std::string& uid) -> Result<std::vector<PreparedDevice>> {
      if (name == "bad")
        return Error{"claim " + ns + "/" + name + " has UID other-uid, not " + uid};
      return std::vector<PreparedDevice>{{.request_names = {"media"},
                                          .pool_name = "node-a",
                                          .device_name = "gpu-of-" + name,
                                          .share_id = "share-" + uid}};
    };
    PluginLog log = [this](const std::string& line) {
      std::lock_guard lock(log_mutex_);
      log_.push_back(line);
    };
    Result<std::unique_ptr<KubeletPlugin>> plugin =
        KubeletPlugin::Start(Config(), checker, board_, log);
    EXPECT_TRUE(plugin.ok()) << (plugin.ok() ? "" : plugin.error());
    return plugin.ok() ? std::move(plugin).value() : nullptr;
  }

  std::vector<std::string> Log() {
    std::lock_guard lock(log_mutex_);
    return log_;
  }

  mc::testing::TempDir dir_;
  HealthBoard board_;
  std::mutex log_mutex_;
  std::vector<std::string> log_;
};

TEST_F(KubeletPluginTest, GetInfoNamesTheDriverItsEndpointAndTheVersionsInTheKubeletsOrder) {
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto registration =
      pluginregistration::Registration::NewStub(Dial(plugin->registration_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  pluginregistration::PluginInfo info;
  ASSERT_TRUE(registration->GetInfo(&context, {}, &info).ok());
  EXPECT_EQ(info.type(), "DRAPlugin");
  EXPECT_EQ(info.name(), kDriver);
  EXPECT_EQ(info.endpoint(), (dir_.path() / "plugins" / kDriver / "dra.sock").string());
  ASSERT_GE(info.supported_versions_size(), 2);
  EXPECT_EQ(info.supported_versions(0), "v1.DRAPlugin");
  EXPECT_EQ(info.supported_versions(1), "v1beta1.DRAPlugin");
  EXPECT_EQ(plugin->registration_socket(),
            dir_.path() / "plugins_registry" / "media.liken.sh-reg.sock");
}

TEST_F(KubeletPluginTest, ARejectedRegistrationIsLoggedWithTheKubeletsError) {
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto registration =
      pluginregistration::Registration::NewStub(Dial(plugin->registration_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  pluginregistration::RegistrationStatus status;
  status.set_plugin_registered(false);
  status.set_error("none of the versions are supported");
  pluginregistration::RegistrationStatusResponse reply;
  ASSERT_TRUE(registration->NotifyRegistrationStatus(&context, status, &reply).ok());
  EXPECT_FALSE(plugin->registered());
  const std::vector<std::string> log = Log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("rejected"), std::string::npos) << log[0];
  EXPECT_NE(log[0].find("none of the versions are supported"), std::string::npos) << log[0];
}

TEST_F(KubeletPluginTest, AnAcceptedRegistrationMarksThePluginRegistered) {
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto registration =
      pluginregistration::Registration::NewStub(Dial(plugin->registration_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  pluginregistration::RegistrationStatus status;
  status.set_plugin_registered(true);
  pluginregistration::RegistrationStatusResponse reply;
  ASSERT_TRUE(registration->NotifyRegistrationStatus(&context, status, &reply).ok());
  EXPECT_TRUE(plugin->registered());
}

// inotify reports the creations in the order they happened, across both directories.
TEST_F(KubeletPluginTest, ThePluginSocketIsCreatedBeforeTheRegistrationSocket) {
  const fs::path plugin_dir = dir_.path() / "plugins" / kDriver;
  const fs::path registry_dir = dir_.path() / "plugins_registry";
  fs::create_directories(plugin_dir);
  fs::create_directories(registry_dir);
  const int watcher = inotify_init1(IN_NONBLOCK);
  ASSERT_GE(watcher, 0);
  const int plugin_watch = inotify_add_watch(watcher, plugin_dir.c_str(), IN_CREATE);
  const int registry_watch = inotify_add_watch(watcher, registry_dir.c_str(), IN_CREATE);
  ASSERT_GE(plugin_watch, 0);
  ASSERT_GE(registry_watch, 0);

  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);

  std::vector<std::string> created;
  alignas(inotify_event) char buffer[4096];
  const ssize_t length = read(watcher, buffer, sizeof buffer);
  for (ssize_t offset = 0; offset < length;) {
    const auto* event = reinterpret_cast<const inotify_event*>(buffer + offset);
    created.push_back(event->len ? event->name : "");
    offset += sizeof(inotify_event) + event->len;
  }
  close(watcher);
  EXPECT_EQ(created, (std::vector<std::string>{"dra.sock", "media.liken.sh-reg.sock"}));
}

TEST_F(KubeletPluginTest, AStaleSocketFromADeadPluginIsReplaced) {
  const fs::path stale = dir_.path() / "plugins_registry" / "media.liken.sh-reg.sock";
  fs::create_directories(stale.parent_path());
  // A socket that was bound and never unlinked, as a crashed plugin leaves it.
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, stale.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  close(fd);
  ASSERT_TRUE(fs::is_socket(stale));

  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto registration = pluginregistration::Registration::NewStub(Dial(stale));
  grpc::ClientContext context;
  WithDeadline(context);
  pluginregistration::PluginInfo info;
  EXPECT_TRUE(registration->GetInfo(&context, {}, &info).ok());
}

TEST_F(KubeletPluginTest, AFileThatIsNotASocketIsLeftAloneAndStartFails) {
  dir_.Write("plugins_registry/media.liken.sh-reg.sock", "someone else's file");
  Result<std::unique_ptr<KubeletPlugin>> plugin =
      KubeletPlugin::Start(Config(), nullptr, board_, nullptr);
  ASSERT_FALSE(plugin.ok());
  EXPECT_NE(plugin.error().find("not a socket"), std::string::npos) << plugin.error();
  EXPECT_EQ(mc::testing::ReadFile(dir_.path() / "plugins_registry/media.liken.sh-reg.sock"),
            "someone else's file");
}

kubelet_dra::Claim MakeClaim(const std::string& name, const std::string& uid) {
  kubelet_dra::Claim claim;
  claim.set_namespace_("default");
  claim.set_name(name);
  claim.set_uid(uid);
  return claim;
}

TEST_F(KubeletPluginTest, PrepareAnswersEveryClaimWithTheCheckersErrorOnlyOnTheFailingOne) {
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = kubelet_dra::DRAPlugin::NewStub(Dial(plugin->plugin_socket()));
  kubelet_dra::NodePrepareResourcesRequest request;
  *request.add_claims() = MakeClaim("good", "uid-1");
  *request.add_claims() = MakeClaim("bad", "uid-2");
  *request.add_claims() = MakeClaim("also-good", "uid-3");
  grpc::ClientContext context;
  WithDeadline(context);
  kubelet_dra::NodePrepareResourcesResponse response;
  ASSERT_TRUE(stub->NodePrepareResources(&context, request, &response).ok());
  ASSERT_EQ(response.claims_size(), 3);
  EXPECT_EQ(response.claims().at("uid-1").error(), "");
  // The claim's devices are named, with no CDI device: the kubelet ties their health to the pod
  // through them.
  ASSERT_EQ(response.claims().at("uid-1").devices_size(), 1);
  const auto& device = response.claims().at("uid-1").devices(0);
  EXPECT_EQ(device.pool_name(), "node-a");
  EXPECT_EQ(device.device_name(), "gpu-of-good");
  EXPECT_EQ(device.share_id(), "share-uid-1");
  ASSERT_EQ(device.request_names_size(), 1);
  EXPECT_EQ(device.request_names(0), "media");
  EXPECT_EQ(device.cdi_device_ids_size(), 0);
  EXPECT_EQ(response.claims().at("uid-2").error(),
            "claim default/bad has UID other-uid, not uid-2");
  EXPECT_EQ(response.claims().at("uid-2").devices_size(), 0);
  EXPECT_EQ(response.claims().at("uid-3").error(), "");
}

TEST_F(KubeletPluginTest, TheV1beta1ServiceAnswersPrepareAsV1Does) {
  namespace beta = k8s::io::kubelet::pkg::apis::dra::v1beta1;
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = beta::DRAPlugin::NewStub(Dial(plugin->plugin_socket()));
  beta::NodePrepareResourcesRequest request;
  auto* claim = request.add_claims();
  claim->set_namespace_("default");
  claim->set_name("bad");
  claim->set_uid("uid-9");
  grpc::ClientContext context;
  WithDeadline(context);
  beta::NodePrepareResourcesResponse response;
  ASSERT_TRUE(stub->NodePrepareResources(&context, request, &response).ok());
  ASSERT_EQ(response.claims_size(), 1);
  EXPECT_NE(response.claims().at("uid-9").error(), "");
}

TEST_F(KubeletPluginTest, TheV1beta1ServiceNamesTheDevicesWithoutAShareId) {
  namespace beta = k8s::io::kubelet::pkg::apis::dra::v1beta1;
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = beta::DRAPlugin::NewStub(Dial(plugin->plugin_socket()));
  beta::NodePrepareResourcesRequest request;
  auto* claim = request.add_claims();
  claim->set_namespace_("default");
  claim->set_name("good");
  claim->set_uid("uid-8");
  grpc::ClientContext context;
  WithDeadline(context);
  beta::NodePrepareResourcesResponse response;
  ASSERT_TRUE(stub->NodePrepareResources(&context, request, &response).ok());
  ASSERT_EQ(response.claims().at("uid-8").devices_size(), 1);
  EXPECT_EQ(response.claims().at("uid-8").devices(0).device_name(), "gpu-of-good");
}

TEST_F(KubeletPluginTest, UnprepareAnswersEveryClaimWithSuccess) {
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = kubelet_dra::DRAPlugin::NewStub(Dial(plugin->plugin_socket()));
  kubelet_dra::NodeUnprepareResourcesRequest request;
  *request.add_claims() = MakeClaim("good", "uid-1");
  *request.add_claims() = MakeClaim("bad", "uid-2");
  grpc::ClientContext context;
  WithDeadline(context);
  kubelet_dra::NodeUnprepareResourcesResponse response;
  ASSERT_TRUE(stub->NodeUnprepareResources(&context, request, &response).ok());
  ASSERT_EQ(response.claims_size(), 2);
  EXPECT_EQ(response.claims().at("uid-1").error(), "");
  EXPECT_EQ(response.claims().at("uid-2").error(), "");
}

TEST_F(KubeletPluginTest, TheHealthStreamSendsTheBoardAndThenAnUpdateAfterAChange) {
  board_.Set("gpu0", {true, ""});
  board_.Set("gpu1", {false, "vaInitialize failed"});
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = v1alpha1::DRAResourceHealth::NewStub(Dial(plugin->plugin_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  auto reader = stub->NodeWatchResources(&context, {});

  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 2);
  EXPECT_EQ(first.devices(0).device().pool_name(), "node-a");
  EXPECT_EQ(first.devices(0).device().device_name(), "gpu0");
  EXPECT_EQ(first.devices(0).health(), v1alpha1::HEALTHY);
  EXPECT_EQ(first.devices(1).device().device_name(), "gpu1");
  EXPECT_EQ(first.devices(1).health(), v1alpha1::UNHEALTHY);
  EXPECT_EQ(first.devices(1).message(), "vaInitialize failed");
  EXPECT_GT(first.devices(1).last_updated_time(), 0);

  board_.Set("gpu1", {true, ""});
  v1alpha1::NodeWatchResourcesResponse second;
  ASSERT_TRUE(reader->Read(&second));
  ASSERT_EQ(second.devices_size(), 2);
  EXPECT_EQ(second.devices(1).health(), v1alpha1::HEALTHY);
  EXPECT_EQ(second.devices(1).message(), "");
  context.TryCancel();
}

TEST_F(KubeletPluginTest, TheV1HealthServiceSendsTheSameBoard) {
  board_.Set("gpu0", {false, "vaInitialize failed"});
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = v1::DRAResourceHealth::NewStub(Dial(plugin->plugin_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  auto reader = stub->NodeWatchResources(&context, {});
  v1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 1);
  EXPECT_EQ(first.devices(0).health(), v1::UNHEALTHY);
  EXPECT_EQ(first.devices(0).message(), "vaInitialize failed");
  context.TryCancel();
}

TEST_F(KubeletPluginTest, AHealthMessageIsCutToTheKubeletsLimit) {
  board_.Set("gpu0", {false, std::string(5000, 'x')});
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = v1alpha1::DRAResourceHealth::NewStub(Dial(plugin->plugin_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  auto reader = stub->NodeWatchResources(&context, {});
  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 1);
  EXPECT_EQ(first.devices(0).message().size(), 1024u);
  context.TryCancel();
}

// The registration socket serves only the Registration service; the gRPC client must hear
// UNIMPLEMENTED with the method's name, as from any gRPC server.
TEST_F(KubeletPluginTest, AMethodTheSocketDoesNotServeIsUnimplemented) {
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = kubelet_dra::DRAPlugin::NewStub(Dial(plugin->registration_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  kubelet_dra::NodePrepareResourcesResponse response;
  const grpc::Status status = stub->NodePrepareResources(&context, {}, &response);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::UNIMPLEMENTED);
  EXPECT_NE(status.error_message().find("NodePrepareResources"), std::string::npos)
      << status.error_message();
}

// A kubelet that closes its health stream ends the stream's method, so that shutting down
// waits for nothing.
TEST_F(KubeletPluginTest, AHealthStreamTheKubeletCancelsEnds) {
  board_.Set("gpu0", {true, ""});
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  auto stub = v1::DRAResourceHealth::NewStub(Dial(plugin->plugin_socket()));
  {
    grpc::ClientContext context;
    WithDeadline(context);
    auto reader = stub->NodeWatchResources(&context, {});
    v1::NodeWatchResourcesResponse first;
    ASSERT_TRUE(reader->Read(&first));
    context.TryCancel();
    v1::NodeWatchResourcesResponse more;
    EXPECT_FALSE(reader->Read(&more));
  }
  const auto before = std::chrono::steady_clock::now();
  plugin->Shutdown(std::chrono::seconds(5));
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(2));
}

TEST_F(KubeletPluginTest, ASocketPathTooLongForAUnixSocketIsRefused) {
  KubeletPluginConfig config = Config();
  config.plugins_dir = dir_.path() / std::string(120, 'p');
  Result<std::unique_ptr<KubeletPlugin>> plugin =
      KubeletPlugin::Start(config, nullptr, board_, nullptr);
  ASSERT_FALSE(plugin.ok());
  EXPECT_NE(plugin.error().find("longer than"), std::string::npos) << plugin.error();
}

TEST_F(KubeletPluginTest, ShutdownEndsAnOpenHealthStreamAndRemovesTheSockets) {
  board_.Set("gpu0", {true, ""});
  auto plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  ASSERT_TRUE(fs::exists(plugin->plugin_socket()));
  ASSERT_TRUE(fs::exists(plugin->registration_socket()));
  auto stub = v1alpha1::DRAResourceHealth::NewStub(Dial(plugin->plugin_socket()));
  grpc::ClientContext context;
  WithDeadline(context);
  auto reader = stub->NodeWatchResources(&context, {});
  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(reader->Read(&first));

  plugin->Shutdown(milliseconds(2000));
  v1alpha1::NodeWatchResourcesResponse more;
  EXPECT_FALSE(reader->Read(&more));
  EXPECT_FALSE(fs::exists(plugin->plugin_socket()));
  EXPECT_FALSE(fs::exists(plugin->registration_socket()));
}

}  // namespace
}  // namespace mc::dra
