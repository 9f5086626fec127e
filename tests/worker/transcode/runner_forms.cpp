#include "runner_forms.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace mc::worker::testing {

std::vector<std::string> SplitShellWords(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < line.size()) {
        word += line[++i];
      } else {
        word += c;
      }
      continue;
    }
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

std::vector<RunnerForm> RecordedForms(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> logs;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".log") logs.push_back(entry.path());
  }
  std::sort(logs.begin(), logs.end());
  std::vector<RunnerForm> forms;
  for (const std::filesystem::path& log : logs) {
    std::ifstream in(log);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      const std::vector<std::string> words = SplitShellWords(line);
      // EPOCH NAME key=value... cwd=DIR ARGV...
      if (words.size() < 2 || words[1] != "ffmpeg") continue;
      std::size_t first_arg = 2;
      while (first_arg < words.size() && !words[first_arg].starts_with("cwd=")) ++first_arg;
      RunnerForm form;
      form.name = log.filename().string() + ":" + std::to_string(number);
      form.source = "recorded";
      form.args.assign(
          words.begin() + static_cast<std::ptrdiff_t>(std::min(first_arg + 1, words.size())),
          words.end());
      forms.push_back(std::move(form));
    }
  }
  return forms;
}

std::vector<RunnerForm> SourceForms(const std::filesystem::path& file,
                                    const std::map<std::string, std::string>& files) {
  std::ifstream in(file);
  std::string line;
  std::vector<RunnerForm> forms;
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with("#")) continue;
    const std::size_t first = line.find(" | ");
    const std::size_t second = line.find(" | ", first + 3);
    if (first == std::string::npos || second == std::string::npos) continue;
    RunnerForm form;
    form.name = line.substr(0, first);
    form.source = line.substr(first + 3, second - first - 3);
    std::istringstream words(line.substr(second + 3));
    std::string word;
    while (words >> word) {
      for (const auto& [name, path] : files) {
        const std::string mark = "{" + name + "}";
        for (std::size_t at = word.find(mark); at != std::string::npos; at = word.find(mark)) {
          word.replace(at, mark.size(), path);
        }
      }
      form.args.push_back(word);
    }
    forms.push_back(std::move(form));
  }
  return forms;
}

}  // namespace mc::worker::testing
