// A main for fuzz targets built without libFuzzer: it feeds every file of the corpus
// directories given on the command line to LLVMFuzzerTestOneInput once, so the corpus is
// a regression test in every build, including the sanitizer build.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
  std::size_t inputs = 0;
  for (int i = 1; i < argc; ++i) {
    std::error_code error;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(argv[i], error)) {
      if (!entry.is_regular_file()) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      const std::vector<char> bytes{std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>()};
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++inputs;
    }
    if (error) {
      std::fprintf(stderr, "fuzz replay: cannot read %s: %s\n", argv[i], error.message().c_str());
      return 1;
    }
  }
  std::printf("fuzz replay: %zu inputs, no crash\n", inputs);
  return inputs > 0 ? 0 : 1;
}
