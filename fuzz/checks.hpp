// The checks the fuzz target makes on every input (engine_fuzzer.cpp). Each one aborts with a
// message on stderr when the engine breaks its contract, so libFuzzer reports the input.
#pragma once

#include <string>

#include "retrylab/value.hpp"

namespace retrylab::fuzz {

// A parse failure: a short message naming the byte (SPEC §8).
void checkParseError(const std::string& error);

// compute(inputs): deterministic, the same after a JSON round trip, the echo of its inputs
// reproduces it; an { ok: false } names its fields; an { ok: true } run keeps issue 8's
// invariants (charges and replays at most the attempts, events in time order, every attempt
// inside the deadline, waits finite and >= 0, the outcome the last attempt's, ...).
void checkCompute(const Value& inputs);

// sweep(request): deterministic; its points are what compute() gives at each value, and
// every boundary sits between the two points it separates and behaves as the later one.
void checkSweep(const Value& request);

// fleet(request) (FLEET.md): deterministic, its echo reproduces it, an { ok: false } names
// its fields; a valid request small enough to run quickly is also run with its trace and
// checked: events in time order, every request ended exactly once, counts that add up (the
// totals, the bins, the end reasons), no NaN or infinity anywhere; occ runs write once per
// client that reached its write. Larger valid requests are only validated (a fuzz input
// must finish in well under a second).
void checkFleet(const Value& request);

}  // namespace retrylab::fuzz
