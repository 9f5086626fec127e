// NvidiaFacts is what one NVIDIA GPU's driver stated through CUDA, NVDEC (cuvid) and NVENC,
// and nothing more: the values the calls returned, before any rule reads them. Like
// VaFacts it is a plain value, so that it crosses the process boundary between the query
// child and the agent as JSON, and so that a capture on a real GPU can be replayed by the
// stand-in libraries of tests/fakenv.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::probe {

// How the NVIDIA query's failure begins for a GPU that CUDA does not enumerate: one that
// CUDA_VISIBLE_DEVICES or a container hides, or one bound to another driver. Such a GPU has no
// place in CUDA's order of devices, unlike one whose query failed after CUDA found it (no room
// for a context, a query past its deadline), which CUDA still counts.
inline constexpr std::string_view kNoCudaDeviceAt = "no CUDA device is at PCI address ";

// NvDecoderCaps is one cuvidGetDecoderCaps answer: the question (codec, chroma format, bit
// depth) and what the driver said to it.
struct NvDecoderCaps {
  // A cudaVideoCodec value, such as cudaVideoCodec_HEVC.
  std::int32_t codec = 0;
  // A cudaVideoChromaFormat value, such as cudaVideoChromaFormat_420.
  std::int32_t chroma = 1;
  std::int32_t bit_depth = 8;
  // bIsSupported.
  bool supported = false;
  // nNumNVDECs: how many decode engines can take this stream; 0 when not stated (the
  // records written from NVIDIA's support matrix do not state it).
  std::uint32_t engines = 0;
  std::uint32_t max_width = 0;
  std::uint32_t max_height = 0;
  // nOutputFormatMask: bit i set means the decoder can write cudaVideoSurfaceFormat i
  // (0 NV12, 1 P016, 2 YUV444, 3 YUV444_16Bit).
  std::uint32_t output_formats = 0;

  bool operator==(const NvDecoderCaps&) const = default;
};

// NvEncoderCodec is one codec GUID that an NVENC session listed, with what the session said
// about it.
struct NvEncoderCodec {
  // "H264", "HEVC" or "AV1"; a GUID this program does not know is kept in its
  // "{xxxxxxxx-...}" text form rather than dropped.
  std::string codec;
  // The profile GUIDs the session listed for the codec, by name ("High", "Main10", ...),
  // unknown ones in GUID text form.
  std::vector<std::string> profiles;
  // NV_ENC_CAPS_SUPPORT_10BIT_ENCODE.
  bool supports_10bit = false;
  // NV_ENC_CAPS_WIDTH_MAX and NV_ENC_CAPS_HEIGHT_MAX.
  std::int32_t max_width = 0;
  std::int32_t max_height = 0;

  bool operator==(const NvEncoderCodec&) const = default;
};

// NvEncoderFacts is what NVENC said, or why it could not be asked.
struct NvEncoderFacts {
  // Whether an encode session could be opened on the GPU and its codecs read.
  bool available = false;
  // Why not, naming the call and its status, such as "NvEncOpenEncodeSessionEx failed:
  // NV_ENC_ERR_NO_ENCODE_DEVICE (1)" or "cannot load libnvidia-encode.so.1". Empty when
  // available.
  std::string unavailable_reason;
  // The NVENCSTATUS with which NvEncOpenEncodeSessionEx refused a session; 0 when it opened
  // one or was never reached. Kept as a number so that a capture can be replayed exactly.
  std::int32_t open_status = 0;
  // NvEncodeAPIGetMaxSupportedVersion, as "major.minor"; empty when the library was absent.
  std::string max_api_version;
  std::vector<NvEncoderCodec> codecs;

  bool operator==(const NvEncoderFacts&) const = default;
};

// NvSessionCount is the outcome of the session-slot test (docs/probe/nvidia.md): how many encode
// sessions opened at once on this GPU before one was refused, and what refused it.
struct NvSessionCount {
  std::int32_t opened = 0;
  // The refusal, in the same words as NvEncoderFacts::unavailable_reason, or a note that
  // the test stopped at its own limit.
  std::string stopped_by;

  bool operator==(const NvSessionCount&) const = default;
};

struct NvidiaFacts {
  // nvmlSystemGetDriverVersion, such as "580.159.04"; empty when NVML could not say (a
  // warning then says why).
  std::string driver_version;
  // cuDriverGetVersion, such as 13000 for CUDA 13.0.
  std::int32_t cuda_driver_version = 0;
  // cuDeviceGetName, such as "NVIDIA H200".
  std::string name;
  // The device's PCI address from CUDA's domain, bus and device attributes, canonical.
  std::string pci_address;
  // The device's place in CUDA's enumeration as the query's process saw it (ffmpeg's -gpu N
  // when run with the same CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES); absent in records
  // made before the query reported it.
  std::optional<std::int32_t> cuda_ordinal;
  // cuDeviceComputeCapability as "major.minor", such as "9.0".
  std::string compute_capability;
  // Whether cuCtxCreate gave a context; decode caps, NVENC and CUDA scaling all need one.
  bool cuda_context = false;
  std::vector<NvDecoderCaps> decoders;
  NvEncoderFacts encoder;
  // Present only when the query ran the session-slot test.
  std::optional<NvSessionCount> sessions;
  // Calls that failed without making the whole answer wrong (NVML, say); the agent logs
  // them so that a partial answer is never mistaken for a whole one.
  std::vector<std::string> warnings;

  bool operator==(const NvidiaFacts&) const = default;
};

}  // namespace mc::probe
