// The client-side throttles of docs/throttling.md §1–§2 and §7, as plain state machines on virtual
// time (seconds as doubles, as the libraries count them): AWS adaptive mode's rate limiter
// (botocore 1.43.67 botocore/retries/{adaptive,bucket,throttling}.py) and the SRE book's
// client-side throttling in grpc-go's form (balancer/rls/internal/adaptive); and (in the fleet's
// milliseconds, as §7 writes it) Envoy's admission control window and rejection probability
// (source/extensions/filters/http/admission_control). No clock, no random source of their own:
// the caller passes the time and the draw, so the fleet can address both (FLEET.md §2).
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

// §7.1 Envoy's ThreadLocalControllerImpl: requests and successes in buckets of 1 s (each starting
// at the event that made it) over a window of windowMs, on the fleet's milliseconds.
class AdmissionWindow {
public:
    explicit AdmissionWindow(double windowMs) : windowMs_(windowMs) {}
    struct Counts {
        std::uint64_t requests = 0, successes = 0;
    };
    Counts counts(double nowMs);                   // update at nowMs, then (n, s)
    void record(double nowMs, bool success);       // update at nowMs, then one request (a success or not)
    std::uint64_t averageRps(double nowMs) const;  // no update first (Envoy's averageRps() is const)
    std::size_t buckets() const { return size_; }

private:
    struct Bucket {
        double startMs;
        std::uint64_t requests, successes;
    };
    void update(double nowMs);
    Bucket& at(std::size_t i) { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    const Bucket& at(std::size_t i) const { return ring_[(head_ + i) & (ring_.size() - 1)]; }
    double windowMs_;
    // The buckets, oldest first, in a ring of a power of two (at most windowMs / 1000 are kept:
    // their starts lie within the window and at least 1,000 ms apart).
    std::vector<Bucket> ring_;
    std::size_t head_ = 0, size_ = 0;
    std::uint64_t requests_ = 0, successes_ = 0;
};

// §7.2 step 2: Envoy's rejection probability for n requests and s successes in the window, T the
// success-rate threshold (srThreshold / 100), `maxProbability` maxRejectionProbability / 100.
// Not above 0 (a NaN included) when nothing is to be rejected.
double rejectionProbability(double requests, double successes, double threshold, double aggression,
                            double maxProbability);
// §7.2 step 3: rejected iff 10000 × max(p, 0) > floor(u × 10000) (Envoy's accuracy of 10^4).
bool rejects(double probability, double draw);

}  // namespace retrylab::throttling
