// The fake GPU's shared state.
// Every process that touches the GPU sees it alike.
// Likewise a real driver's state lives in the kernel.
// It is a directory: FAKENV_STATE_DIR.
// By default it is `state` beside the directory the fake library was loaded from.
// In a machine laid out by fakenv_stage, that is MACHINE/state. It holds:
//  - lock: flock'd while a client is registered or removed.
//    So the session cap holds across processes.
//  - ids: one byte appended per client; its length is the newest client's id.
//  - clients/ID: one ClientRecord per live CUDA context, encode session or decoder.
//    The owning process flocks it for as long as it lives.
//    A record whose lock can be taken belongs to a dead process, and is reclaimed.
//  - samples/ID: the Samples the client's engine appended, one per sampling period.
// That is the state of the machine's first GPU.
// Each other GPU N has the same layout in its own directory, gpuN inside it.
// So its sessions, samples, memory and session cap are its own, as a real GPU's are.
// Both record kinds are fixed binary structures.
// The Decode functions read them back, checking every field.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace fakenv {

enum class ClientKind : std::uint32_t { kContext = 1, kEncoder = 2, kDecoder = 3 };

inline constexpr std::uint32_t kClientMagic = 0x4c43564e;  // "NVCL"
inline constexpr std::uint32_t kSampleMagic = 0x4d53564e;  // "NVSM"

struct ClientRecord {
  std::uint32_t magic = kClientMagic;
  ClientKind kind = ClientKind::kContext;
  std::uint32_t id = 0;
  // The process that owns the client, as NVML names it.
  std::uint32_t pid = 0;
  // The codec:
  //  - for an encoder, NVML's nvmlEncoderType_t (0 H.264, 1 HEVC);
  //  - for a decoder, cudaVideoCodec.
  std::uint32_t codec = 0;
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  // 0 when the engine's work must not be attributed: the `unattributed` fault.
  std::uint32_t attributed = 1;
  // The video memory the client holds.
  std::uint64_t vram_bytes = 0;
};
static_assert(sizeof(ClientRecord) == 40);

// One sampling period of an engine, as NVML's process samples report it.
struct Sample {
  std::uint32_t magic = kSampleMagic;
  std::uint32_t client_id = 0;
  // The end of the period, in microseconds of CLOCK_REALTIME.
  // NVML calls it the "CPU timestamp".
  std::uint64_t timestamp_us = 0;
  std::uint32_t pid = 0;
  std::uint32_t enc_util = 0;
  std::uint32_t dec_util = 0;
  std::uint32_t average_fps = 0;
  std::uint32_t average_latency_us = 0;
  // The engine's CPU time from its start to the end of the period, in milliseconds.
  // It is what the engine really worked.
  // No NVML call reports it, but a test compares against it.
  std::uint32_t engine_cpu_ms = 0;
};
static_assert(sizeof(Sample) == 40);

// The Decode functions take a record as it was read from a file.
// They give nullopt for one that is short.
// They also do when its magic, kind or figures are out of range.
std::optional<ClientRecord> DecodeClientRecord(std::span<const std::byte> bytes);
std::optional<Sample> DecodeSample(std::span<const std::byte> bytes);
// DecodeSamples reads a samples file, skipping records that do not decode.
std::vector<Sample> DecodeSamples(std::span<const std::byte> bytes);

// StateDir is the state directory this process uses, created if missing.
std::string StateDir();

// DeviceStateDir is the state directory of GPU `index` of the machine.
// The index is CUDA's and NVML's. The directory is created if missing:
//  - StateDir() for GPU 0, as on a machine of one GPU;
//  - StateDir()/gpuN for GPU N.
std::string DeviceStateDir(int index);

// An OwnedClient is a client record this process registered.
// The record stays in the state directory, locked, for as long as the object lives.
class OwnedClient {
 public:
  // Register adds a client of `record.kind` to the state directory `dir` of one GPU.
  // `dir` is from DeviceStateDir. The id and pid are filled in here.
  // With a limit, it refuses once that many live clients of the kind exist on that GPU.
  // The count covers all processes together; a refusal sets `*limited`.
  // It gives nullptr, with the reason in `*error`, when the directory cannot be written.
  static std::unique_ptr<OwnedClient> Register(const std::string& dir, ClientRecord record,
                                               std::optional<int> limit, bool* limited,
                                               std::string* error);
  ~OwnedClient();
  OwnedClient(const OwnedClient&) = delete;
  OwnedClient& operator=(const OwnedClient&) = delete;

  // Update rewrites the record.
  // It is for a client whose codec, size or memory became known.
  void Update(const ClientRecord& record);
  const ClientRecord& record() const { return record_; }
  // The state directory of the client's GPU.
  // Its engine appends its samples there.
  const std::string& dir() const { return dir_; }

 private:
  OwnedClient(std::string dir, std::string path, int fd, ClientRecord record);
  std::string dir_;
  std::string path_;
  int fd_;
  ClientRecord record_;
};

// LiveClients lists the clients whose owners are alive.
// It reclaims the records of owners that died.
std::vector<ClientRecord> LiveClients(const std::string& dir);

// AppendSample adds one sampling period of a client's engine.
void AppendSample(const std::string& dir, const Sample& sample);

// SamplesSince gives every client's samples newer than `after_us`.
std::vector<Sample> SamplesSince(const std::string& dir, std::uint64_t after_us);

// NowMicros is CLOCK_REALTIME in microseconds.
// It is the clock of Sample::timestamp_us.
std::uint64_t NowMicros();

}  // namespace fakenv
