// TempDir is a directory of a test's own.
// It is removed, with everything in it, when the test ends.
// So tests can lay out sysfs trees and render nodes without touching the host.
#pragma once

#include <filesystem>
#include <string>

namespace mc::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

  // Write creates `relative` (and its parent directories) holding `content`.
  std::filesystem::path Write(const std::string& relative, const std::string& content) const;
  // Link creates the symbolic link `relative` pointing at `target`.
  void Link(const std::string& relative, const std::string& target) const;

 private:
  std::filesystem::path path_;
};

std::string ReadFile(const std::filesystem::path& file);

}  // namespace mc::testing
