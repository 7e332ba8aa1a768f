// docs/throttling.md §1–§2 and §7: each formula in the order the libraries evaluate it.
#include "throttling.hpp"

#include <algorithm>
#include <cmath>

#include "streams.hpp"

namespace retrylab::throttling {

double cubeRoot(double x) {
    if (!(x > 0)) return 0;
    // x = m × 2^e exactly; move e to a multiple of 3 so that a = m × 2^r lies in [0.5, 4).
    int e = 0;
    const double m = std::frexp(x, &e);
    int r = e % 3;
    if (r < 0) r += 3;
    const double a = std::ldexp(m, r);
    double y = 1;
    for (int i = 0; i < 8; ++i) y = (2 * y + a / (y * y)) / 3;  // Newton on y³ = a
    return std::ldexp(y, (e - r) / 3);
}

// --- §1.2 RateClocker ----------------------------------------------------------------------------

constexpr double kSmoothing = 0.8;
constexpr double kBucketScale = 1 / 0.5;  // botocore: 1 / _TIME_BUCKET_RANGE

RateClocker::RateClocker(double startS) : lastBucket_(std::floor(startS)) {}

double RateClocker::record(double nowS) {
    const double bucket = std::floor(nowS * kBucketScale) / kBucketScale;
    count_ += 1;
    if (bucket > lastBucket_) {
        const double current = count_ / (bucket - lastBucket_);
        measured_ = (current * kSmoothing) + (measured_ * (1 - kSmoothing));
        count_ = 0;
        lastBucket_ = bucket;
    }
    return measured_;
}

// --- §1.3 Cubic ------------------------------------------------------------------------------------

constexpr double kScale = 0.4;
constexpr double kBeta = 0.7;

Cubic::Cubic(double startingMaxRate, double startS)
    : wMax_(startingMaxRate), k_(cubeRoot((startingMaxRate * (1 - kBeta)) / kScale)), lastFail_(startS) {}

double Cubic::successReceived(double nowS) const {
    const double dt = nowS - lastFail_;
    const double d = dt - k_;
    return kScale * (d * d * d) + wMax_;
}

double Cubic::errorReceived(double currentRate, double nowS) {
    wMax_ = currentRate;
    k_ = cubeRoot((wMax_ * (1 - kBeta)) / kScale);
    lastFail_ = nowS;
    return currentRate * kBeta;
}

// --- §1.4 TokenBucket -----------------------------------------------------------------------------

constexpr double kMinFillRate = 0.5;

TokenBucket::TokenBucket(double maxRate, double startS) : last_(startS) { setMaxRate(maxRate, startS); }

void TokenBucket::refill(double nowS) {
    if (!started_) {  // botocore's first _refill only notes the time
        started_ = true;
        last_ = nowS;
        return;
    }
    const double fill = (nowS - last_) * fillRate_;
    capacity_ = std::min(maxCapacity_, capacity_ + fill);
    last_ = nowS;
}

void TokenBucket::setMaxRate(double rate, double nowS) {
    refill(nowS);
    fillRate_ = std::max(rate, kMinFillRate);
    maxCapacity_ = rate >= 1 ? rate : 1;
    capacity_ = std::min(capacity_, maxCapacity_);
}

double TokenBucket::acquire(double nowS) {
    // Sends are taken one at a time, as botocore's lock takes them: one asked for before the
    // bucket's own time (a send still waiting for its token) waits from that time.
    const double at = started_ ? std::max(nowS, last_) : nowS;
    refill(at);
    if (1 <= capacity_) {
        capacity_ -= 1;
        return at - nowS;
    }
    // botocore sleeps (1 − capacity) / fillRate, refills and takes the token; in virtual time
    // the send happens then, the bucket refilled by that sleep (about one token), less one.
    const double wait = (1 - capacity_) / fillRate_;
    refill(at + wait);
    capacity_ = std::max(0.0, capacity_ - 1);
    return at + wait - nowS;
}

// --- §1.5 AdaptiveLimiter -------------------------------------------------------------------------

constexpr double kMaxRateAdjustScale = 2.0;

AdaptiveLimiter::AdaptiveLimiter(double startS) : cubic_(0, startS), bucket_(1, startS), clocker_(startS) {}

double AdaptiveLimiter::beforeSend(double nowS) { return enabled_ ? bucket_.acquire(nowS) : 0; }

void AdaptiveLimiter::onResponse(double nowS, bool throttled) {
    const double measured = clocker_.record(nowS);
    double newRate = 0;
    if (!throttled) {
        newRate = cubic_.successReceived(nowS);
    } else {
        const double rateToUse = enabled_ ? std::min(measured, bucket_.fillRate()) : measured;
        newRate = cubic_.errorReceived(rateToUse, nowS);
        enabled_ = true;
    }
    bucket_.setMaxRate(std::min(newRate, kMaxRateAdjustScale * measured), nowS);
}

// --- §2 AdaptiveThrottler -------------------------------------------------------------------------

AdaptiveThrottler::AdaptiveThrottler(double windowS, int bins, double ratioForAccepts, double requestsPadding)
    : binS_(windowS / bins), ratio_(ratioForAccepts), padding_(requestsPadding), bins_(bins) {
    accepts_.counts.assign(static_cast<std::size_t>(bins), 0);
    throttles_.counts.assign(static_cast<std::size_t>(bins), 0);
}

std::int64_t AdaptiveThrottler::binOf(double nowS) const { return static_cast<std::int64_t>(std::floor(nowS / binS_)); }

// grpc-go's advance(): moving the head forward empties the bins it passes (at most all of them).
template <class L>
static void advance(L& l, std::int64_t to) {
    if (to <= l.head) return;
    const auto n = static_cast<std::int64_t>(l.counts.size());
    const std::int64_t steps = std::min(n, to - l.head);
    for (std::int64_t j = 0; j < steps; ++j) {
        double& c = l.counts[static_cast<std::size_t>((l.head + j + 1) % n)];
        l.total -= c;
        c = 0;
    }
    l.head = to;
}

void AdaptiveThrottler::add(Lookback& l, double nowS) {
    const std::int64_t pos = binOf(nowS);
    advance(l, pos);
    if (l.head - pos >= bins_) return;  // more than the window behind the head: not counted
    const auto n = static_cast<std::int64_t>(l.counts.size());
    l.counts[static_cast<std::size_t>(((pos % n) + n) % n)] += 1;
    l.total += 1;
}

double AdaptiveThrottler::sum(Lookback& l, double nowS) const {
    advance(l, binOf(nowS));
    return l.total;
}

double AdaptiveThrottler::probability(double nowS) {
    const double accepts = sum(accepts_, nowS), throttles = sum(throttles_, nowS);
    const double requests = accepts + throttles;
    // docs/throttling.md §2: with no request in the window and no padding, 0 / 0 is read as 0 (no
    // throttling). grpc-go's NaN <= u is false, so it would throttle, and then throttle forever.
    if (requests + padding_ == 0) return 0;
    return (requests - ratio_ * accepts) / (requests + padding_);
}

bool AdaptiveThrottler::shouldThrottle(double nowS, double draw) {
    if (probability(nowS) <= draw) return false;
    add(throttles_, nowS);
    return true;
}

void AdaptiveThrottler::registerResponse(double nowS, bool throttled) { add(throttled ? throttles_ : accepts_, nowS); }

// --- §7.1 AdmissionWindow (Envoy's ThreadLocalControllerImpl) -------------------------------------

constexpr double kGranularityMs = 1000;  // Envoy's history_granularity_, fixed

void AdmissionWindow::update(double nowMs) {
    // Purge the buckets at least a window old, then roll over into a new one when the list is
    // empty or its newest is at least a second old (Envoy's maybeUpdateHistoricalData()).
    while (size_ > 0 && nowMs - at(0).startMs >= windowMs_) {
        requests_ -= at(0).requests;
        successes_ -= at(0).successes;
        head_ = (head_ + 1) & (ring_.size() - 1);
        --size_;
    }
    if (size_ > 0 && nowMs - at(size_ - 1).startMs < kGranularityMs) return;
    if (size_ == ring_.size()) {  // full: double it, the live run moved to its start
        std::vector<Bucket> bigger(ring_.empty() ? 4 : ring_.size() * 2);
        for (std::size_t i = 0; i < size_; ++i) bigger[i] = at(i);
        ring_ = std::move(bigger);
        head_ = 0;
    }
    ++size_;
    at(size_ - 1) = Bucket{nowMs, 0, 0};
}

AdmissionWindow::Counts AdmissionWindow::counts(double nowMs) {
    update(nowMs);
    return Counts{requests_, successes_};
}

void AdmissionWindow::record(double nowMs, bool success) {
    update(nowMs);
    Bucket& newest = at(size_ - 1);
    ++newest.requests;
    ++requests_;
    if (success) {
        ++newest.successes;
        ++successes_;
    }
}

std::uint64_t AdmissionWindow::averageRps(double nowMs) const {
    if (size_ == 0 || requests_ == 0) return 0;
    // Whole seconds: the window's, or the oldest bucket's age if longer (it can be: no update first).
    const double windowS = std::floor(windowMs_ / 1000);
    const double ageS = std::floor((nowMs - at(0).startMs) / 1000);
    const auto seconds = static_cast<std::uint64_t>(std::max(windowS, ageS));
    return requests_ / seconds;
}

// --- §7.2 the rejection probability ---------------------------------------------------------------

double rejectionProbability(double requests, double successes, double threshold, double aggression,
                            double maxProbability) {
    const double q = requests - successes / threshold;
    double p = q / (requests + 1);
    // p^(1 / aggression) as exp(ln(p) / aggression) with FLEET §2's ln and docs/servers.md §3.1's
    // exp, for p in (0, 1); p itself at 0; below 0 (or NaN: srThreshold 0 with no success, 0 / 0)
    // nothing is rejected, as Envoy's std::pow of a negative base gives NaN, which never rejects.
    if (!(p > 0)) return 0;
    if (aggression != 1) p = streams::exactExp(streams::ln(p) / aggression);
    return std::min(p, maxProbability);
}

bool rejects(double probability, double draw) {
    const double k = std::floor(draw * 10000);
    return 10000 * std::max(probability, 0.0) > k;
}

}  // namespace retrylab::throttling
