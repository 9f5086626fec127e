#include "probe/capabilities/attribute_reference.h"

#include <gtest/gtest.h>

#include "probe/capabilities/capability_table.h"
#include "support/temp_dir.h"

namespace mc::probe {
namespace {

TEST(AttributeReference, TheCommittedReferenceIsTheOneTheTableGenerates) {
  EXPECT_EQ(testing::ReadFile(MEDIA_CAP_ATTRIBUTE_REFERENCE), AttributeReferenceMarkdown())
      << "docs/reference/attributes.md is stale: run `make docs`";
}

TEST(AttributeReference, EveryCapabilityHasARowWithItsRule) {
  const std::string reference = AttributeReferenceMarkdown();
  EXPECT_NE(reference.find("| `decodeH264` | `VAProfileH264High` with `VLD` | "),
            std::string::npos);
  EXPECT_NE(
      reference.find(
          "| `decodeAV1Main10` | `VAProfileAV1Profile0` with `VLD` and the render-target format "
          "`YUV420_10` | "),
      std::string::npos);
  EXPECT_NE(
      reference.find(
          "| `scale10bit` | a video processor (`VAProfileNone` with `VideoProc`) that accepts "
          "`P010` surfaces | "),
      std::string::npos);
  for (const Capability& capability : kCapabilities) {
    EXPECT_NE(reference.find("| `" + std::string(capability.name) + "` |"), std::string::npos)
        << capability.name;
  }
}

}  // namespace
}  // namespace mc::probe
