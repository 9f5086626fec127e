// NvmlListFrom: how the worker reads one of NVML's lists (encoder sessions, process samples).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace mc::worker {

// NVML's answers that the list reader acts on (nvmlReturn_t).
inline constexpr int kNvmlSuccess = 0;
inline constexpr int kNvmlInsufficientSize = 7;

// NvmlListFrom reads a list NVML's way: a sizing call, then a fill. The list may grow between the
// two: another process opens an encode session, or a sample lands. A fill answered with
// INSUFFICIENT_SIZE is asked again a few times. It asks with the count the driver gave and some
// headroom. Then the answer is passed on. `call(buffer, &count)` is one NVML call; a null buffer
// sizes. The last call's answer comes back, and `items` holds what it filled.
template <typename Item, typename Call>
int NvmlListFrom(Call call, std::vector<Item>& items) {
  constexpr int kFills = 4;
  constexpr unsigned int kHeadroom = 8;
  items.clear();
  unsigned int count = 0;
  int result = call(static_cast<Item*>(nullptr), &count);
  if (result != kNvmlSuccess && result != kNvmlInsufficientSize) return result;
  for (int fill = 0; fill < kFills; ++fill) {
    items.assign(count + kHeadroom, Item{});
    count = static_cast<unsigned int>(items.size());
    result = call(items.data(), &count);
    if (result != kNvmlInsufficientSize) break;
  }
  items.resize(result == kNvmlSuccess ? std::min<std::size_t>(count, items.size()) : 0);
  return result;
}

}  // namespace mc::worker
