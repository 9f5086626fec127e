// NvidiaFacts is what one NVIDIA GPU's driver stated, and nothing more. It stated it through CUDA,
// NVDEC (cuvid) and NVENC. These are the values the calls returned, before any rule reads them.
// Like VaFacts it is a plain value. So it crosses the process boundary as JSON, from the query
// child to the agent. And a capture on a real GPU can be replayed by tests/fakenv's fake
// libraries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mc::probe {

// How the NVIDIA query's failure begins for a GPU that CUDA does not enumerate.
// CUDA_VISIBLE_DEVICES or a container may hide it. Or it is bound to another driver. Such a GPU has
// no place in CUDA's order of devices. A GPU whose query failed after CUDA found it still counts.
// Examples: no room for a context, a query past its deadline.
inline constexpr std::string_view kNoCudaDeviceAt = "no CUDA device is at PCI address ";

// NvDecoderCaps is one cuvidGetDecoderCaps answer. It holds the question (codec, chroma format, bit
// depth) and the driver's answer.
struct NvDecoderCaps {
  // A cudaVideoCodec value, such as cudaVideoCodec_HEVC.
  std::int32_t codec = 0;
  // A cudaVideoChromaFormat value, such as cudaVideoChromaFormat_420.
  std::int32_t chroma = 1;
  std::int32_t bit_depth = 8;
  // bIsSupported.
  bool supported = false;
  // nNumNVDECs: how many decode engines can take this stream. 0 when not stated. Records written
  // from NVIDIA's support matrix do not state it.
  std::uint32_t engines = 0;
  std::uint32_t max_width = 0;
  std::uint32_t max_height = 0;
  // nOutputFormatMask: bit i set means the decoder can write cudaVideoSurfaceFormat i. The formats:
  // 0 NV12, 1 P016, 2 YUV444, 3 YUV444_16Bit.
  std::uint32_t output_formats = 0;

  bool operator==(const NvDecoderCaps&) const = default;
};

// NvEncoderCodec: one codec GUID an NVENC session listed, and what it said of it.
struct NvEncoderCodec {
  // "H264", "HEVC" or "AV1". An unknown GUID is kept, not dropped. It keeps its "{xxxxxxxx-...}"
  // text form.
  std::string codec;
  // The profile GUIDs the session listed for the codec, by name ("High", "Main10", ...). Unknown
  // ones are in GUID text form.
  std::vector<std::string> profiles;
  // NV_ENC_CAPS_SUPPORT_10BIT_ENCODE.
  bool supports_10bit = false;
  // NV_ENC_CAPS_WIDTH_MAX and NV_ENC_CAPS_HEIGHT_MAX.
  std::int32_t max_width = 0;
  std::int32_t max_height = 0;

  bool operator==(const NvEncoderCodec&) const = default;
};

// NvEncoderFacts: what NVENC said, or why it could not be asked.
struct NvEncoderFacts {
  // Whether an encode session opened on the GPU and its codecs were read.
  bool available = false;
  // Why not, naming the call and its status. Examples: "NvEncOpenEncodeSessionEx failed:
  // NV_ENC_ERR_NO_ENCODE_DEVICE (1)", "cannot load libnvidia-encode.so.1". Empty when available.
  std::string unavailable_reason;
  // The NVENCSTATUS with which NvEncOpenEncodeSessionEx refused a session. 0 when it opened one or
  // was never reached. Kept as a number, so a capture replays exactly.
  std::int32_t open_status = 0;
  // NvEncodeAPIGetMaxSupportedVersion, as "major.minor"; empty when the library was absent.
  std::string max_api_version;
  std::vector<NvEncoderCodec> codecs;

  bool operator==(const NvEncoderFacts&) const = default;
};

// NvSessionCount is the outcome of the session-slot test (docs/probe/nvidia.md). It holds how many
// encode sessions opened at once on this GPU before one was refused. It also holds what refused it.
struct NvSessionCount {
  std::int32_t opened = 0;
  // The refusal, in the words of NvEncoderFacts::unavailable_reason. Or a note that the test
  // stopped at its own limit.
  std::string stopped_by;

  bool operator==(const NvSessionCount&) const = default;
};

struct NvidiaFacts {
  // nvmlSystemGetDriverVersion, such as "580.159.04". Empty when NVML could not say; a warning then
  // says why.
  std::string driver_version;
  // cuDriverGetVersion, such as 13000 for CUDA 13.0.
  std::int32_t cuda_driver_version = 0;
  // cuDeviceGetName, such as "NVIDIA H200".
  std::string name;
  // The device's canonical PCI address, from CUDA's domain, bus and device attributes.
  std::string pci_address;
  // The device's place in CUDA's enumeration, as the query's process saw it. It is ffmpeg's -gpu N
  // under the same CUDA_DEVICE_ORDER and CUDA_VISIBLE_DEVICES. Absent in records made before the
  // query reported it.
  std::optional<std::int32_t> cuda_ordinal;
  // cuDeviceComputeCapability as "major.minor", such as "9.0".
  std::string compute_capability;
  // Whether cuCtxCreate gave a context. Decode caps, NVENC and CUDA scaling need one.
  bool cuda_context = false;
  std::vector<NvDecoderCaps> decoders;
  NvEncoderFacts encoder;
  // Present only when the query ran the session-slot test.
  std::optional<NvSessionCount> sessions;
  // Calls that failed without making the whole answer wrong, such as NVML's. The agent logs them.
  // So a partial answer is never taken for a whole one.
  std::vector<std::string> warnings;

  bool operator==(const NvidiaFacts&) const = default;
};

}  // namespace mc::probe
