// SPEC §6: many callers receive the scenario's first answer at the same instant; where do
// their first retries land?
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "policy.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

namespace {

// Caller by caller, the first wait (or nothing when that caller does not retry). Each call
// walks a fresh draw stream, so two passes see the same waits without storing a million.
template <typename Visit>
void forEachFirstWait(const Inputs& in, const AttemptRow& first, Visit visit) {
    DrawStream draws(in.draws, in.seed);
    for (std::uint32_t caller = 0; caller < in.callers; ++caller) {
        double previous = in.baseBackoffMs;
        double wait = chooseWait(in, 1, first.retryAfter, previous, draws).waitMs;
        bool overBudget = in.waitBudgetMs && wait > *in.waitBudgetMs;
        bool pastDeadline = in.deadlineMs && first.endMs + wait + in.responseMs > *in.deadlineMs;
        visit(overBudget || pastDeadline ? std::optional<double>() : std::optional<double>(wait));
    }
}

}  // namespace

Herd simulateHerd(const Inputs& in, const Run& single) {
    Herd herd;
    herd.callers = in.callers;
    const double firstCeiling = ceilingFor(in, 1);
    // Every caller sees what the single caller saw first; the policy alone decides whether any retries.
    bool anyRetry = !single.attempts.empty();
    if (anyRetry) {
        const AttemptRow& first = single.attempts.front();
        std::optional<int> status;
        if (first.clientSaw != "timeout") status = std::atoi(first.clientSaw.c_str());
        FailureClass seen = status ? classify(*status) : FailureClass::Timeout;
        bool hasRetryAfter = first.retryAfter && first.retryAfter->raw.find_first_not_of(" \t") != std::string::npos;
        anyRetry = !stopBeforeWaiting(in, 1, seen, status, hasRetryAfter);
    }

    double longest = 0;
    std::uint32_t retried = 0;
    if (anyRetry) {
        forEachFirstWait(in, single.attempts.front(), [&](std::optional<double> wait) {
            if (!wait) return;
            ++retried;
            longest = std::max(longest, *wait);
        });
    }
    herd.notRetried = in.callers - retried;

    const double range = std::max(firstCeiling, longest);
    while (std::ceil(range / herd.bucketMs) > 100) herd.bucketMs *= 2;
    const auto count = static_cast<std::size_t>(std::max(1.0, std::ceil(range / herd.bucketMs)));
    herd.buckets.assign(count, 0);
    if (retried > 0) {
        forEachFirstWait(in, single.attempts.front(), [&](std::optional<double> wait) {
            if (!wait) return;
            // Buckets are [from, to), but the last one is closed: a wait of exactly the range lands in it.
            auto index = static_cast<std::size_t>(std::floor(*wait / herd.bucketMs));
            ++herd.buckets[std::min(index, count - 1)];
        });
    }
    for (std::uint32_t b : herd.buckets) {
        herd.occupied += b > 0;
        herd.fullest = std::max(herd.fullest, b);
    }
    return herd;
}

}  // namespace retrylab
