// The engine's own generator, used for jittered waits once the `draws` list runs out.
// PCG32 (O'Neill's pcg32, XSH-RR 64/32, "pcg32_srandom_r(seed, 54)"): small, well known, and
// its published reference output pins it (tests/core/random_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

namespace retrylab {

class Pcg32 {
public:
    Pcg32(std::uint64_t initState, std::uint64_t initSequence);
    std::uint32_t next();
    // A draw in [0, 1): 53 random bits from two outputs.
    double nextUnit();

private:
    std::uint64_t state_ = 0;
    std::uint64_t increment_ = 0;
};

// The stream of draws a run uses: the `draws` list in order, then the generator seeded
// with `seed` (sequence 54).
class DrawStream {
public:
    DrawStream(const std::vector<double>& draws, std::uint64_t seed);
    double next();

private:
    const std::vector<double>& draws_;
    std::size_t used_ = 0;
    Pcg32 generator_;
};

}  // namespace retrylab
