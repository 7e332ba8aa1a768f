// What both fleet loops (fleet_service.cpp, fleet_layers.cpp) read the same way: the bin of a time
// (FLEET.md §8), the state each bin reports at its end, and the latency percentiles of the totals.
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

// FLEET.md §8's state of a bin (the queue, the attempts in service, the fleet's tokens, and what
// the loop adds) is the state after the last event before the bin's end: each bin is written once,
// in order, by the loop's `write(b)`, when the loop reaches a later bin's time or the run ends.
class BinStates {
public:
    explicit BinStates(double binMs) : clock_(binMs) {}
    // The bin of t (BinClock).
    std::size_t of(double t) { return clock_.of(t); }
    // Writes every bin before the one at time t that is not written yet.
    template <class Write>
    void advanceTo(double t, Write write) {
        const std::size_t b = clock_.of(t);
        while (next_ < b) write(next_++);
    }
    // The run's end: writes every bin up to the one at endMs, that one included.
    template <class Write>
    void closeAt(double endMs, Write write) {
        const std::size_t last = clock_.of(endMs);
        while (next_ <= last) write(next_++);
    }

private:
    BinClock clock_;
    std::size_t next_ = 0;  // the first bin not written yet
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
