// Checks every plan of a video encode must pass, whatever the form and the device.
#pragma once

#include <string>
#include <vector>

#include "worker/transcode/plan.h"
#include "worker/transcode/runner_command.h"

namespace mc::worker::testing {

// The options the plan writes in place of the runner's x264 ones; every other option of a
// translated output must be kept as written, in order.
bool IsTranslationOption(const std::string& name);

// KeptOptionsInOrder says, in words, where the planned argv lost or reordered a runner
// option that must be kept; empty when it kept them all.
std::string KeptOptionsInOrder(const RunnerCommand& runner,
                               const std::vector<std::string>& planned);

// SoftwareEncoderIn names a CPU video encoder the argv asks for, or gives "".
std::string SoftwareEncoderIn(const std::vector<std::string>& argv);

bool Holds(const std::vector<std::string>& argv, const std::string& word);
// HoldsPair says whether `name` is followed by `value` somewhere in argv.
bool HoldsPair(const std::vector<std::string>& argv, const std::string& name,
               const std::string& value);

}  // namespace mc::worker::testing
