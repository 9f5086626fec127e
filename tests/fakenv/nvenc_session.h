// EncodeSession is one NVENC session of the fake. It holds:
//  - its buffers;
//  - its registered CUDA resources;
//  - the engine that codes its pictures.
// nvEncEncodePicture hands a picture to the engine and waits for what it gives back.
// nvEncLockBitstream then returns that.
// The session never codes anything itself.
#pragma once

#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/nvEncodeAPI.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine_client.h"
#include "fakenv_state.h"

namespace fakenv {

class EncodeSession {
 public:
  explicit EncodeSession(std::unique_ptr<OwnedClient> client);
  ~EncodeSession();

  NVENCSTATUS Initialize(const NV_ENC_INITIALIZE_PARAMS* params);
  NVENCSTATUS CreateInputBuffer(NV_ENC_CREATE_INPUT_BUFFER* params);
  NVENCSTATUS DestroyInputBuffer(NV_ENC_INPUT_PTR buffer);
  NVENCSTATUS LockInputBuffer(NV_ENC_LOCK_INPUT_BUFFER* params);
  NVENCSTATUS UnlockInputBuffer(NV_ENC_INPUT_PTR buffer);
  NVENCSTATUS CreateBitstreamBuffer(NV_ENC_CREATE_BITSTREAM_BUFFER* params);
  NVENCSTATUS DestroyBitstreamBuffer(NV_ENC_OUTPUT_PTR buffer);
  NVENCSTATUS RegisterResource(NV_ENC_REGISTER_RESOURCE* params);
  NVENCSTATUS UnregisterResource(NV_ENC_REGISTERED_PTR resource);
  NVENCSTATUS MapInputResource(NV_ENC_MAP_INPUT_RESOURCE* params);
  NVENCSTATUS UnmapInputResource(NV_ENC_INPUT_PTR mapped);
  NVENCSTATUS EncodePicture(const NV_ENC_PIC_PARAMS* params);
  NVENCSTATUS LockBitstream(NV_ENC_LOCK_BITSTREAM* params);
  NVENCSTATUS UnlockBitstream(NV_ENC_OUTPUT_PTR buffer);
  NVENCSTATUS GetSequenceParams(NV_ENC_SEQUENCE_PARAM_PAYLOAD* payload);
  const char* last_error() const { return last_error_.c_str(); }

 private:
  // A picture the engine can read: an input buffer's own memory, or a registered CUDA
  // allocation (the fake's device memory is host memory).
  struct Picture {
    wire::PixelFormat format = wire::PixelFormat::kNv12;
    std::uint32_t pitch = 0;
    std::uint32_t height = 0;
    const std::byte* pixels = nullptr;
    std::vector<std::byte> memory;
  };
  struct Bitstream {
    std::vector<std::byte> bytes;
    wire::UnitHeader unit;
    std::uint32_t frame_index = 0;
    bool ready = false;
  };
  struct Mapping {
    Picture* picture = nullptr;
  };

  NVENCSTATUS Fail(NVENCSTATUS status, std::string reason);
  NVENCSTATUS ReceiveUnits();
  void AccountMemory();
  Picture* FindInput(void* handle);

  std::unique_ptr<OwnedClient> client_;
  std::unique_ptr<EngineClient> engine_;
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
  std::uint32_t pictures_ = 0;
  std::map<void*, std::unique_ptr<Picture>> inputs_;
  std::map<void*, std::unique_ptr<Picture>> registered_;
  std::map<void*, std::unique_ptr<Mapping>> mapped_;
  std::map<void*, std::unique_ptr<Bitstream>> bitstreams_;
  // The output buffers of pictures handed to the engine whose bitstream has not come back.
  std::deque<Bitstream*> pending_;
  std::string last_error_;
};

// PresetConfig is what nvEncGetEncodePresetConfig(Ex) answers for every preset: one
// reference frame, no B-pictures, variable bitrate, which the engine codes as asked.
void FillPresetConfig(const GUID& codec, NV_ENC_PRESET_CONFIG* config);

}  // namespace fakenv
