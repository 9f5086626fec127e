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
namespace kubelet_dra_beta = k8s::io::kubelet::pkg::apis::dra::v1beta1;
using std::chrono::milliseconds;

constexpr const char* kDriver = "media.liken.sh";

std::shared_ptr<grpc::Channel> Dial(const fs::path& socket) {
  return grpc::CreateChannel("unix:" + socket.string(), grpc::InsecureChannelCredentials());
}

void WithDeadline(grpc::ClientContext& context) {
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
}

// The two versions of the kubelet's DRA service that the plugin serves.
struct V1 {
  using Service = kubelet_dra::DRAPlugin;
  using Claim = kubelet_dra::Claim;
  using PrepareRequest = kubelet_dra::NodePrepareResourcesRequest;
  using PrepareResponse = kubelet_dra::NodePrepareResourcesResponse;
};
struct V1beta1 {
  using Service = kubelet_dra_beta::DRAPlugin;
  using Claim = kubelet_dra_beta::Claim;
  using PrepareRequest = kubelet_dra_beta::NodePrepareResourcesRequest;
  using PrepareResponse = kubelet_dra_beta::NodePrepareResourcesResponse;
};

// MakeClaim is a claim in the default namespace, as the kubelet sends it.
template <typename Version = V1>
typename Version::Claim MakeClaim(const std::string& name, const std::string& uid) {
  typename Version::Claim claim;
  claim.set_namespace_("default");
  claim.set_name(name);
  claim.set_uid(uid);
  return claim;
}

// HealthWatch is an open health stream. Its stub and context outlive its reader.
template <typename Service>
struct HealthWatch {
  std::unique_ptr<typename Service::Stub> stub;
  std::unique_ptr<grpc::ClientContext> context;
  decltype(stub->NodeWatchResources(context.get(), {})) reader;
};

// Fixture runs a plugin in its own directory, with a checker that refuses one claim and a
// log the tests can read. Its verbs call the plugin as the kubelet does.
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

  // StartPlugin starts the fixture's plugin; null when it could not start.
  KubeletPlugin* StartPlugin() {
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
    EXPECT_TRUE(plugin.ok()) << (plugin.ok() ? "" : plugin.error_message());
    plugin_ = plugin.ok() ? std::move(plugin).value() : nullptr;
    return plugin_.get();
  }

  // GetInfo asks the registration socket at `socket` what the plugin is.
  Result<pluginregistration::PluginInfo> GetInfo(const fs::path& socket) {
    auto registration = pluginregistration::Registration::NewStub(Dial(socket));
    grpc::ClientContext context;
    WithDeadline(context);
    pluginregistration::PluginInfo info;
    const grpc::Status status = registration->GetInfo(&context, {}, &info);
    if (!status.ok()) return Error{"GetInfo: " + status.error_message()};
    return info;
  }

  // NotifyRegistration tells the plugin whether the kubelet registered it, and why not.
  Result<void> NotifyRegistration(bool registered, const std::string& error = "") {
    auto registration =
        pluginregistration::Registration::NewStub(Dial(plugin_->registration_socket()));
    grpc::ClientContext context;
    WithDeadline(context);
    pluginregistration::RegistrationStatus status;
    status.set_plugin_registered(registered);
    if (!error.empty()) status.set_error(error);
    pluginregistration::RegistrationStatusResponse reply;
    const grpc::Status sent = registration->NotifyRegistrationStatus(&context, status, &reply);
    if (!sent.ok()) return Error{"NotifyRegistrationStatus: " + sent.error_message()};
    return {};
  }

  // Prepare asks the plugin's DRA service of `Version` to prepare the claims.
  template <typename Version = V1>
  Result<typename Version::PrepareResponse> Prepare(
      const std::vector<typename Version::Claim>& claims) {
    auto stub = Version::Service::NewStub(Dial(plugin_->plugin_socket()));
    typename Version::PrepareRequest request;
    for (const auto& claim : claims) *request.add_claims() = claim;
    grpc::ClientContext context;
    WithDeadline(context);
    typename Version::PrepareResponse response;
    const grpc::Status status = stub->NodePrepareResources(&context, request, &response);
    if (!status.ok()) return Error{"NodePrepareResources: " + status.error_message()};
    return response;
  }

  // Unprepare asks the plugin's v1 DRA service to release the claims.
  Result<kubelet_dra::NodeUnprepareResourcesResponse> Unprepare(
      const std::vector<kubelet_dra::Claim>& claims) {
    auto stub = kubelet_dra::DRAPlugin::NewStub(Dial(plugin_->plugin_socket()));
    kubelet_dra::NodeUnprepareResourcesRequest request;
    for (const auto& claim : claims) *request.add_claims() = claim;
    grpc::ClientContext context;
    WithDeadline(context);
    kubelet_dra::NodeUnprepareResourcesResponse response;
    const grpc::Status status = stub->NodeUnprepareResources(&context, request, &response);
    if (!status.ok()) return Error{"NodeUnprepareResources: " + status.error_message()};
    return response;
  }

  // WatchHealth opens the health stream of `Service`, v1 or v1alpha1.
  template <typename Service>
  HealthWatch<Service> WatchHealth() {
    HealthWatch<Service> watch;
    watch.stub = Service::NewStub(Dial(plugin_->plugin_socket()));
    watch.context = std::make_unique<grpc::ClientContext>();
    WithDeadline(*watch.context);
    watch.reader = watch.stub->NodeWatchResources(watch.context.get(), {});
    return watch;
  }

  std::vector<std::string> Log() {
    std::lock_guard lock(log_mutex_);
    return log_;
  }

  mc::testing::TempDir dir_;
  HealthBoard board_;
  std::mutex log_mutex_;
  std::vector<std::string> log_;
  // Last, so that it stops before the board and the log it uses go.
  std::unique_ptr<KubeletPlugin> plugin_;
};

TEST_F(KubeletPluginTest, GetInfoNamesTheDriverItsEndpointAndTheVersionsInTheKubeletsOrder) {
  KubeletPlugin* plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  const Result<pluginregistration::PluginInfo> info = GetInfo(plugin->registration_socket());
  ASSERT_TRUE(info) << info.error_message();
  EXPECT_EQ(info->type(), "DRAPlugin");
  EXPECT_EQ(info->name(), kDriver);
  EXPECT_EQ(info->endpoint(), (dir_.path() / "plugins" / kDriver / "dra.sock").string());
  ASSERT_GE(info->supported_versions_size(), 2);
  EXPECT_EQ(info->supported_versions(0), "v1.DRAPlugin");
  EXPECT_EQ(info->supported_versions(1), "v1beta1.DRAPlugin");
  EXPECT_EQ(plugin->registration_socket(),
            dir_.path() / "plugins_registry" / "media.liken.sh-reg.sock");
}

TEST_F(KubeletPluginTest, ARejectedRegistrationIsLoggedWithTheKubeletsError) {
  KubeletPlugin* plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  const Result<void> notified = NotifyRegistration(false, "none of the versions are supported");
  ASSERT_TRUE(notified) << notified.error_message();
  EXPECT_FALSE(plugin->registered());
  const std::vector<std::string> log = Log();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_NE(log[0].find("rejected"), std::string::npos) << log[0];
  EXPECT_NE(log[0].find("none of the versions are supported"), std::string::npos) << log[0];
}

TEST_F(KubeletPluginTest, AnAcceptedRegistrationMarksThePluginRegistered) {
  KubeletPlugin* plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  const Result<void> notified = NotifyRegistration(true);
  ASSERT_TRUE(notified) << notified.error_message();
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

  ASSERT_TRUE(StartPlugin());

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

  ASSERT_TRUE(StartPlugin());
  const Result<pluginregistration::PluginInfo> info = GetInfo(stale);
  EXPECT_TRUE(info) << info.error_message();
}

TEST_F(KubeletPluginTest, AFileThatIsNotASocketIsLeftAloneAndStartFails) {
  dir_.Write("plugins_registry/media.liken.sh-reg.sock", "someone else's file");
  Result<std::unique_ptr<KubeletPlugin>> plugin =
      KubeletPlugin::Start(Config(), nullptr, board_, nullptr);
  ASSERT_FALSE(plugin.ok());
  EXPECT_NE(plugin.error_message().find("not a socket"), std::string::npos)
      << plugin.error_message();
  EXPECT_EQ(mc::testing::ReadFile(dir_.path() / "plugins_registry/media.liken.sh-reg.sock"),
            "someone else's file");
}

TEST_F(KubeletPluginTest, PrepareAnswersEveryClaimWithTheCheckersErrorOnlyOnTheFailingOne) {
  ASSERT_TRUE(StartPlugin());
  const Result<kubelet_dra::NodePrepareResourcesResponse> response = Prepare(
      {MakeClaim("good", "uid-1"), MakeClaim("bad", "uid-2"), MakeClaim("also-good", "uid-3")});
  ASSERT_TRUE(response) << response.error_message();
  ASSERT_EQ(response->claims_size(), 3);
  EXPECT_EQ(response->claims().at("uid-1").error(), "");
  // The claim's devices are named, with no CDI device: the kubelet ties their health to the pod
  // through them.
  ASSERT_EQ(response->claims().at("uid-1").devices_size(), 1);
  const auto& device = response->claims().at("uid-1").devices(0);
  EXPECT_EQ(device.pool_name(), "node-a");
  EXPECT_EQ(device.device_name(), "gpu-of-good");
  EXPECT_EQ(device.share_id(), "share-uid-1");
  ASSERT_EQ(device.request_names_size(), 1);
  EXPECT_EQ(device.request_names(0), "media");
  EXPECT_EQ(device.cdi_device_ids_size(), 0);
  EXPECT_EQ(response->claims().at("uid-2").error(),
            "claim default/bad has UID other-uid, not uid-2");
  EXPECT_EQ(response->claims().at("uid-2").devices_size(), 0);
  EXPECT_EQ(response->claims().at("uid-3").error(), "");
}

TEST_F(KubeletPluginTest, TheV1beta1ServiceAnswersPrepareAsV1Does) {
  ASSERT_TRUE(StartPlugin());
  const Result<kubelet_dra_beta::NodePrepareResourcesResponse> response =
      Prepare<V1beta1>({MakeClaim<V1beta1>("bad", "uid-9")});
  ASSERT_TRUE(response) << response.error_message();
  ASSERT_EQ(response->claims_size(), 1);
  EXPECT_NE(response->claims().at("uid-9").error(), "");
}

TEST_F(KubeletPluginTest, TheV1beta1ServiceNamesTheDevicesWithoutAShareId) {
  ASSERT_TRUE(StartPlugin());
  const Result<kubelet_dra_beta::NodePrepareResourcesResponse> response =
      Prepare<V1beta1>({MakeClaim<V1beta1>("good", "uid-8")});
  ASSERT_TRUE(response) << response.error_message();
  ASSERT_EQ(response->claims().at("uid-8").devices_size(), 1);
  EXPECT_EQ(response->claims().at("uid-8").devices(0).device_name(), "gpu-of-good");
}

TEST_F(KubeletPluginTest, UnprepareAnswersEveryClaimWithSuccess) {
  ASSERT_TRUE(StartPlugin());
  const Result<kubelet_dra::NodeUnprepareResourcesResponse> response =
      Unprepare({MakeClaim("good", "uid-1"), MakeClaim("bad", "uid-2")});
  ASSERT_TRUE(response) << response.error_message();
  ASSERT_EQ(response->claims_size(), 2);
  EXPECT_EQ(response->claims().at("uid-1").error(), "");
  EXPECT_EQ(response->claims().at("uid-2").error(), "");
}

TEST_F(KubeletPluginTest, TheHealthStreamSendsTheBoardAndThenAnUpdateAfterAChange) {
  board_.Set("gpu0", {true, ""});
  board_.Set("gpu1", {false, "vaInitialize failed"});
  ASSERT_TRUE(StartPlugin());
  auto watch = WatchHealth<v1alpha1::DRAResourceHealth>();

  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(watch.reader->Read(&first));
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
  ASSERT_TRUE(watch.reader->Read(&second));
  ASSERT_EQ(second.devices_size(), 2);
  EXPECT_EQ(second.devices(1).health(), v1alpha1::HEALTHY);
  EXPECT_EQ(second.devices(1).message(), "");
  watch.context->TryCancel();
}

TEST_F(KubeletPluginTest, TheV1HealthServiceSendsTheSameBoard) {
  board_.Set("gpu0", {false, "vaInitialize failed"});
  ASSERT_TRUE(StartPlugin());
  auto watch = WatchHealth<v1::DRAResourceHealth>();
  v1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(watch.reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 1);
  EXPECT_EQ(first.devices(0).health(), v1::UNHEALTHY);
  EXPECT_EQ(first.devices(0).message(), "vaInitialize failed");
  watch.context->TryCancel();
}

TEST_F(KubeletPluginTest, AHealthMessageIsCutToTheKubeletsLimit) {
  board_.Set("gpu0", {false, std::string(5000, 'x')});
  ASSERT_TRUE(StartPlugin());
  auto watch = WatchHealth<v1alpha1::DRAResourceHealth>();
  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(watch.reader->Read(&first));
  ASSERT_EQ(first.devices_size(), 1);
  EXPECT_EQ(first.devices(0).message().size(), 1024u);
  watch.context->TryCancel();
}

// The registration socket serves only the Registration service; the gRPC client must hear
// UNIMPLEMENTED with the method's name, as from any gRPC server.
TEST_F(KubeletPluginTest, AMethodTheSocketDoesNotServeIsUnimplemented) {
  KubeletPlugin* plugin = StartPlugin();
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
  KubeletPlugin* plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  {
    auto watch = WatchHealth<v1::DRAResourceHealth>();
    v1::NodeWatchResourcesResponse first;
    ASSERT_TRUE(watch.reader->Read(&first));
    watch.context->TryCancel();
    v1::NodeWatchResourcesResponse more;
    EXPECT_FALSE(watch.reader->Read(&more));
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
  EXPECT_NE(plugin.error_message().find("longer than"), std::string::npos)
      << plugin.error_message();
}

TEST_F(KubeletPluginTest, ShutdownEndsAnOpenHealthStreamAndRemovesTheSockets) {
  board_.Set("gpu0", {true, ""});
  KubeletPlugin* plugin = StartPlugin();
  ASSERT_TRUE(plugin);
  ASSERT_TRUE(fs::exists(plugin->plugin_socket()));
  ASSERT_TRUE(fs::exists(plugin->registration_socket()));
  auto watch = WatchHealth<v1alpha1::DRAResourceHealth>();
  v1alpha1::NodeWatchResourcesResponse first;
  ASSERT_TRUE(watch.reader->Read(&first));

  plugin->Shutdown(milliseconds(2000));
  v1alpha1::NodeWatchResourcesResponse more;
  EXPECT_FALSE(watch.reader->Read(&more));
  EXPECT_FALSE(fs::exists(plugin->plugin_socket()));
  EXPECT_FALSE(fs::exists(plugin->registration_socket()));
}

}  // namespace
}  // namespace mc::dra
