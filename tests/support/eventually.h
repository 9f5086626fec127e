// Eventually waits for something another thread or process does: it polls a check until the
// check holds or a time limit passes. A test asserts on its result, which says how long it
// waited when the check never held.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace mc::testing {

struct Polling {
  std::chrono::milliseconds timeout = std::chrono::seconds(10);
  // The pause between two checks.
  std::chrono::milliseconds every = std::chrono::milliseconds(20);
};

// Eventually calls `check` until it gives true or `polling.timeout` passes. It checks once
// more at the end, so a slow machine still gets its last look.
template <typename Check>
::testing::AssertionResult Eventually(Check check, Polling polling = {}) {
  const auto deadline = std::chrono::steady_clock::now() + polling.timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (check()) return ::testing::AssertionSuccess();
    std::this_thread::sleep_for(polling.every);
  }
  if (check()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "it did not happen within " << polling.timeout.count() << " ms";
}

}  // namespace mc::testing
