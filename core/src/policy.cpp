#include "policy.hpp"

#include "failure_classes.hpp"

#include <algorithm>
#include <cmath>

namespace retrylab {

bool isWrite(Operation operation) { return operation != Operation::Read; }

bool startsUnderDeadline(const Inputs& in, double start) {
    if (!in.deadlineMs) return true;
    const bool fits = start + in.responseMs <= *in.deadlineMs;
    // "before-deadline" relaxes SPEC's rule and never tightens it: an instant answer
    // (responseMs 0) at exactly the deadline still fits.
    return fits || (in.attemptStart == AttemptStart::BeforeDeadline && start < *in.deadlineMs);
}

bool headerRefusesRetry(const Inputs& in, const std::optional<RetryAfterSeen>& retryAfter) {
    return in.retryAfterOverMax == RetryAfterOverMax::Stop && in.honourRetryAfter && retryAfter && retryAfter->waitMs &&
           in.retryAfterMaxMs && *retryAfter->waitMs > *in.retryAfterMaxMs;
}

FailureClass classify(int status) {
    if (status >= 200 && status <= 299) return FailureClass::Success;
    if (status == 429) return FailureClass::TooManyRequests;
    if (status >= 500 && status <= 599) return FailureClass::ServerError;
    if (status >= 400 && status <= 499) return FailureClass::ClientError;
    return FailureClass::Other;
}

namespace {
bool classRetried(const RetryOn& retryOn, FailureClass cls) {
    switch (cls) {
        case FailureClass::Timeout: return retryOn.timeout;
        case FailureClass::TooManyRequests: return retryOn.tooManyRequests;
        case FailureClass::ServerError: return retryOn.serverError;
        case FailureClass::ClientError: return retryOn.clientError;
        // docs/servers.md §5: a refusal or a reset, by its own name or by 5xx.
        case FailureClass::Refused:
        case FailureClass::Reset:
            return (cls == FailureClass::Refused ? retryOn.refused : retryOn.reset) ||
                   (coveredBy5xx(cls) && retryOn.serverError);
        case FailureClass::Success:
        case FailureClass::Other: return false;
    }
    return false;
}

bool listed(const std::vector<int>& statuses, std::optional<int> status) {
    return status && std::find(statuses.begin(), statuses.end(), *status) != statuses.end();
}
}  // namespace

bool retries(const Inputs& in, FailureClass cls, std::optional<int> status, bool hasRetryAfter) {
    if (cls == FailureClass::Success) return false;
    return classRetried(in.retryOn, cls) || listed(in.retryOnStatuses, status) ||
           (hasRetryAfter && listed(in.retryAfterStatuses, status));
}

namespace {

// multiplier^exponent by repeated multiplication: the same bits on every platform, where
// std::pow may differ between C libraries in the last place.
double power(double base, int exponent) {
    double result = 1;
    for (int i = 0; i < exponent; ++i) result *= base;
    return result;
}

}  // namespace

Backoff backoffOf(const Inputs& in) {
    Backoff b;
    b.baseBackoffMs = in.baseBackoffMs;
    b.backoffMultiplier = in.backoffMultiplier;
    b.maxBackoffMs = in.maxBackoffMs;
    b.jitter = in.jitter;
    b.jitterLow = in.jitterLow;
    b.jitterHigh = in.jitterHigh;
    b.ceilingScheduleMs = &in.ceilingScheduleMs;
    return b;
}

double uncappedCeiling(const Backoff& b, int failureNumber) {
    if (b.ceilingScheduleMs && !b.ceilingScheduleMs->empty())
        return (
            *b.ceilingScheduleMs)[std::min(b.ceilingScheduleMs->size(), static_cast<std::size_t>(failureNumber)) - 1];
    // FLEET.md §4: 0 when the base is 0 (so a power that overflows cannot make 0 × ∞).
    if (b.baseBackoffMs == 0) return 0;
    return b.baseBackoffMs * power(b.backoffMultiplier, failureNumber - 1);
}

double ceilingFor(const Backoff& b, int failureNumber) {
    if (b.maxBackoffMs && !(b.ceilingScheduleMs && !b.ceilingScheduleMs->empty()) && b.baseBackoffMs != 0) {
        // With a cap the power need not be formed past it: each factor is at least 1, so once
        // base × P reaches the cap every later ceiling is the cap too (rounding is monotone).
        // The fleet's occ clients fail thousands of times; this keeps each ceiling a few steps.
        const double cap = *b.maxBackoffMs;
        double p = 1;
        for (int i = 0; i < failureNumber - 1; ++i) {
            if (b.baseBackoffMs * p >= cap) return cap;
            if (b.backoffMultiplier == 1) break;
            p *= b.backoffMultiplier;
        }
        return std::min(cap, b.baseBackoffMs * p);
    }
    double ceiling = uncappedCeiling(b, failureNumber);
    return b.maxBackoffMs ? std::min(*b.maxBackoffMs, ceiling) : ceiling;
}

double uncappedCeiling(const Inputs& in, int failureNumber) { return uncappedCeiling(backoffOf(in), failureNumber); }
double ceilingFor(const Inputs& in, int failureNumber) { return ceilingFor(backoffOf(in), failureNumber); }

double jitteredWait(const Backoff& b, double ceiling, double previousMs, double d) {
    switch (b.jitter) {
        case Jitter::None: return ceiling;
        case Jitter::Full: return ceiling * d;
        case Jitter::Equal: return ceiling / 2 + ceiling / 2 * d;
        case Jitter::Proportional: return ceiling * (b.jitterLow + (b.jitterHigh - b.jitterLow) * d);
        case Jitter::Decorrelated: {
            double wait = b.baseBackoffMs + d * (3 * previousMs - b.baseBackoffMs);
            if (b.maxBackoffMs) wait = std::min(*b.maxBackoffMs, wait);
            return wait;
        }
    }
    return ceiling;
}

WaitPlan planWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                  double previousDecorrelated) {
    WaitPlan plan;
    const bool headerHonoured = in.honourRetryAfter && retryAfter && retryAfter->waitMs;
    const bool headerApplies = headerHonoured && (!in.retryAfterMaxMs || *retryAfter->waitMs <= *in.retryAfterMaxMs);
    plan.headerIgnored = headerHonoured && !headerApplies;
    if (headerApplies) {
        plan.headerMs = *retryAfter->waitMs;
        if (in.retryAfterMode == RetryAfterMode::Replace) {
            plan.kind = WaitPlan::Kind::Header;
            return plan;
        }
        plan.headerFloor = true;
    }
    if (in.firstRetryImmediate && failureNumber == 1) {
        plan.kind = WaitPlan::Kind::Immediate;
        return plan;
    }
    plan.kind = WaitPlan::Kind::Backoff;
    plan.ceilingMs = ceilingFor(in, failureNumber);
    plan.previousMs = previousDecorrelated;
    plan.usesDraw = in.jitter != Jitter::None;
    return plan;
}

double jittered(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated) {
    const double wait = jitteredWait(backoffOf(in), plan.ceilingMs, plan.previousMs, d);
    if (decorrelated && in.jitter == Jitter::Decorrelated) *decorrelated = wait;
    return wait;
}

double waitFor(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated, bool* raised) {
    if (plan.kind == WaitPlan::Kind::Header) return plan.headerMs;
    double wait = 0;
    // The minimum raises a backoff, never a header's wait nor an immediate first retry.
    if (plan.kind == WaitPlan::Kind::Backoff) {
        wait = jittered(in, plan, d, decorrelated);
        if (raised) *raised = wait < in.minBackoffMs;
        wait = std::max(wait, in.minBackoffMs);
    }
    return plan.headerFloor ? std::max(wait, plan.headerMs) : wait;
}

WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream* draws, double addressed, bool describe) {
    const WaitPlan plan = planWait(in, failureNumber, retryAfter, previousDecorrelated);
    WaitChoice choice;
    double d = 0;
    if (plan.kind == WaitPlan::Kind::Backoff) {
        choice.ceilingMs = plan.ceilingMs;
        if (in.jitter == Jitter::Decorrelated)
            choice.ceilingMs = in.maxBackoffMs ? std::min(*in.maxBackoffMs, 3 * plan.previousMs) : 3 * plan.previousMs;
        if (plan.usesDraw) choice.draw = d = draws ? draws->next() : addressed;
    }
    bool raised = false;
    choice.waitMs = waitFor(in, plan, d, &previousDecorrelated, &raised);
    // The header decides when it replaces the backoff, or when, as a floor, it is not below it
    // (the sentence then begins "Retry-After:" as well).
    choice.fromHeader = plan.kind == WaitPlan::Kind::Header || (plan.headerFloor && choice.waitMs == plan.headerMs);
    // docs/engine.md §5's waitShape: the first that holds.
    if (choice.fromHeader)
        choice.shape = WaitShape::Header;
    else if (plan.headerIgnored)
        choice.shape = WaitShape::HeaderOverMax;
    else if (plan.headerFloor)
        choice.shape = WaitShape::AboveHeader;
    else if (plan.kind == WaitPlan::Kind::Immediate)
        choice.shape = WaitShape::Immediate;
    else if (raised)
        choice.shape = WaitShape::Minimum;
    if (describe) choice.rule = describeWait(in, failureNumber, plan, choice, retryAfter ? &*retryAfter : nullptr);
    return choice;
}

std::optional<StopReason> stopBeforeWaiting(const Inputs& in, bool keyed, int attempt, FailureClass seen,
                                            std::optional<int> status, bool hasRetryAfter, bool headerRefuses) {
    if (seen == FailureClass::Success) return StopReason::Success;
    if (headerRefuses || !retries(in, seen, status, hasRetryAfter)) return StopReason::NotRetryable;
    if (isWrite(in.operation) && !keyed && !in.retryWritesWithoutKey) return StopReason::WriteWithoutKey;
    if (attempt >= in.maxRetries + 1) return StopReason::AttemptLimit;
    return std::nullopt;
}

}  // namespace retrylab
