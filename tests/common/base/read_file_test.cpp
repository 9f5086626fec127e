#include "common/base/read_file.h"

#include <gtest/gtest.h>

#include "support/temp_dir.h"

namespace mc {
namespace {

TEST(ReadFileText, ReadsTheWholeFileWithItsNulBytes) {
  testing::TempDir dir;
  const std::string content = std::string("a\0b\n", 4) + std::string(20000, 'x');
  Result<std::string> text = ReadFileText(dir.Write("file", content));
  ASSERT_TRUE(text) << text.error_message();
  EXPECT_EQ(*text, content);
}

TEST(ReadFileText, AMissingFileIsNotFoundNamingIt) {
  testing::TempDir dir;
  Result<std::string> text = ReadFileText(dir.path() / "absent");
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error_code(), ErrorCode::kNotFound);
  EXPECT_NE(text.error_message().find("absent: No such file or directory"), std::string::npos);
}

TEST(ReadFileText, ADirectoryIsRefusedAsOne) {
  testing::TempDir dir;
  Result<std::string> text = ReadFileText(dir.path());
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error_code(), ErrorCode::kInvalidInput);
  EXPECT_NE(text.error_message().find("is a directory"), std::string::npos);
}

// A read that fails after the open, as a /proc file of a process that has
// just ended does, is an error value and never an exception.
TEST(ReadFileText, AReadThatFailsAfterTheOpenIsAnErrorNotAnException) {
  // Offset 0 of a process's memory is never mapped: its read answers EIO.
  Result<std::string> text = ReadFileText("/proc/self/mem");
  ASSERT_FALSE(text);
  EXPECT_NE(text.error_message().find("/proc/self/mem: Input/output error"), std::string::npos)
      << text.error_message();
}

}  // namespace
}  // namespace mc
