// FLEET.md §2: the addressed streams, the ln series and the four distributions, pinned by
// values worked out apart from the engine. Those not given in FLEET.md come from a ten-line
// Python transcription of §2's text (integers modulo 2^64, Python's IEEE doubles), e.g.
//   def mix(x): z = (x + G) & M; z = ((z ^ (z >> 30)) * M1) & M; z = ((z ^ (z >> 27)) * M2) & M; return z ^ (z >> 31)
//   def draw(k, i): return (mix((k + i * G) & M) >> 11) * 2.0 ** -53
//   def ln(x): m, e = math.frexp(x); ...; return e * 0.6931471805599453 + (2 * s) * q
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>

#include "streams.hpp"

using namespace retrylab::streams;

TEST_CASE("mix is SplitMix64's output step: mix(0) = 0xE220A8397B1DCDAF", "[fleet][streams]") {
    CHECK(mix(0) == 0xE220A8397B1DCDAFULL);  // FLEET.md §2
    CHECK(mix(1) == 0x910A2DEC89025CC1ULL);
    CHECK(mix(0xFFFFFFFFFFFFFFFFULL) == 0xE4D971771B652C20ULL);
}

TEST_CASE("a stream's key mixes the seed, the purpose and three ids in turn, a missing id being 0",
          "[fleet][streams]") {
    CHECK(streamKey(1, Arrival, 0) == 0x0B55DCAB4E1ED522ULL);
    CHECK(streamKey(1, Arrival, 0) == streamKey(1, Arrival, 0, 0, 0));
    CHECK(streamKey(1, Out, 3, 4, 5) == 0x90BB69B7166551DEULL);
    CHECK(streamKey(42, OccLeg, 7, 8, 3) == 0xD7B18F3FD425C521ULL);
    // The key's prefix can be kept: purpose, then each id.
    CHECK(step(step(step(purposeKey(1, Out), 3), 4), 5) == streamKey(1, Out, 3, 4, 5));
    // Every part of the address matters.
    CHECK(streamKey(1, Out, 3, 4, 5) != streamKey(1, Back, 3, 4, 5));
    CHECK(streamKey(1, Out, 3, 4, 5) != streamKey(1, Out, 4, 3, 5));
    CHECK(streamKey(2, Out, 3, 4, 5) != streamKey(1, Out, 3, 4, 5));
}

TEST_CASE("draw i of a stream is (mix(key + i × G) >> 11) × 2^-53", "[fleet][streams]") {
    const std::uint64_t arrival = streamKey(1, Arrival, 0);
    CHECK(draw(arrival, 0) == 0.31047103560973854);
    CHECK(draw(arrival, 1) == 0.7088164388875536);
    CHECK(draw(streamKey(1, Out, 3, 4, 5), 0) == 0.7436613564647723);
    CHECK(draw(streamKey(42, OccLeg, 7, 8, 3), 0) == 0.8968339324570342);
    for (std::uint64_t i = 0; i < 10000; ++i) {
        const double u = draw(arrival, i);
        REQUIRE(u >= 0);
        REQUIRE(u < 1);
    }
}

TEST_CASE("ln is §2's series, exact to the last bit at worked points, and ln(1) = 0", "[fleet][streams][ln]") {
    CHECK(ln(1) == 0);
    CHECK(ln(0.5) == -0.6931471805599453);
    CHECK(ln(0.1) == -2.3025850929940455);
    CHECK(ln(0.75) == -0.2876820724517809);
    CHECK(ln(1e-300) == -690.7755278982137);
    CHECK(ln(5e-324) == -744.4400719213812);  // the smallest subnormal: frexp splits it exactly
    CHECK(ln(0.9999999999999999) == -1.1102230246251565e-16);
    // Either side of the split at m = 0.7071067811865476.
    CHECK(ln(0.7071067811865476) == -0.3465735902799726);
    CHECK(ln(0.7071067811865475) == -0.34657359027997275);
}

TEST_CASE("ln agrees with the logarithm to within a few units in the last place across (0, 1]",
          "[fleet][streams][ln]") {
    for (int i = 1; i <= 100000; ++i) {
        const double x = i / 100000.0;
        const double exact = std::log(x);  // only to compare: the engine never calls log
        REQUIRE(std::fabs(ln(x) - exact) <= 4e-16 * std::fmax(1.0, std::fabs(exact)));
    }
}

TEST_CASE(
    "exp is docs/servers.md §3.1's: exp(0) = 1 exactly, exp(1) = 2.7182818284590455; within 2.3e-16 of "
    "the C library's over [−50, 50]",
    "[fleet][streams][exp]") {
    CHECK(retrylab::streams::exactExp(0) == 1);
    // k = 1, r = (1 − LN2_HI) − LN2_LO = 0.3068528194400547, p = 1.3591409142295228, p × 2.
    CHECK(retrylab::streams::exactExp(1) == 2.7182818284590455);
    CHECK(retrylab::streams::exactExp(-kLn2) == 0.5);  // k = −1, r = (−LN2 + LN2_HI) + LN2_LO: within an ulp of 0
    for (int i = 0; i <= 200000; ++i) {
        const double x = -50 + i / 2000.0;
        const double exact = std::exp(x);  // only to compare: the engine never calls exp
        REQUIRE(std::fabs(retrylab::streams::exactExp(x) - exact) <= 2.3e-16 * exact);
    }
}

TEST_CASE("the four distributions: fixed draws nothing, uniform, exponential and normal as §2 writes them",
          "[fleet][streams]") {
    const std::uint64_t key = streamKey(1, Arrival, 0);  // draws 0.31047103560973854, 0.7088164388875536, ...
    Distribution fixed{Distribution::Kind::Fixed, 5, 0};
    CHECK(sample(fixed, key) == 5);
    CHECK_FALSE(drawsFrom(fixed));
    Distribution uniform{Distribution::Kind::Uniform, 10, 20};
    CHECK(sample(uniform, key) == 10 + (20 - 10) * 0.31047103560973854);
    Distribution exponential{Distribution::Kind::Exponential, 1000, 0};
    CHECK(sample(exponential, key) == 371.74657481344616);  // −1000 × ln(1 − u0), Python
    // normal(10, 2) on BACK(0, 0, 0) of seed 1: |10 + 2 × (u0 + u1 + u2 + u3 − 2) × √3|, Python.
    Distribution normal{Distribution::Kind::Normal, 10, 2};
    CHECK(sample(normal, streamKey(1, Back, 0, 0, 0)) == 7.828494011005193);
    // The absolute value keeps a delay ≥ 0, and the tails stop at ±2√3 sd.
    Distribution wide{Distribution::Kind::Normal, 0, 1};
    for (std::uint64_t c = 0; c < 5000; ++c) {
        const double x = sample(wide, streamKey(7, Out, c, 0, 0));
        REQUIRE(x >= 0);
        REQUIRE(x <= 2 * kSqrt3);
    }
}
