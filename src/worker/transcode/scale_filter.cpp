#include "worker/transcode/scale_filter.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "common/base/text.h"

namespace mc::worker {
namespace {

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// Evaluate gives the value of an expression of the input's size. 0 where it is not one of the forms
// the runner writes.
int Evaluate(std::string_view expression, PictureSize input) {
  if (const std::optional<int> number = ParseInteger<int>(expression); number && *number > 0)
    return *number;
  if (expression == "iw") return input.width;
  if (expression == "ih") return input.height;
  if (expression == "trunc(iw/2)*2") return input.width / 2 * 2;
  if (expression == "trunc(ih/2)*2") return input.height / 2 * 2;
  return 0;
}

}  // namespace

Result<ScaleRequest> ParseScaleFilter(std::string_view filter) {
  if (filter.find_first_of(",;[") != std::string_view::npos) {
    return InvalidInput("the video filter \"" + std::string(filter) +
                        "\" is a chain; only one scale filter is translated");
  }
  const std::size_t equals = filter.find('=');
  const std::string_view name = filter.substr(0, equals);
  if (name != "scale") {
    return InvalidInput("the video filter \"" + std::string(name) +
                        "\" has no hardware mapping; only scale is translated");
  }
  ScaleRequest request;
  if (equals == std::string_view::npos) return request;
  const std::vector<std::string_view> arguments = Split(filter.substr(equals + 1), ':');
  std::size_t positional = 0;
  for (std::string_view argument : arguments) {
    const std::size_t key_end = argument.find('=');
    std::string_view key;
    std::string_view value = argument;
    if (key_end != std::string_view::npos) {
      key = argument.substr(0, key_end);
      value = argument.substr(key_end + 1);
    } else {
      key = positional == 0 ? "w" : positional == 1 ? "h" : "";
      ++positional;
    }
    if (value.empty()) {
      return InvalidInput("the scale filter \"" + std::string(filter) + "\" has an empty value");
    }
    if (key == "w" || key == "width") {
      request.width = std::string(value);
    } else if (key == "h" || key == "height") {
      request.height = std::string(value);
    } else {
      return InvalidInput("the scale filter's option \"" + std::string(argument) +
                          "\" has no hardware mapping; only w and h are translated");
    }
  }
  return request;
}

PictureSize OutputSizeOf(const ScaleRequest& scale, PictureSize input) {
  PictureSize output{Evaluate(scale.width, input), Evaluate(scale.height, input)};
  const std::optional<int> width_number = ParseInteger<int>(scale.width);
  const std::optional<int> height_number = ParseInteger<int>(scale.height);
  // -n keeps the aspect ratio and rounds to a multiple of n, as ff_scale_eval_dimensions does.
  // av_rescale rounds to the nearest. The input's size is what the upload states. An aspect such as
  // 1048576x1 scaled to a height of 4320 asks for a width past an int. That saturates at the
  // largest multiple of n an int holds. So the encoder's size check refuses it whole. An overflow
  // would wrap it into a plausible size instead.
  const auto keep_aspect = [](int other, int in_other, int in_this, std::int64_t divisor) {
    if (in_other <= 0 || in_this <= 0 || other <= 0 || divisor <= 0) return 0;
    const double exact = static_cast<double>(other) * in_this / in_other / divisor;
    const std::int64_t most = std::numeric_limits<int>::max() / divisor;
    const double rounded = std::min(std::round(exact), static_cast<double>(most));
    return static_cast<int>(static_cast<std::int64_t>(rounded) * divisor);
  };
  // The divisor is the number's negation, taken in 64 bits. -n of INT_MIN has no int.
  if (width_number && *width_number < 0 && output.height > 0) {
    output.width = keep_aspect(output.height, input.height, input.width,
                               -static_cast<std::int64_t>(*width_number));
  }
  if (height_number && *height_number < 0 && output.width > 0) {
    output.height = keep_aspect(output.width, input.width, input.height,
                                -static_cast<std::int64_t>(*height_number));
  }
  return output;
}

}  // namespace mc::worker
