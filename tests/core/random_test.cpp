// The engine's generator is PCG32; its published reference output pins it.
#include <catch2/catch.hpp>

#include "../../core/src/random.hpp"

using namespace retrylab;

TEST_CASE("PCG32 seeded (42, 54) gives the reference demo's first outputs", "[random]") {
    // pcg32-demo from the PCG reference implementation (pcg-c-basic), round 1.
    Pcg32 rng(42, 54);
    const std::uint32_t expected[] = {0xa15c02b7, 0x7b47f409, 0xba1d3330, 0x83d2f293, 0xbfa4784b, 0xcbed606e};
    for (std::uint32_t want : expected) CHECK(rng.next() == want);
}

TEST_CASE("a unit draw is 53 bits from two outputs and stays in [0, 1)", "[random]") {
    Pcg32 rng(42, 54);
    // (0xa15c02b7 >> 5) · 2^26 + (0x7b47f409 >> 6), over 2^53.
    double expected = static_cast<double>((std::uint64_t{0xa15c02b7} >> 5 << 26) | (std::uint64_t{0x7b47f409} >> 6)) /
                      9007199254740992.0;
    CHECK(rng.nextUnit() == expected);
    for (int i = 0; i < 100000; ++i) {
        double d = rng.nextUnit();
        REQUIRE(d >= 0);
        REQUIRE(d < 1);
    }
}

TEST_CASE("the draw stream takes the list first, then the generator seeded with seed", "[random][draws]") {
    std::vector<double> list = {0.25, 0.75};
    DrawStream stream(list, 42);
    CHECK(stream.next() == 0.25);
    CHECK(stream.next() == 0.75);
    Pcg32 rng(42, 54);
    CHECK(stream.next() == rng.nextUnit());
}
