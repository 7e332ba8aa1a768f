// docs/throttling.md §1–§2 and §7 against the libraries' published vectors (spec/reference/
// adaptive-throttling.md, aws-adaptive-sep.csv, aws-adaptive-cubic.csv), and the rules the doc
// works by hand. The AWS rows are held within 1e-12 (the published figures are Go's and
// botocore's doubles; every row agrees to about 1e-13): Python and Go take CUBIC's K as
// pow(x, 1/3), an exponent that is not exactly a third, the engine by §1.1's Newton iteration,
// and the last bits of K reach the later rows. The grpc-go patterns are exact, and so are §7's
// Envoy figures (the controller's counts; the RejectionProbability counts out of 10,000).
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

TEST_CASE("§1.3 CUBIC: aws-sdk-go-v2's TestAdaptiveRateLimit_cubic, 7 rows (W_max 10, last throttle at 5 s)",
          "[throttling][aws]") {
    const Cubic cubic(10, 5);
    const struct {
        double t, rate;
    } rows[] = {{5, 7},
                {6, 9.64893600966},
                {7, 10.000030849917364},
                {8, 10.453284520772092},
                {9, 13.408697022224185},
                {10, 21.26626835427364},
                {11, 36.425998516920465}};
    for (const auto& row : rows) {
        INFO("t = " << row.t);
        CHECK(std::fabs(cubic.successReceived(row.t) - row.rate) <= 1e-12);
    }
    // The first row by hand: 0.4 × (0 − K)³ + 10 = −0.4 × 7.5 + 10 = 7 (K³ = 10 × 0.3 / 0.4).
    CHECK(std::fabs(cubic.successReceived(5) - 7) <= 1e-12);
}

TEST_CASE(
    "§1.5 the adaptive limiter: aws-sdk-go-v2's TestAdaptiveRateLimit_Update, 17 rows (throttles at 2.0 and 3.2 s)",
    "[throttling][aws]") {
    const struct {
        double t;
        bool throttled;
        double measured, fill;
    } rows[] = {
        {0.2, false, 0, 0.5},
        {0.4, false, 0, 0.5},
        {0.6, false, 4.8, 0.5},
        {0.8, false, 4.8, 0.5},
        {1.0, false, 4.16, 0.5},
        {1.2, false, 4.16, 0.6912},
        {1.4, false, 4.16, 1.0976},
        {1.6, false, 5.632, 1.6384},
        {1.8, false, 5.632, 2.3328},
        {2.0, true, 4.3264, 3.02848},
        {2.2, false, 4.3264, 3.4866391734702598},
        {2.4, false, 4.3264, 3.8218744160402554},
        {2.6, false, 5.66528, 4.053385727709987},
        {2.8, false, 5.66528, 4.200373108479455},
        {3.0, false, 4.333056, 4.282036558348658},
        {3.2, true, 4.333056, 2.99742559084406},
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

TEST_CASE("§1.4 the token bucket: a send waits for a whole token at the fill rate, never below 0.5 a second",
          "[throttling][aws]") {
    // Worked by hand (docs/throttling.md §1.4): rate 2 from t = 0, capacity 2, starting empty.
    TokenBucket bucket(2, 0);
    CHECK(bucket.fillRate() == 2);
    CHECK(bucket.maxCapacity() == 2);
    CHECK(bucket.acquire(0) == 0.5);    // (1 − 0) / 2: sent at 0.5, the bucket empty again
    CHECK(bucket.acquire(0.5) == 0.5);  // the next at 1.0
    CHECK(bucket.acquire(0.6) == 0.9);  // asked at 0.6 behind the bucket's 1.0: sent at 1.5
    CHECK(bucket.acquire(3.5) == 0);    // 2 s later: 2 tokens (the cap), one taken
    CHECK(bucket.capacity() == 1);
    // A rate below 1 keeps a capacity of one token; below 0.5 the fill rate is held at 0.5.
    bucket.setMaxRate(0.1, 3.5);
    CHECK(bucket.fillRate() == 0.5);
    CHECK(bucket.maxCapacity() == 1);
    CHECK(bucket.acquire(3.5) == 0);
    CHECK(bucket.acquire(3.5) == 2);  // (1 − 0) / 0.5
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

TEST_CASE("§2 grpc-go's adaptive throttler: the three 19-response patterns of TestShouldThrottleOptions",
          "[throttling][grpc]") {
    CHECK(pattern(1.1, 8) == "nnnnnnnnyyyyynnnyyy");
    CHECK(pattern(1.1, 7) == "nnnnnnnyyyyyyyyyyyy");
    CHECK(pattern(1.4, 8) == "nnnnnnnnyynnnnnnnnn");
}

TEST_CASE("§2 the lookback: bins age out as time moves on, and a response older than the window is not counted",
          "[throttling][grpc]") {
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

TEST_CASE("§7.1 Envoy's window: controller_test's figures (window 5 s, buckets of 1 s)", "[throttling][envoy]") {
    {
        // One failure then one success at 0: (2, 1).
        AdmissionWindow w(5000);
        w.record(0, false);
        w.record(0, true);
        const AdmissionWindow::Counts c = w.counts(0);
        CHECK(c.requests == 2);
        CHECK(c.successes == 1);
    }
    {
        // Six successes a second apart: at 5,000 the update removes the bucket of 0 (5,000 − 0 ≥ 5,000)
        // before the sixth is recorded: (5, 5).
        AdmissionWindow w(5000);
        for (int i = 0; i <= 5; ++i) w.record(1000.0 * i, true);
        AdmissionWindow::Counts c = w.counts(5000);
        CHECK(c.requests == 5);
        CHECK(c.successes == 5);
        // Six failures a second apart from 6,000: the buckets 7,000–11,000 at 11,000: (5, 0); at 12,000 the
        // bucket of 7,000 goes too: (4, 0).
        for (int i = 6; i <= 11; ++i) w.record(1000.0 * i, false);
        c = w.counts(11000);
        CHECK(c.requests == 5);
        CHECK(c.successes == 0);
        c = w.counts(12000);
        CHECK(c.requests == 4);
        CHECK(c.successes == 0);
    }
    {
        // Five answers at 0: floor(5 / max(5, 0)) = 1; two: floor(2 / 5) = 0; 5,000 ms later (0, 0) and 0.
        AdmissionWindow five(5000);
        for (int i = 0; i < 5; ++i) five.record(0, true);
        CHECK(five.averageRps(0) == 1);
        AdmissionWindow two(5000);
        two.record(0, true);
        two.record(0, false);
        CHECK(two.averageRps(0) == 0);
        const AdmissionWindow::Counts c = five.counts(5000);
        CHECK(c.requests == 0);
        CHECK(c.successes == 0);
        CHECK(five.averageRps(5000) == 0);
    }
}

TEST_CASE(
    "§7.1 the window's rules: a bucket starts at its event, not on a whole second; the average rate reads "
    "no update (the oldest bucket's age when that is longer than the window)",
    "[throttling][envoy]") {
    AdmissionWindow w(5000);
    w.record(500, true);    // the bucket {500}
    w.record(1400, true);   // 900 after it: the same bucket
    w.record(1500, false);  // 1,000 after it: the bucket {1500}
    CHECK(w.buckets() == 2);
    // 5,500 − 500 ≥ 5,000: the first bucket (two successes) goes, the second stays (4,000).
    AdmissionWindow::Counts c = w.counts(5500);
    CHECK(c.requests == 1);
    CHECK(c.successes == 0);
    // Ten more at 5,500 (11 in the window): at 9,000, with no update, max(5, floor(7,500 / 1000)) = 7 s:
    // floor(11 / 7) = 1; the counts at 9,000 drop the bucket of 1,500 (7,500 ≥ 5,000): 10 left, then
    // floor(10 / max(5, 3)) = 2.
    for (int i = 0; i < 10; ++i) w.record(5500, true);
    CHECK(w.averageRps(9000) == 1);
    c = w.counts(9000);
    CHECK(c.requests == 10);
    CHECK(w.averageRps(9000) == 2);
    // Everything a window old: the list empties, then a fresh bucket of nothing.
    c = w.counts(20000);
    CHECK(c.requests == 0);
    CHECK(w.buckets() == 1);
    CHECK(w.averageRps(20000) == 0);
}

namespace {

// Envoy's RejectionProbability test over 10,000 draws: the count of k in 0 … 9999 rejected, each k a draw with
// floor(u × 10000) = k ((k + 0.5) / 10000: k / 10000 itself multiplies back below k for 573 of them).
int rejectedOf10000(double n, double s, double threshold, double aggression, double maxProbability) {
    const double p = rejectionProbability(n, s, threshold, aggression, maxProbability);
    int count = 0;
    for (int k = 0; k < 10000; ++k) count += rejects(p, (k + 0.5) / 10000) ? 1 : 0;
    return count;
}

}  // namespace

TEST_CASE("§7.4 the probability: Envoy's RejectionProbability table, n = 100, counts out of 10,000 exact",
          "[throttling][envoy]") {
    // T = 1, aggression 1, max 80 %: p = 0; 5 / 101 = 0.0495…; 25 / 101 = 0.2475…: ceil(10,000 × p).
    CHECK(rejectedOf10000(100, 100, 1, 1, 0.8) == 0);
    CHECK(rejectedOf10000(100, 95, 1, 1, 0.8) == 496);
    CHECK(rejectedOf10000(100, 75, 1, 1, 0.8) == 2476);
    // Aggression 2: √0.0495… = 0.2224…, √0.2475… = 0.4975….
    CHECK(rejectedOf10000(100, 95, 1, 2, 0.8) == 2225);
    CHECK(rejectedOf10000(100, 75, 1, 2, 0.8) == 4976);
    // T = 0.95: 100 − 105.26… < 0; 98 / 0.95 > 100; 95 / 0.95 = 100 exactly in doubles; then 0.05211…,
    // 0.20844…, 0.46899….
    CHECK(rejectedOf10000(100, 100, 0.95, 1, 0.8) == 0);
    CHECK(rejectedOf10000(100, 98, 0.95, 1, 0.8) == 0);
    CHECK(rejectionProbability(100, 95, 0.95, 1, 0.8) == 0);
    CHECK(rejectedOf10000(100, 95, 0.95, 1, 0.8) == 0);
    CHECK(rejectedOf10000(100, 90, 0.95, 1, 0.8) == 522);
    CHECK(rejectedOf10000(100, 75, 0.95, 1, 0.8) == 2085);
    CHECK(rejectedOf10000(100, 50, 0.95, 1, 0.8) == 4690);
    // T = 1, max 10 %: 5 / 101 under the cap; 20 / 101 and 100 / 101 capped at 0.1 (10,000 × 0.1 = 1,000).
    CHECK(rejectedOf10000(100, 95, 1, 1, 0.1) == 496);
    CHECK(rejectedOf10000(100, 80, 1, 1, 0.1) == 1000);
    CHECK(rejectedOf10000(100, 0, 1, 1, 0.1) == 1000);
    // Envoy's own figures, each count ÷ 10,000 within 0.01 of it (its test's tolerance).
    CHECK(std::fabs(rejectedOf10000(100, 95, 1, 2, 0.8) / 10000.0 - 0.22) <= 0.01);
    CHECK(std::fabs(rejectedOf10000(100, 50, 0.95, 1, 0.8) / 10000.0 - 0.46) <= 0.01);
}

TEST_CASE(
    "§7.2 the probability's edges: the power by exp(ln(p) / aggression), nothing rejected below 0 or for "
    "a NaN, the cap after the power",
    "[throttling][envoy]") {
    // (1 − 0) / 2 = 0.5 at aggression 1; at aggression 2, exp(ln(0.5) / 2) = √0.5 within an ulp.
    CHECK(rejectionProbability(1, 0, 0.95, 1, 0.8) == 0.5);
    CHECK(std::fabs(rejectionProbability(1, 0, 0.95, 2, 0.8) - std::sqrt(0.5)) <= 2.3e-16);
    // Aggression 100: 0.5^(1/100) = 0.99309…, capped at 0.8.
    CHECK(rejectionProbability(1, 0, 0.95, 100, 0.8) == 0.8);
    CHECK(rejectionProbability(1, 0, 0.95, 100, 1) == Approx(0.9930924954370359).epsilon(1e-15));
    // Nothing in the window: 0 / 1 = 0.
    CHECK(rejectionProbability(0, 0, 0.95, 3, 0.8) == 0);
    // A negative p (more successes than the threshold asks for), with and without a power: no rejection.
    CHECK(rejectionProbability(100, 99, 0.95, 2, 0.8) == 0);
    CHECK_FALSE(rejects(rejectionProbability(100, 99, 0.95, 1, 0.8), 0));
    // srThreshold 0: s / 0 is +∞ for s > 0 (p = −∞) and 0 / 0 a NaN for s = 0: neither rejects.
    CHECK(rejectionProbability(10, 0, 0, 1, 0.8) == 0);
    CHECK(rejectionProbability(10, 5, 0, 2, 0.8) == 0);
    CHECK_FALSE(rejects(rejectionProbability(10, 0, 0, 1, 0.8), 0));
    // Step 3 at its edges: p = 0.5 rejects k = 4,999 and not k = 5,000; p = 1 rejects every k.
    CHECK(rejects(0.5, 0.49995));
    CHECK_FALSE(rejects(0.5, 0.50005));
    CHECK(rejects(1, 0.99999999));
    CHECK_FALSE(rejects(0, 0));
}
