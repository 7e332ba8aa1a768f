// What both native benchmark programs (native.cpp, fleet_native.cpp) need: the heap they use,
// counted (support.cpp replaces operator new and delete for the whole program), JSON as the
// core's Value, and a clock.
#pragma once

#include <chrono>
#include <cstddef>

#include <nlohmann/json.hpp>

#include "retrylab/value.hpp"

namespace bench {

using Clock = std::chrono::steady_clock;

// Bytes operator new has handed out and not had back, and the most of them at once since a
// caller last set peakBytes (set it to liveBytes before the call to measure).
extern std::size_t liveBytes;
extern std::size_t peakBytes;

retrylab::Value toValue(const nlohmann::json& j);

double msSince(Clock::time_point start);

}  // namespace bench
