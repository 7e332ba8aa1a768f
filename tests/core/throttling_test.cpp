// docs/throttling.md §1–§2 against the libraries' published vectors (spec/reference/
// adaptive-throttling.md, aws-adaptive-sep.csv, aws-adaptive-cubic.csv), and the rules the doc
// works by hand. The AWS rows are held within 1e-12 (the published figures are Go's and
// botocore's doubles; every row agrees to about 1e-13): Python and Go take CUBIC's K as
// pow(x, 1/3), an exponent that is not exactly a third, the engine by §1.1's Newton iteration,
// and the last bits of K reach the later rows. The grpc-go patterns are exact.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "throttling.hpp"

using namespace retrylab::throttling;

TEST_CASE("§1.1 the cube root: exact on cubes, within an ulp or two elsewhere, 0 at 0", "[throttling]") {
    CHECK(cubeRoot(0) == 0);
    CHECK(cubeRoot(8) == 2);
    CHECK(cubeRoot(27) == 3);
    CHECK(cubeRoot(0.125) == 0.5);
    CHECK(cubeRoot(1e-300) == Approx(1e-100).epsilon(1e-15));
    for (double x : {7.5, 6.0, 3.2448, 1e6, 0.001, 123456.789}) {
        const double y = cubeRoot(x);
        CHECK(std::fabs(y * y * y - x) <= 8e-16 * x);
    }
    // botocore's own test (tests/unit/retries/test_throttling.py): K for W_max 10 is
    // 1.9574338205844317, and after a throttle at 8 s (rate 8) 1.8171205928321397.
    CHECK(Cubic(10, 0).k() == Approx(1.9574338205844317).epsilon(1e-15));
    Cubic cubic(10, 0);
    cubic.errorReceived(8, 8);
    CHECK(cubic.k() == Approx(1.8171205928321397).epsilon(1e-15));
}

TEST_CASE("§1.3 CUBIC: aws-sdk-go-v2's TestAdaptiveRateLimit_cubic, 7 rows (W_max 10, last throttle at 5 s)", "[throttling][aws]") {
    const Cubic cubic(10, 5);
    const struct {
        double t, rate;
    } rows[] = {{5, 7}, {6, 9.64893600966}, {7, 10.000030849917364}, {8, 10.453284520772092},
                {9, 13.408697022224185}, {10, 21.26626835427364}, {11, 36.425998516920465}};
    for (const auto& row : rows) {
        INFO("t = " << row.t);
        CHECK(std::fabs(cubic.successReceived(row.t) - row.rate) <= 1e-12);
    }
    // The first row by hand: 0.4 × (0 − K)³ + 10 = −0.4 × 7.5 + 10 = 7 (K³ = 10 × 0.3 / 0.4).
    CHECK(std::fabs(cubic.successReceived(5) - 7) <= 1e-12);
}

TEST_CASE("§1.5 the adaptive limiter: aws-sdk-go-v2's TestAdaptiveRateLimit_Update, 17 rows (throttles at 2.0 and 3.2 s)", "[throttling][aws]") {
    const struct {
        double t;
        bool throttled;
        double measured, fill;
    } rows[] = {
        {0.2, false, 0, 0.5}, {0.4, false, 0, 0.5}, {0.6, false, 4.8, 0.5}, {0.8, false, 4.8, 0.5},
        {1.0, false, 4.16, 0.5}, {1.2, false, 4.16, 0.6912}, {1.4, false, 4.16, 1.0976},
        {1.6, false, 5.632, 1.6384}, {1.8, false, 5.632, 2.3328}, {2.0, true, 4.3264, 3.02848},
        {2.2, false, 4.3264, 3.4866391734702598}, {2.4, false, 4.3264, 3.8218744160402554},
        {2.6, false, 5.66528, 4.053385727709987}, {2.8, false, 5.66528, 4.200373108479455},
        {3.0, false, 4.333056, 4.282036558348658}, {3.2, true, 4.333056, 2.99742559084406},
        {3.4, false, 4.333056, 3.4522263943863463},
    };
    AdaptiveLimiter limiter(0);
    for (const auto& row : rows) {
        INFO("t = " << row.t);
        limiter.onResponse(row.t, row.throttled);
        CHECK(std::fabs(limiter.measuredRate() - row.measured) <= 1e-12);
        CHECK(std::fabs(limiter.fillRate() - row.fill) <= 1e-12);
    }
    CHECK(limiter.enabled());
}

TEST_CASE("§1.4 the token bucket: a send waits for a whole token at the fill rate, never below 0.5 a second", "[throttling][aws]") {
    // Worked by hand (docs/throttling.md §1.4): rate 2 from t = 0, capacity 2, starting empty.
    TokenBucket bucket(2, 0);
    CHECK(bucket.fillRate() == 2);
    CHECK(bucket.maxCapacity() == 2);
    CHECK(bucket.acquire(0) == 0.5);     // (1 − 0) / 2: sent at 0.5, the bucket empty again
    CHECK(bucket.acquire(0.5) == 0.5);   // the next at 1.0
    CHECK(bucket.acquire(0.6) == 0.9);   // asked at 0.6 behind the bucket's 1.0: sent at 1.5
    CHECK(bucket.acquire(3.5) == 0);     // 2 s later: 2 tokens (the cap), one taken
    CHECK(bucket.capacity() == 1);
    // A rate below 1 keeps a capacity of one token; below 0.5 the fill rate is held at 0.5.
    bucket.setMaxRate(0.1, 3.5);
    CHECK(bucket.fillRate() == 0.5);
    CHECK(bucket.maxCapacity() == 1);
    CHECK(bucket.acquire(3.5) == 0);
    CHECK(bucket.acquire(3.5) == 2);     // (1 − 0) / 0.5
    // Not enabled until the first throttling answer: the limiter delays nothing before it.
    AdaptiveLimiter limiter(0);
    limiter.onResponse(0.2, false);
    CHECK(limiter.beforeSend(0.3) == 0);
}

namespace {

std::string pattern(double ratio, double padding) {
    // grpc-go's TestShouldThrottleOptions: one bin, the clock at 0, the draw 0.5; after each
    // response (T throttled, A accepted) the throttler is asked once.
    AdaptiveThrottler throttler(1e-9, 1, ratio, padding);
    std::string out;
    for (char response : std::string("TTTTTTTTTAAAAAATTTT")) {
        throttler.registerResponse(0, response == 'T');
        out += throttler.shouldThrottle(0, 0.5) ? 'y' : 'n';
    }
    return out;
}

}  // namespace

TEST_CASE("§2 grpc-go's adaptive throttler: the three 19-response patterns of TestShouldThrottleOptions", "[throttling][grpc]") {
    CHECK(pattern(1.1, 8) == "nnnnnnnnyyyyynnnyyy");
    CHECK(pattern(1.1, 7) == "nnnnnnnyyyyyyyyyyyy");
    CHECK(pattern(1.4, 8) == "nnnnnnnnyynnnnnnnnn");
}

TEST_CASE("§2 the lookback: bins age out as time moves on, and a response older than the window is not counted", "[throttling][grpc]") {
    // grpc-go's TestRegisterBackendResponse, one unit a bin: Accumulate, LightTimeTravel,
    // HeavyTimeTravel, Rollover. probability() reads the sums at the time it is asked.
    auto sums = [](AdaptiveThrottler& t, double now) {
        // (requests − 2 × accepts) / (requests + 8) with ratio 2, padding 8: solve for both.
        return t.probability(now);
    };
    {
        AdaptiveThrottler t(3, 3, 2, 8);
        t.registerResponse(0, false);
        CHECK(sums(t, 0) == (1 - 2.0) / 9);  // 1 accept
        t.registerResponse(1, true);
        CHECK(sums(t, 1) == (2 - 2.0) / 10);  // 1 accept, 1 throttle
        CHECK(sums(t, 2) == (2 - 2.0) / 10);
    }
    {
        AdaptiveThrottler t(3, 3, 2, 8);
        t.registerResponse(8, false);
        t.registerResponse(0, false);  // 8 bins behind the head: not counted
        CHECK(sums(t, 0) == (1 - 2.0) / 9);
        t.registerResponse(9, false);
        CHECK(sums(t, 9) == (2 - 4.0) / 10);
    }
    {
        AdaptiveThrottler t(1, 1, 2, 8);  // Rollover: one bin of one unit
        t.registerResponse(0, false);
        t.registerResponse(1, true);
        CHECK(sums(t, 1) == 1.0 / 9);  // the accept aged out: 1 throttle
        CHECK(sums(t, 2) == 0);        // and then the throttle
    }
}
