// What both fleet loops (fleet_service.cpp, fleet_layers.cpp) read the same way: the bin of a time
// (FLEET.md §8) and the latency percentiles of the totals.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "retrylab/fleet.hpp"

namespace retrylab {

// The bin b with b × binMs ≤ t < (b + 1) × binMs, exactly (the division may round). Events come
// in time order, so the last bin found usually holds the next time too: it is kept.
class BinClock {
public:
    explicit BinClock(double binMs) : binMs_(binMs) {}
    std::size_t of(double t) {
        if (t >= lo_ && t < hi_) return index_;
        double b = std::floor(t / binMs_);
        if (b * binMs_ > t) b -= 1;
        if ((b + 1) * binMs_ <= t) b += 1;
        index_ = static_cast<std::size_t>(b);
        lo_ = b * binMs_;
        hi_ = (b + 1) * binMs_;
        return index_;
    }

private:
    double binMs_;
    std::size_t index_ = 0;
    double lo_ = 1, hi_ = 0;  // none kept yet
};

// FLEET.md §8's percentiles of the successes' latencies (sorted here): the ⌈q × n⌉-th smallest.
inline Latency latencyOf(std::vector<double>& latencies) {
    std::sort(latencies.begin(), latencies.end());
    const std::size_t count = latencies.size();
    auto rank = [count](std::size_t percent) { return (percent * count + 99) / 100; };
    Latency l;
    l.p50 = latencies[rank(50) - 1];
    l.p90 = latencies[rank(90) - 1];
    l.p99 = latencies[rank(99) - 1];
    l.max = latencies.back();
    return l;
}

}  // namespace retrylab
