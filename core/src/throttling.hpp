// The client-side throttles of docs/throttling.md §1–§3, as plain state machines on virtual
// time (seconds as doubles, as the libraries count them): AWS adaptive mode's rate limiter
// (botocore 1.43.67 botocore/retries/{adaptive,bucket,throttling}.py) and the SRE book's
// client-side throttling in grpc-go's form (balancer/rls/internal/adaptive). No clock, no random source of their own: the
// caller passes the time and the draw, so the fleet can address both (FLEET.md §2).
#pragma once

#include <cstdint>
#include <vector>

namespace retrylab::throttling {

// x^(1/3) for x ≥ 0 by a fixed Newton iteration on an exact split of x (docs/throttling.md
// §1.1): no C library pow or cbrt, whose last bit differs between platforms.
double cubeRoot(double x);

// §1.2 botocore's RateClocker: the measured send rate, updated once per half-second bucket.
class RateClocker {
public:
    explicit RateClocker(double startS);
    double record(double nowS);  // one response at nowS; the measured rate after it
    double measured() const { return measured_; }

private:
    double measured_ = 0, lastBucket_, count_ = 0;
};

// §1.3 botocore's CubicCalculator (scale 0.4, beta 0.7).
class Cubic {
public:
    Cubic(double startingMaxRate, double startS);
    double successReceived(double nowS) const;
    double errorReceived(double currentRate, double nowS);  // the rate cut to beta × current
    double wMax() const { return wMax_; }
    double k() const { return k_; }

private:
    double wMax_, k_, lastFail_;
};

// §1.4 botocore's TokenBucket (minimum fill rate 0.5 tokens a second): acquire() answers how
// long the send must wait (0 when a token is there) instead of sleeping.
class TokenBucket {
public:
    TokenBucket(double maxRate, double startS);
    void setMaxRate(double rate, double nowS);
    double fillRate() const { return fillRate_; }
    double capacity() const { return capacity_; }
    double maxCapacity() const { return maxCapacity_; }
    double acquire(double nowS);  // takes one token, at nowS + the returned wait

private:
    void refill(double nowS);
    double fillRate_ = 0, maxCapacity_ = 0, capacity_ = 0, last_ = 0;
    bool started_ = false;
};

// §1.5 botocore's ClientRateLimiter: the three above, enabled by the first throttling answer.
class AdaptiveLimiter {
public:
    explicit AdaptiveLimiter(double startS);
    double beforeSend(double nowS);                // the wait before the send (0 while not enabled)
    void onResponse(double nowS, bool throttled);  // every answer the client receives
    double measuredRate() const { return clocker_.measured(); }
    double fillRate() const { return bucket_.fillRate(); }
    bool enabled() const { return enabled_; }

private:
    Cubic cubic_;
    TokenBucket bucket_;
    RateClocker clocker_;
    bool enabled_ = false;
};

// §2 grpc-go's adaptive throttler: accepts and throttles over a window of `bins` bins of
// `windowS / bins` seconds each; throttle when (requests − ratio × accepts) / (requests +
// padding) is above the draw, a local throttle counting as a throttle.
class AdaptiveThrottler {
public:
    AdaptiveThrottler(double windowS, int bins, double ratioForAccepts, double requestsPadding);
    bool shouldThrottle(double nowS, double draw);
    void registerResponse(double nowS, bool throttled);
    double probability(double nowS);

private:
    struct Lookback {
        std::vector<double> counts;
        std::int64_t head = 0;  // the newest bin's index in time (grpc-go starts it at 0)
        // The bins' sum, kept as they change: whole numbers, so it is exactly grpc-go's sum
        // of the bins (below 2^53), at O(1) a question instead of O(bins) (the fleet asks it
        // before every send).
        double total = 0;
    };
    void add(Lookback& l, double nowS);
    double sum(Lookback& l, double nowS) const;
    std::int64_t binOf(double nowS) const;
    double binS_, ratio_, padding_;
    int bins_;
    Lookback accepts_, throttles_;
};

}  // namespace retrylab::throttling
