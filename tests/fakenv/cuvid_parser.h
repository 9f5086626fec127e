// VideoParser is the NVDEC parser fake (cuvidCreateVideoParser).
// It hands the stream's packets to a decoding engine process.
// For each picture back, it calls the client's callbacks as NVIDIA's parser does:
//  - "sequence", when the format is first known or changes;
//  - then "decode" and "display", in display order.
// While the client's decode callback runs, the picture waits in a handoff.
// cuvidDecodePicture takes it from there into the decoder's surface.
#pragma once

#include <ffnvcodec/dynlink_cuda.h>
#include <ffnvcodec/dynlink_nvcuvid.h>

#include <cstdint>
#include <memory>
#include <string>

#include "engine_client.h"
#include "engine_decoder.h"
#include "fakenv_state.h"

namespace fakenv {

// The picture the parser is handing over, for cuvidDecodePicture on the same thread.
struct Handoff {
  const wire::UnitHeader* unit = nullptr;
  const std::byte* nv12 = nullptr;
  // Set while the client's sequence callback runs.
  // That is the only place a decoder fed by this parser is created.
  // So cuvidCreateDecoder outside it comes from a client with its own parser.
  // That is libavcodec's NVDEC hwaccel; the fake cannot decode its parsed pictures.
  bool in_sequence_callback = false;
};
Handoff& CurrentHandoff();

class VideoParser {
 public:
  // Create starts the engine on GPU `device` (the machine's index), whose NVML shows the
  // parser's work; nullptr, with the CUresult in `*result`, when it cannot.
  static std::unique_ptr<VideoParser> Create(const CUVIDPARSERPARAMS& params, int device,
                                             CUresult* result);
  CUresult Parse(const CUVIDSOURCEDATAPACKET& packet);

 private:
  VideoParser(const CUVIDPARSERPARAMS& params, std::unique_ptr<OwnedClient> client,
              std::unique_ptr<EngineClient> engine);
  CUresult Exchange(wire::Request request, std::span<const std::byte> body,
                    std::span<const std::byte> bytes);
  bool Deliver(const wire::UnitHeader& unit, const std::byte* nv12);

  CUVIDPARSERPARAMS params_;
  std::unique_ptr<OwnedClient> client_;
  std::unique_ptr<EngineClient> engine_;
  std::uint32_t width_ = 0;
  std::uint32_t height_ = 0;
  int next_surface_ = 0;
};

}  // namespace fakenv
