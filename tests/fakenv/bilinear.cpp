#include "bilinear.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace fakenv {
namespace {

// Tap is one output coordinate's bilinear footprint along an axis: the two source texels and
// the second one's weight in 1/256ths. Texel centres sit at +0.5, and the edges are clamped as
// CUDA's default address mode does.
struct Tap {
  std::size_t first = 0;
  std::size_t second = 0;
  unsigned weight = 0;
};

std::vector<Tap> Taps(std::size_t source_size, int output_size) {
  std::vector<Tap> taps(static_cast<std::size_t>(output_size));
  const float step = static_cast<float>(source_size) / static_cast<float>(output_size);
  for (std::size_t i = 0; i < taps.size(); ++i) {
    const float position = std::max(0.0f, (static_cast<float>(i) + 0.5f) * step - 0.5f);
    const auto first = std::min(static_cast<std::size_t>(position), source_size - 1);
    taps[i] = {first, std::min(first + 1, source_size - 1),
               static_cast<unsigned>(std::lround((position - static_cast<float>(first)) * 256))};
  }
  return taps;
}

}  // namespace

void ResizeBilinear(const Plane& in, std::uint8_t* out, int width, int height, int pitch,
                    unsigned channels, unsigned first_channel) {
  const std::vector<Tap> columns = Taps(in.width, width);
  const std::vector<Tap> rows = Taps(in.height, height);
  for (std::size_t y = 0; y < rows.size(); ++y) {
    const std::uint8_t* top = in.pixels + rows[y].first * in.pitch + first_channel;
    const std::uint8_t* bottom = in.pixels + rows[y].second * in.pitch + first_channel;
    const unsigned down = rows[y].weight;
    std::uint8_t* line = out + y * static_cast<std::size_t>(pitch);
    for (std::size_t x = 0; x < columns.size(); ++x) {
      const std::size_t left = columns[x].first * in.channels;
      const std::size_t right = columns[x].second * in.channels;
      const unsigned across = columns[x].weight;
      for (unsigned c = 0; c < channels; ++c) {
        const unsigned upper = top[left + c] * (256 - across) + top[right + c] * across;
        const unsigned lower = bottom[left + c] * (256 - across) + bottom[right + c] * across;
        line[x * channels + c] =
            static_cast<std::uint8_t>((upper * (256 - down) + lower * down + 32768) >> 16);
      }
    }
  }
}

}  // namespace fakenv
