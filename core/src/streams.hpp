// FLEET.md §2: addressed random streams. Every random number of the fleet is draw i of a
// stream named by a purpose and up to three ids, so no draw depends on the order in which
// events are processed. SplitMix64's output step mixes the address; `ln` is a fixed series
// (no C library log, whose last bit differs between platforms).
#pragma once

#include <cmath>
#include <cstdint>

namespace retrylab {
namespace streams {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;  // G
constexpr std::uint64_t kM1 = 0xBF58476D1CE4E5B9ULL;
constexpr std::uint64_t kM2 = 0x94D049BB133111EBULL;

// The purposes of §2's table.
enum Purpose : std::uint64_t {
    Arrival = 1,
    Out = 2,
    Back = 3,
    Fail = 4,
    Wait = 5,
    OccLeg = 6,
    OccWait = 7,
    LayerWait = 8 /* docs/layers.md §6 */
};
// docs/throttling.md §5: the local throttle's draw before each send (client, request, attempt).
constexpr std::uint64_t kPurposeLocal = 9;
// docs/throttling.md §7.2: Envoy's admission control's draw before each send (client, request,
// attempt). 10 and 11 are docs/servers.md's BALANCE and SERVICE.
constexpr std::uint64_t kPurposeAdmission = 12;

inline std::uint64_t mix(std::uint64_t x) {
    std::uint64_t z = x + kGolden;
    z = (z ^ (z >> 30)) * kM1;
    z = (z ^ (z >> 27)) * kM2;
    return z ^ (z >> 31);
}

// The key's steps, so that a caller can keep a prefix: k1 = purposeKey(seed, p) is shared by
// every stream of one purpose, k2 = step(k1, a) by every stream of one client, ...
inline std::uint64_t step(std::uint64_t key, std::uint64_t id) { return mix(key ^ id); }
inline std::uint64_t purposeKey(std::uint64_t seed, std::uint64_t purpose) { return mix(mix(seed) ^ purpose); }

// The key of stream (purpose; ids a, b, c), a missing id being 0.
inline std::uint64_t streamKey(std::uint64_t seed, std::uint64_t purpose, std::uint64_t a = 0, std::uint64_t b = 0,
                               std::uint64_t c = 0) {
    return step(step(step(purposeKey(seed, purpose), a), b), c);
}

// Draw i of the stream with this key: a double in [0, 1).
inline double draw(std::uint64_t key, std::uint64_t i) {
    return static_cast<double>(mix(key + i * kGolden) >> 11) * (1.0 / 9007199254740992.0);
}

constexpr double kLn2 = 0.6931471805599453;
constexpr double kSqrt3 = 1.7320508075688772;

// ln(x) for x in (0, 1] exactly as §2 writes it: x = m × 2^e with m in [√½, √2), then
// e × LN2 + 2s × (the odd series in s = (m − 1)/(m + 1), Horner from j = 19 down).
inline double ln(double x) {
    int e = 0;
    double m = std::frexp(x, &e);
    if (m < 0.7071067811865476) {
        m = 2 * m;
        e = e - 1;
    }
    const double s = (m - 1) / (m + 1);
    const double t = s * s;
    double q = 1.0 / 41;
    for (int j = 19; j >= 0; --j) q = q * t + 1.0 / (2 * j + 1);
    const double whole = e * kLn2;
    const double fraction = (2 * s) * q;
    return whole + fraction;
}

constexpr double kLn2Hi = 0.6931471803691238;      // 0x1.62e42feep-1: its last 20 bits are 0
constexpr double kLn2Lo = 1.9082149292705877e-10;  // 0x1.a39ef35793c76p-33

// exactExp(x): exp(x) exactly as docs/servers.md §3.1 writes it (no C library exp): k = floor(x / LN2 + 0.5),
// r = (x − k × LN2_HI) − k × LN2_LO, Horner's form of the Taylor series to r^20 / 20!, then
// p × 2^k. For |x| up to about 700 (a normal double result).
inline double exactExp(double x) {
    const double k = std::floor(x / kLn2 + 0.5);
    const double hi = k * kLn2Hi;
    const double lo = k * kLn2Lo;
    const double r = (x - hi) - lo;
    double p = 1;
    for (int j = 20; j >= 1; --j) p = 1 + (r * p) / j;
    return std::ldexp(p, static_cast<int>(k));
}

// A delay's distribution (§2): fixed, uniform, exponential or normal.
struct Distribution {
    enum class Kind { Fixed, Uniform, Exponential, Normal };
    Kind kind = Kind::Fixed;
    double a = 0;  // fixed: ms; uniform: lo; exponential: mean; normal: mean
    double b = 0;  // uniform: hi; normal: sd
};

// exponential(mean) for the draw u0.
inline double exponentialFrom(double mean, double u0) { return -mean * ln(1 - u0); }

// One value of `dist` from the stream with this key, from its draw 0.
inline double sample(const Distribution& dist, std::uint64_t key) {
    switch (dist.kind) {
        case Distribution::Kind::Fixed: return dist.a;
        case Distribution::Kind::Uniform: return dist.a + (dist.b - dist.a) * draw(key, 0);
        case Distribution::Kind::Exponential: return exponentialFrom(dist.a, draw(key, 0));
        case Distribution::Kind::Normal: {
            const double sum = draw(key, 0) + draw(key, 1) + draw(key, 2) + draw(key, 3);
            const double z = (sum - 2) * kSqrt3;
            return std::fabs(dist.a + dist.b * z);
        }
    }
    return dist.a;
}

// Whether sampling `dist` reads the stream at all (fixed does not: its key need not be made).
inline bool drawsFrom(const Distribution& dist) { return dist.kind != Distribution::Kind::Fixed; }

}  // namespace streams
}  // namespace retrylab
