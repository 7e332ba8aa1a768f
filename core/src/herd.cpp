// SPEC §6: many callers receive the scenario's first answer at the same instant; where do
// their first retries land?
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "policy.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

namespace {

constexpr double kFineBucketMs = 100;

// Whether every caller retries after the first answer: they all saw what the single caller saw.
bool callersRetry(const Inputs& in, const Run& single) {
    if (single.attempts.empty()) return false;
    const AttemptRow& first = single.attempts.front();
    std::optional<int> status;
    if (first.clientSaw != "timeout") status = std::atoi(first.clientSaw.c_str());
    FailureClass seen = status ? classify(*status) : FailureClass::Timeout;
    bool hasRetryAfter = first.retryAfter && first.retryAfter->raw.find_first_not_of(" \t") != std::string::npos;
    return !stopBeforeWaiting(in, 1, seen, status, hasRetryAfter, headerRefusesRetry(in, first.retryAfter));
}

}  // namespace

Herd simulateHerd(const Inputs& in, const Run& single) {
    Herd herd;
    herd.callers = in.callers;

    // One pass over the callers, the plan made once: each first wait is counted in a 100 ms
    // bucket; wider buckets are unions of these, since ⌊⌊w/100⌋/2^k⌋ = ⌊w/(100·2^k)⌋ and
    // dividing by a power of two is exact.
    std::vector<std::uint32_t> fine;
    double longest = 0;
    std::uint32_t retried = 0;
    if (callersRetry(in, single)) {
        const AttemptRow& first = single.attempts.front();
        const WaitPlan plan = planWait(in, 1, first.retryAfter, in.baseBackoffMs);
        const double budget = in.waitBudgetMs ? *in.waitBudgetMs : std::numeric_limits<double>::infinity();
        DrawStream draws(in.draws, in.seed);  // caller i takes the stream's i-th draw
        for (std::uint32_t caller = 0; caller < in.callers; ++caller) {
            const double wait = waitFor(in, plan, plan.usesDraw ? draws.next() : 0.0);
            if (wait > budget || !startsUnderDeadline(in, first.endMs + wait)) continue;  // as the single run decides
            ++retried;
            longest = std::max(longest, wait);
            const auto index = static_cast<std::size_t>(std::floor(wait / kFineBucketMs));
            if (index >= fine.size()) fine.resize(index + 1, 0);
            ++fine[index];
        }
    }
    herd.notRetried = in.callers - retried;

    // From 0 up to the larger of ceiling(1) and the longest first wait, the last bucket closed.
    const double range = std::max(ceilingFor(in, 1), longest);
    while (std::ceil(range / herd.bucketMs) > 100) herd.bucketMs *= 2;
    const auto count = static_cast<std::size_t>(std::max(1.0, std::ceil(range / herd.bucketMs)));
    const auto merge = static_cast<std::size_t>(herd.bucketMs / kFineBucketMs);
    herd.buckets.assign(count, 0);
    for (std::size_t j = 0; j < fine.size(); ++j) herd.buckets[std::min(j / merge, count - 1)] += fine[j];
    for (std::uint32_t b : herd.buckets) {
        herd.occupied += b > 0;
        herd.fullest = std::max(herd.fullest, b);
    }
    return herd;
}

}  // namespace retrylab
