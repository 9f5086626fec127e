// The real inputs and the real devices the tests plan for: small media files made at test
// time by Debian's ffmpeg, with what Debian's ffprobe says of them, and the device of every
// fixture GPU as the real binary probes it on the fake machines.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "worker/transcode/input_facts.h"
#include "worker/transcode/plan_device.h"

namespace mc::worker::testing {

struct TestInput {
  std::string name;  // "h264", "hevc10", "vp9", "vp9-profile2", "png", "aac"
  std::filesystem::path file;
  std::string ffprobe_json;
  InputFacts facts;
};

// TestInputs makes the inputs once per test process; a failure to make one fails the test
// that asked (an empty list).
const std::vector<TestInput>& TestInputs();
const TestInput& TestInputNamed(const std::string& name);

struct FixtureDevice {
  std::string fixture;  // the record's or dump's file name without its extension
  bool nvidia = false;  // a tests/fakenv record, else a tests/fakeva dump
  std::filesystem::path source;
  std::string json;  // `probe --output json` on its fake machine
  PlanDevice device;
};

// FixtureDevices probes every record of tests/fakenv/records and every dump of
// tests/fakeva/dumps, once per test process.
const std::vector<FixtureDevice>& FixtureDevices();

// FixtureNamed probes one fixture, "ada-geforce-rtx4090" or "intel-ihd-dg1-gen12-24.1", and
// FixtureDeviceNamed gives its device: a test that needs one GPU waits for that one alone.
const FixtureDevice& FixtureNamed(const std::string& fixture);
const PlanDevice& FixtureDeviceNamed(const std::string& fixture);

// Ffprobe gives Debian's ffprobe's JSON of a file.
std::string Ffprobe(const std::filesystem::path& file);

// The directory the test process writes into.
const std::filesystem::path& ScratchDir();

}  // namespace mc::worker::testing
