#include "fakenv_state.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "fixed_layout.h"

namespace fakenv {
namespace {

namespace fs = std::filesystem;

// Samples older than this are dropped when a client registers.
// NVML's own sample buffer covers a few seconds.
// A test reads them back within this.
constexpr std::uint64_t kSampleRetentionUs = 60'000'000;
constexpr std::uint32_t kLargestPictureSide = 65536;

// ScopedFd closes a descriptor at the end of a scope.
class ScopedFd {
 public:
  explicit ScopedFd(int fd) : fd_(fd) {}
  ~ScopedFd() {
    if (fd_ >= 0) close(fd_);
  }
  ScopedFd(const ScopedFd&) = delete;
  ScopedFd& operator=(const ScopedFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

void MakeDirectories(const std::string& dir) {
  std::error_code ignored;
  fs::create_directories(fs::path(dir) / "clients", ignored);
  fs::create_directories(fs::path(dir) / "samples", ignored);
}

std::string ClientPath(const std::string& dir, std::uint32_t id) {
  return dir + "/clients/" + std::to_string(id);
}

std::vector<std::byte> ReadWholeFile(int fd) {
  std::vector<std::byte> bytes;
  std::byte chunk[4096];
  for (;;) {
    const ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    bytes.insert(bytes.end(), chunk, chunk + got);
  }
  return bytes;
}

// LiveClientsLocked is LiveClients for a caller that holds the directory's lock.
// Reclaiming a dead owner's record needs the lock.
// Otherwise a new record could be taken for dead before its owner flocks it.
std::vector<ClientRecord> LiveClientsLocked(const std::string& dir) {
  std::vector<ClientRecord> clients;
  std::error_code error;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(fs::path(dir) / "clients", error)) {
    ScopedFd fd(open(entry.path().c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) continue;
    if (flock(fd.get(), LOCK_EX | LOCK_NB) == 0) {
      // Nobody holds it: its owner died without removing it.
      // A killed process does that.
      unlink(entry.path().c_str());
      continue;
    }
    const std::vector<std::byte> bytes = ReadWholeFile(fd.get());
    if (std::optional<ClientRecord> record = DecodeClientRecord(bytes)) clients.push_back(*record);
  }
  return clients;
}

// DirectoryLock holds the state directory's lock for a scope.
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::string& dir)
      : fd_(open((dir + "/lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666)) {
    if (fd_.get() >= 0) {
      while (flock(fd_.get(), LOCK_EX) != 0 && errno == EINTR) {
      }
    }
  }
  bool held() const { return fd_.get() >= 0; }

 private:
  ScopedFd fd_;
};

void PruneOldSamples(const std::string& dir) {
  const std::uint64_t now = NowMicros();
  std::error_code error;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(fs::path(dir) / "samples", error)) {
    struct stat info;
    if (stat(entry.path().c_str(), &info) != 0) continue;
    const std::uint64_t modified = static_cast<std::uint64_t>(info.st_mtim.tv_sec) * 1'000'000;
    if (modified + kSampleRetentionUs < now) unlink(entry.path().c_str());
  }
}

bool WriteRecord(int fd, const ClientRecord& record) {
  return pwrite(fd, &record, sizeof record, 0) == static_cast<ssize_t>(sizeof record);
}

}  // namespace

std::optional<ClientRecord> DecodeClientRecord(std::span<const std::byte> bytes) {
  std::optional<ClientRecord> record = ReadFixed<ClientRecord>(bytes);
  if (!record || record->magic != kClientMagic) return std::nullopt;
  const auto kind = static_cast<std::uint32_t>(record->kind);
  if (kind < static_cast<std::uint32_t>(ClientKind::kContext) ||
      kind > static_cast<std::uint32_t>(ClientKind::kDecoder)) {
    return std::nullopt;
  }
  if (record->width > kLargestPictureSide || record->height > kLargestPictureSide ||
      record->attributed > 1) {
    return std::nullopt;
  }
  return record;
}

std::optional<Sample> DecodeSample(std::span<const std::byte> bytes) {
  std::optional<Sample> sample = ReadFixed<Sample>(bytes);
  if (!sample || sample->magic != kSampleMagic) return std::nullopt;
  if (sample->enc_util > 100 || sample->dec_util > 100) return std::nullopt;
  return sample;
}

std::vector<Sample> DecodeSamples(std::span<const std::byte> bytes) {
  std::vector<Sample> samples;
  for (std::size_t at = 0; at + sizeof(Sample) <= bytes.size(); at += sizeof(Sample)) {
    if (std::optional<Sample> sample = DecodeSample(bytes.subspan(at, sizeof(Sample)))) {
      samples.push_back(*sample);
    }
  }
  return samples;
}

std::string StateDir() {
  static const std::string dir = [] {
    if (const char* named = std::getenv("FAKENV_STATE_DIR"); named && *named) {
      return std::string(named);
    }
    // Beside the library's own directory.
    // MACHINE/lib/libcuda.so.1 gives MACHINE/state.
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&StateDir), &info) != 0 && info.dli_fname) {
      return (fs::absolute(info.dli_fname).parent_path().parent_path() / "state").string();
    }
    return std::string("fakenv-state");
  }();
  MakeDirectories(dir);
  return dir;
}

std::string DeviceStateDir(int index) {
  if (index == 0) return StateDir();
  const std::string dir = StateDir() + "/gpu" + std::to_string(index);
  MakeDirectories(dir);
  return dir;
}

std::uint64_t NowMicros() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000 +
         static_cast<std::uint64_t>(now.tv_nsec) / 1000;
}

std::unique_ptr<OwnedClient> OwnedClient::Register(const std::string& dir, ClientRecord record,
                                                   std::optional<int> limit, bool* limited,
                                                   std::string* error) {
  *limited = false;
  DirectoryLock lock(dir);
  if (!lock.held()) {
    *error = "cannot lock " + dir + "/lock: " + std::strerror(errno);
    return nullptr;
  }
  PruneOldSamples(dir);
  if (limit) {
    int same_kind = 0;
    for (const ClientRecord& live : LiveClientsLocked(dir)) same_kind += live.kind == record.kind;
    if (same_kind >= *limit) {
      *limited = true;
      return nullptr;
    }
  }
  ScopedFd ids(open((dir + "/ids").c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666));
  struct stat info;
  if (ids.get() < 0 || write(ids.get(), "+", 1) != 1 || fstat(ids.get(), &info) != 0) {
    *error = "cannot write " + dir + "/ids: " + std::strerror(errno);
    return nullptr;
  }
  record.id = static_cast<std::uint32_t>(info.st_size);
  record.pid = static_cast<std::uint32_t>(getpid());
  const std::string path = ClientPath(dir, record.id);
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0 || flock(fd, LOCK_EX) != 0 || !WriteRecord(fd, record)) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    if (fd >= 0) close(fd);
    unlink(path.c_str());
    return nullptr;
  }
  return std::unique_ptr<OwnedClient>(new OwnedClient(dir, path, fd, record));
}

OwnedClient::OwnedClient(std::string dir, std::string path, int fd, ClientRecord record)
    : dir_(std::move(dir)), path_(std::move(path)), fd_(fd), record_(record) {}

OwnedClient::~OwnedClient() {
  unlink(path_.c_str());
  close(fd_);
}

void OwnedClient::Update(const ClientRecord& record) {
  record_ = record;
  WriteRecord(fd_, record_);
}

std::vector<ClientRecord> LiveClients(const std::string& dir) {
  DirectoryLock lock(dir);
  return LiveClientsLocked(dir);
}

void AppendSample(const std::string& dir, const Sample& sample) {
  const std::string path = dir + "/samples/" + std::to_string(sample.client_id);
  ScopedFd fd(open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666));
  if (fd.get() < 0) return;
  // One write of the whole record.
  // Appends of this size are never interleaved.
  [[maybe_unused]] const ssize_t written = write(fd.get(), &sample, sizeof sample);
}

std::vector<Sample> SamplesSince(const std::string& dir, std::uint64_t after_us) {
  std::vector<Sample> samples;
  std::error_code error;
  for (const fs::directory_entry& entry :
       fs::directory_iterator(fs::path(dir) / "samples", error)) {
    ScopedFd fd(open(entry.path().c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) continue;
    for (const Sample& sample : DecodeSamples(ReadWholeFile(fd.get()))) {
      if (sample.timestamp_us > after_us) samples.push_back(sample);
    }
  }
  return samples;
}

}  // namespace fakenv
