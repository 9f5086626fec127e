#include "probe/nvidia/nvenc_query.h"

#include <dlfcn.h>

#include <algorithm>
#include <string>
#include <vector>

#include "probe/nvidia/nvenc_names.h"

namespace mc::probe {
namespace {

// An NVENC API version as NvEncodeAPIGetMaxSupportedVersion writes it: major << 4 | minor.
struct ApiVersion {
  std::uint32_t major;
  std::uint32_t minor;

  // NVENCAPI_VERSION for this version, and NVENCAPI_STRUCT_VERSION(ver).
  std::uint32_t Value() const { return major | (minor << 24); }
  std::uint32_t Struct(std::uint32_t version) const {
    return Value() | (version << 16) | (0x7u << 28);
  }
};

// The versions this program speaks. 12.0 is preferred: it is the first that may show a client the
// AV1 codec. The structures used here have the same layout in 11.1 and 12.0. They are the function
// list, the session parameters and the caps parameter. So the 11.1 headers serve both. A driver
// older than 12.0 is spoken to in 11.1.
constexpr ApiVersion kPreferredApi{12, 0};
constexpr ApiVersion kOldestApi{NVENCAPI_MAJOR_VERSION, NVENCAPI_MINOR_VERSION};

// Nvenc holds the loaded library and one API instance. It frees the library when done.
class Nvenc {
 public:
  ~Nvenc() { nvenc_free_functions(&functions_); }

  // Open loads the library and creates the API instance. On failure it says why.
  bool Open(NvEncoderFacts& facts) {
    std::string log;
    if (nvenc_load_functions(&functions_, &log) != 0) {
      const char* detail = dlerror();
      facts.unavailable_reason = log.empty() ? "cannot load libnvidia-encode.so.1" : log;
      if (detail) facts.unavailable_reason += std::string(" (") + detail + ")";
      return false;
    }
    std::uint32_t max = 0;
    if (NVENCSTATUS status = functions_->NvEncodeAPIGetMaxSupportedVersion(&max);
        status != NV_ENC_SUCCESS) {
      facts.unavailable_reason = NvEncCallError("NvEncodeAPIGetMaxSupportedVersion", status);
      return false;
    }
    const ApiVersion driver{max >> 4, max & 0xF};
    facts.max_api_version = std::to_string(driver.major) + "." + std::to_string(driver.minor);
    auto at_least = [&](const ApiVersion& v) {
      return driver.major > v.major || (driver.major == v.major && driver.minor >= v.minor);
    };
    if (!at_least(kOldestApi)) {
      facts.unavailable_reason = "the driver's NVENC API " + facts.max_api_version +
                                 " is older than 11.1, the oldest this program speaks";
      return false;
    }
    api_ = at_least(kPreferredApi) ? kPreferredApi : kOldestApi;
    list_.version = api_.Struct(2);
    if (NVENCSTATUS status = functions_->NvEncodeAPICreateInstance(&list_);
        status != NV_ENC_SUCCESS) {
      facts.unavailable_reason = NvEncCallError("NvEncodeAPICreateInstance", status);
      return false;
    }
    if (!list_.nvEncOpenEncodeSessionEx || !list_.nvEncDestroyEncoder) {
      facts.unavailable_reason = "NvEncodeAPICreateInstance gave no NvEncOpenEncodeSessionEx";
      return false;
    }
    return true;
  }

  // OpenSession opens one session on the CUDA context. On refusal: nullptr and the status.
  void* OpenSession(CUcontext context, NVENCSTATUS& status) {
    NV_ENC_OPEN_ENCODE_SESSION_EX_PARAMS params{};
    params.version = api_.Struct(1);
    params.deviceType = NV_ENC_DEVICE_TYPE_CUDA;
    params.device = context;
    params.apiVersion = api_.Value();
    void* encoder = nullptr;
    status = list_.nvEncOpenEncodeSessionEx(&params, &encoder);
    if (status != NV_ENC_SUCCESS) {
      // A refused open may still give a handle. The SDK's samples destroy it.
      if (encoder) list_.nvEncDestroyEncoder(encoder);
      return nullptr;
    }
    return encoder;
  }

  void CloseSession(void* encoder) { list_.nvEncDestroyEncoder(encoder); }

  // ReadCodecs fills the codecs the session lists. On failure it names the call.
  bool ReadCodecs(void* encoder, NvEncoderFacts& facts) {
    std::vector<GUID> codecs;
    if (!ReadGuids(
            facts, "NvEncGetEncodeGUIDs", codecs,
            [&](std::uint32_t* count) { return list_.nvEncGetEncodeGUIDCount(encoder, count); },
            [&](GUID* guids, std::uint32_t size, std::uint32_t* count) {
              return list_.nvEncGetEncodeGUIDs(encoder, guids, size, count);
            })) {
      return false;
    }
    for (const GUID& guid : codecs) {
      NvEncoderCodec codec;
      codec.codec = NvEncCodecName(guid);
      std::vector<GUID> profiles;
      if (!ReadGuids(
              facts, "NvEncGetEncodeProfileGUIDs", profiles,
              [&](std::uint32_t* count) {
                return list_.nvEncGetEncodeProfileGUIDCount(encoder, guid, count);
              },
              [&](GUID* guids, std::uint32_t size, std::uint32_t* count) {
                return list_.nvEncGetEncodeProfileGUIDs(encoder, guid, guids, size, count);
              })) {
        return false;
      }
      for (const GUID& profile : profiles) codec.profiles.push_back(NvEncProfileName(profile));
      int value = 0;
      if (!ReadCap(encoder, guid, NV_ENC_CAPS_SUPPORT_10BIT_ENCODE,
                   "NV_ENC_CAPS_SUPPORT_10BIT_ENCODE", value, facts)) {
        return false;
      }
      codec.supports_10bit = value != 0;
      if (!ReadCap(encoder, guid, NV_ENC_CAPS_WIDTH_MAX, "NV_ENC_CAPS_WIDTH_MAX", codec.max_width,
                   facts) ||
          !ReadCap(encoder, guid, NV_ENC_CAPS_HEIGHT_MAX, "NV_ENC_CAPS_HEIGHT_MAX",
                   codec.max_height, facts)) {
        return false;
      }
      facts.codecs.push_back(std::move(codec));
    }
    return true;
  }

 private:
  template <typename Count, typename List>
  bool ReadGuids(NvEncoderFacts& facts, const char* call, std::vector<GUID>& out, Count count_of,
                 List list_of) {
    std::uint32_t count = 0;
    if (NVENCSTATUS status = count_of(&count); status != NV_ENC_SUCCESS) {
      facts.unavailable_reason = NvEncCallError((std::string(call) + " (count)").c_str(), status);
      return false;
    }
    out.resize(count);
    std::uint32_t listed = 0;
    if (count > 0) {
      if (NVENCSTATUS status = list_of(out.data(), count, &listed); status != NV_ENC_SUCCESS) {
        facts.unavailable_reason = NvEncCallError(call, status);
        return false;
      }
    }
    out.resize(std::min(listed, count));
    return true;
  }

  bool ReadCap(void* encoder, GUID codec, NV_ENC_CAPS cap, const char* name, int& value,
               NvEncoderFacts& facts) {
    NV_ENC_CAPS_PARAM param{};
    param.version = api_.Struct(1);
    param.capsToQuery = cap;
    if (NVENCSTATUS status = list_.nvEncGetEncodeCaps(encoder, codec, &param, &value);
        status != NV_ENC_SUCCESS) {
      facts.unavailable_reason =
          NvEncCallError((std::string("NvEncGetEncodeCaps(") + name + ")").c_str(), status);
      return false;
    }
    return true;
  }

  NvencFunctions* functions_ = nullptr;
  NV_ENCODE_API_FUNCTION_LIST list_{};
  ApiVersion api_ = kOldestApi;
};

}  // namespace

NvEncoderFacts QueryEncoder(CUcontext context) {
  NvEncoderFacts facts;
  Nvenc nvenc;
  if (!nvenc.Open(facts)) return facts;
  NVENCSTATUS status = NV_ENC_SUCCESS;
  void* encoder = nvenc.OpenSession(context, status);
  if (!encoder) {
    facts.unavailable_reason = NvEncCallError("NvEncOpenEncodeSessionEx", status);
    facts.open_status = static_cast<std::int32_t>(status);
    return facts;
  }
  const bool read = nvenc.ReadCodecs(encoder, facts);
  nvenc.CloseSession(encoder);
  if (!read) {
    // A half-read encoder is no encoder. Every encode capability is then false.
    facts.codecs.clear();
    return facts;
  }
  facts.available = true;
  return facts;
}

NvSessionCount CountEncodeSessions(CUcontext context) {
  NvSessionCount count;
  NvEncoderFacts facts;
  Nvenc nvenc;
  if (!nvenc.Open(facts)) {
    count.stopped_by = facts.unavailable_reason;
    return count;
  }
  std::vector<void*> sessions;
  while (static_cast<int>(sessions.size()) < kMaxMeasuredSessions) {
    NVENCSTATUS status = NV_ENC_SUCCESS;
    void* encoder = nvenc.OpenSession(context, status);
    if (!encoder) {
      count.stopped_by = NvEncCallError("NvEncOpenEncodeSessionEx", status);
      break;
    }
    sessions.push_back(encoder);
  }
  if (count.stopped_by.empty()) {
    count.stopped_by =
        "the test's own limit of " + std::to_string(kMaxMeasuredSessions) + " sessions";
  }
  count.opened = static_cast<std::int32_t>(sessions.size());
  for (void* encoder : sessions) nvenc.CloseSession(encoder);
  return count;
}

}  // namespace mc::probe
