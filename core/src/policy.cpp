#include "policy.hpp"

#include <algorithm>
#include <cmath>


namespace retrylab {

bool isWrite(Operation operation) { return operation != Operation::Read; }

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

double uncappedCeiling(const Inputs& in, int failureNumber) {
    if (!in.ceilingScheduleMs.empty())
        return in.ceilingScheduleMs[std::min(in.ceilingScheduleMs.size(), static_cast<std::size_t>(failureNumber)) - 1];
    return in.baseBackoffMs * power(in.backoffMultiplier, failureNumber - 1);
}

double ceilingFor(const Inputs& in, int failureNumber) {
    double ceiling = uncappedCeiling(in, failureNumber);
    return in.maxBackoffMs ? std::min(*in.maxBackoffMs, ceiling) : ceiling;
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
    const double ceiling = plan.ceilingMs;
    switch (in.jitter) {
        case Jitter::None: return ceiling;
        case Jitter::Full: return ceiling * d;
        case Jitter::Equal: return ceiling / 2 + ceiling / 2 * d;
        case Jitter::Proportional: return ceiling * (in.jitterLow + (in.jitterHigh - in.jitterLow) * d);
        case Jitter::Decorrelated: {
            double wait = in.baseBackoffMs + d * (3 * plan.previousMs - in.baseBackoffMs);
            if (in.maxBackoffMs) wait = std::min(*in.maxBackoffMs, wait);
            if (decorrelated) *decorrelated = wait;
            return wait;
        }
    }
    return ceiling;
}

double waitFor(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated) {
    if (plan.kind == WaitPlan::Kind::Header) return plan.headerMs;
    double wait = 0;
    // The minimum raises a backoff, never a header's wait nor an immediate first retry.
    if (plan.kind == WaitPlan::Kind::Backoff) wait = std::max(jittered(in, plan, d, decorrelated), in.minBackoffMs);
    return plan.headerFloor ? std::max(wait, plan.headerMs) : wait;
}

WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream& draws, bool describe) {
    const WaitPlan plan = planWait(in, failureNumber, retryAfter, previousDecorrelated);
    WaitChoice choice;
    double d = 0;
    if (plan.kind == WaitPlan::Kind::Backoff) {
        choice.ceilingMs = plan.ceilingMs;
        if (in.jitter == Jitter::Decorrelated)
            choice.ceilingMs = in.maxBackoffMs ? std::min(*in.maxBackoffMs, 3 * plan.previousMs) : 3 * plan.previousMs;
        if (plan.usesDraw) choice.draw = d = draws.next();
    }
    choice.waitMs = waitFor(in, plan, d, &previousDecorrelated);
    // The header decides when it replaces the backoff, or when, as a floor, it is not below it
    // (the sentence then begins "Retry-After:" as well).
    choice.fromHeader = plan.kind == WaitPlan::Kind::Header || (plan.headerFloor && choice.waitMs == plan.headerMs);
    if (describe) choice.rule = describeWait(in, failureNumber, plan, choice, retryAfter ? &*retryAfter : nullptr);
    return choice;
}

std::optional<StopReason> stopBeforeWaiting(const Inputs& in, int attempt, FailureClass seen,
                                            std::optional<int> status, bool hasRetryAfter) {
    if (seen == FailureClass::Success) return StopReason::Success;
    if (!retries(in, seen, status, hasRetryAfter)) return StopReason::NotRetryable;
    if (isWrite(in.operation) && !in.idempotencyKey && !in.retryWritesWithoutKey) return StopReason::WriteWithoutKey;
    if (attempt >= in.maxRetries + 1) return StopReason::AttemptLimit;
    return std::nullopt;
}

}  // namespace retrylab
