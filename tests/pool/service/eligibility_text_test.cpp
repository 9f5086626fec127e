// The eligibility text of every class mask, read back by the worker's own parser and checked
// against the worker's own filter on jobs that the pool's own classifier sorts.
#include "pool/service/eligibility_text.h"

#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "pool/policy/job_class.h"
#include "worker/gate/eligibility.h"

namespace mc::pool {
namespace {

using pool::Bit;
using pool::ClassMask;
using pool::JobClass;

constexpr ClassMask kS = Bit(JobClass::kS);
constexpr ClassMask kM = Bit(JobClass::kM);
constexpr ClassMask kL = Bit(JobClass::kL);
constexpr ClassMask kXL = Bit(JobClass::kXL);

// The whole table, for the default bounds (S up to 1080, M up to 1440): a text, or none for
// a mask the gate cannot carry.
struct Row {
  ClassMask mask;
  std::optional<std::string> text;
};
const std::vector<Row> kTable = {
    {0, std::nullopt},
    {kS, "max-resolution=1080"},
    {kM, std::nullopt},
    {kS | kM, "max-resolution=1440"},
    {kL, std::nullopt},
    {kS | kL, std::nullopt},
    {kM | kL, std::nullopt},
    {kS | kM | kL, std::nullopt},
    {kXL, std::nullopt},
    {kS | kXL, std::nullopt},
    {kM | kXL, std::nullopt},
    {kS | kM | kXL, std::nullopt},
    {kL | kXL, std::nullopt},
    {kS | kL | kXL, std::nullopt},
    {kM | kL | kXL, std::nullopt},
    {kS | kM | kL | kXL, ""},
};

TEST(EligibilityText, EveryMaskGivesTheTablesTextOrIsUnsupported) {
  ASSERT_EQ(kTable.size(), 16u);
  for (const Row& row : kTable) {
    SCOPED_TRACE("classes " + ClassMaskText(row.mask));
    Result<std::string> text = EligibilityText(row.mask, pool::ClassBounds{});
    if (row.text) {
      ASSERT_TRUE(text) << text.error_message();
      EXPECT_EQ(*text, *row.text);
    } else {
      ASSERT_FALSE(text) << *text;
      EXPECT_TRUE(text.error().IsUnsupported()) << text.error_message();
    }
  }
}

TEST(EligibilityText, TheBoundsComeFromTheConfiguredClassBounds) {
  const pool::ClassBounds bounds{.small_max_height = 720, .medium_max_height = 1080};
  EXPECT_EQ(*EligibilityText(kS, bounds), "max-resolution=720");
  EXPECT_EQ(*EligibilityText(kS | kM, bounds), "max-resolution=1080");
  EXPECT_EQ(*EligibilityText(pool::kEveryClass, bounds), "");
}

TEST(EligibilityText, TheUnsupportedMessageNamesTheClassesItCouldNotClose) {
  // The policy's own shift of small jobs off an NVENC board near its session cap.
  Result<std::string> shift = EligibilityText(kL | kXL, pool::ClassBounds{});
  ASSERT_FALSE(shift);
  EXPECT_NE(shift.error_message().find("open L+XL and close S+M"), std::string::npos)
      << shift.error_message();
  Result<std::string> no_xl = EligibilityText(kS | kM | kL, pool::ClassBounds{});
  ASSERT_FALSE(no_xl);
  EXPECT_NE(no_xl.error_message().find("close XL"), std::string::npos) << no_xl.error_message();
  Result<std::string> medium_only = EligibilityText(kM, pool::ClassBounds{});
  ASSERT_FALSE(medium_only);
  EXPECT_NE(medium_only.error_message().find("fits under 1440 lines"), std::string::npos)
      << medium_only.error_message();
  Result<std::string> none = EligibilityText(0, pool::ClassBounds{});
  ASSERT_FALSE(none);
  EXPECT_NE(none.error_message().find("drain the worker instead"), std::string::npos)
      << none.error_message();
}

TEST(EligibilityText, EveryTextIsReadByTheWorkersOwnParser) {
  for (const pool::ClassBounds& bounds :
       {pool::ClassBounds{}, pool::ClassBounds{.small_max_height = 720, .medium_max_height = 1080},
        pool::ClassBounds{.small_max_height = 1440, .medium_max_height = 1080}}) {
    for (unsigned mask = 0; mask < 16; ++mask) {
      Result<std::string> text = EligibilityText(static_cast<ClassMask>(mask), bounds);
      if (!text) continue;
      SCOPED_TRACE("classes " + ClassMaskText(static_cast<ClassMask>(mask)) + ": \"" + *text +
                   "\"");
      Result<worker::Eligibility> parsed = worker::ParseEligibility(*text);
      ASSERT_TRUE(parsed) << parsed.error_message();
      EXPECT_TRUE(parsed->job_types.empty());
      EXPECT_FALSE(parsed->max_fps);
      // What the worker writes back of it is the same text.
      EXPECT_EQ(worker::EligibilityText(*parsed), *text);
    }
  }
}

TEST(EligibilityText, AMisconfiguredBoundIsInvalidInputRatherThanATextTheWorkerRefuses) {
  Result<std::string> text =
      EligibilityText(kS, pool::ClassBounds{.small_max_height = 0, .medium_max_height = 0});
  ASSERT_FALSE(text);
  EXPECT_TRUE(text.error().IsInvalidInput()) << text.error_message();
}

// A grid of the jobs PeerTube hands out: each classified by the pool, each offered to the
// worker's gate as its payload states it (the output's resolution and fps only).
struct GridJob {
  JobClass job_class;
  peertube::AvailableJob offer;
};

std::vector<GridJob> JobGrid(const pool::ClassBounds& bounds) {
  const int heights[] = {0, 144, 240, 360, 480, 720, 1080, 1440, 2160, 4320};
  const int sources[] = {0, 720, 1080, 1440, 2160};
  const double fps[] = {24, 30, 50, 60};
  const pool::Duration durations[] = {pool::Minutes(1), pool::Minutes(10), pool::Minutes(45)};
  std::vector<GridJob> grid;
  for (int height : heights) {
    for (int source : sources) {
      for (double rate : fps) {
        for (pool::Duration duration : durations) {
          const pool::JobShape shape{.resolution = height,
                                     .source_resolution = source,
                                     .fps = static_cast<int>(rate),
                                     .duration = duration};
          grid.push_back(
              {pool::ClassifyJob(shape, bounds),
               {.type = std::string(peertube::kHlsJob), .resolution = height, .fps = rate}});
        }
      }
    }
  }
  return grid;
}

// Carried is what a gate does with the grid: whether it admits every job of the open classes,
// and which closed classes it holds back none of.
struct Carried {
  bool open_admitted = true;
  ClassMask closed_wholly_admitted = 0;
};

Carried Carry(const std::vector<GridJob>& grid, ClassMask open,
              const worker::Eligibility& eligibility) {
  Carried carried;
  ClassMask closed_refused = 0;
  ClassMask closed_seen = 0;
  for (const GridJob& job : grid) {
    const bool admitted = worker::Eligible(job.offer, eligibility);
    if ((open & Bit(job.job_class)) != 0) {
      carried.open_admitted = carried.open_admitted && admitted;
    } else {
      closed_seen |= Bit(job.job_class);
      if (!admitted) closed_refused |= Bit(job.job_class);
    }
  }
  carried.closed_wholly_admitted = closed_seen & ~closed_refused;
  return carried;
}

TEST(EligibilityText, TheWorkersGateAdmitsEveryJobOfAnOpenClassAndHoldsBackSomeOfEachClosedOne) {
  const pool::ClassBounds bounds;
  const std::vector<GridJob> grid = JobGrid(bounds);
  for (unsigned mask = 1; mask < 16; ++mask) {
    const ClassMask open = static_cast<ClassMask>(mask);
    Result<std::string> text = EligibilityText(open, bounds);
    if (!text) continue;
    SCOPED_TRACE("classes " + ClassMaskText(open) + ": \"" + *text + "\"");
    Result<worker::Eligibility> eligibility = worker::ParseEligibility(*text);
    ASSERT_TRUE(eligibility) << eligibility.error_message();
    const Carried carried = Carry(grid, open, *eligibility);
    EXPECT_TRUE(carried.open_admitted);
    EXPECT_EQ(carried.closed_wholly_admitted, 0) << ClassMaskText(carried.closed_wholly_admitted);
  }
}

TEST(EligibilityText, NoBoundOfTheWorkersGateCarriesAMaskThatIsUnsupported) {
  // Every bound the gate takes, as far as the grid can tell them apart: none of them admits
  // all of an unsupported mask's open classes and holds back some of each closed class.
  const pool::ClassBounds bounds;
  const std::vector<GridJob> grid = JobGrid(bounds);
  std::vector<worker::Eligibility> gates;
  for (std::optional<int> resolution :
       {std::optional<int>(), std::optional<int>(1), std::optional<int>(144),
        std::optional<int>(720), std::optional<int>(1080), std::optional<int>(1440),
        std::optional<int>(2160), std::optional<int>(4320)}) {
    for (std::optional<double> fps :
         {std::optional<double>(), std::optional<double>(24), std::optional<double>(30),
          std::optional<double>(49.9), std::optional<double>(50), std::optional<double>(60)}) {
      gates.push_back({.max_resolution = resolution, .max_fps = fps});
    }
  }
  for (unsigned mask = 1; mask < 16; ++mask) {
    const ClassMask open = static_cast<ClassMask>(mask);
    if (EligibilityText(open, bounds)) continue;
    SCOPED_TRACE("classes " + ClassMaskText(open));
    for (const worker::Eligibility& gate : gates) {
      const Carried carried = Carry(grid, open, gate);
      EXPECT_FALSE(carried.open_admitted && carried.closed_wholly_admitted == 0)
          << "the gate \"" << worker::EligibilityText(gate) << "\" would carry it";
    }
  }
}

TEST(ClassMaskText, NamesTheClassesInOrder) {
  EXPECT_EQ(ClassMaskText(0), "none");
  EXPECT_EQ(ClassMaskText(kS | kXL), "S+XL");
  EXPECT_EQ(ClassMaskText(pool::kEveryClass), "S+M+L+XL");
}

}  // namespace
}  // namespace mc::pool
