#include "policy.hpp"

#include <algorithm>
#include <cmath>

#include "format.hpp"

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

std::string ms(double value) { return formatMs(value) + " ms"; }

std::string trimmed(const std::string& raw) {
    std::size_t begin = raw.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    return raw.substr(begin, raw.find_last_not_of(" \t") - begin + 1);
}

// The ceiling before the cap: the schedule's entry, or base × multiplier^(n−1).
double uncappedCeiling(const Inputs& in, int failureNumber) {
    if (!in.ceilingScheduleMs.empty())
        return in.ceilingScheduleMs[std::min(in.ceilingScheduleMs.size(), static_cast<std::size_t>(failureNumber)) - 1];
    return in.baseBackoffMs * power(in.backoffMultiplier, failureNumber - 1);
}

}  // namespace

double ceilingFor(const Inputs& in, int failureNumber) {
    double ceiling = uncappedCeiling(in, failureNumber);
    return in.maxBackoffMs ? std::min(*in.maxBackoffMs, ceiling) : ceiling;
}

namespace {

// How a backoff wait other than decorrelated was made, in words: "ceiling 1000 ms × draw 0.40".
std::string backoffRule(const Inputs& in, int failureNumber, const WaitChoice& choice) {
    const double ceiling = *choice.ceilingMs;
    switch (in.jitter) {
        case Jitter::None: {
            std::string rule = !in.ceilingScheduleMs.empty()
                                   ? "scheduled ceiling " + ms(ceiling)
                                   : ms(in.baseBackoffMs) + " × " + formatMs(in.backoffMultiplier, 6) + "^" +
                                         formatInt(failureNumber - 1);
            if (in.maxBackoffMs && uncappedCeiling(in, failureNumber) > ceiling)
                rule += ", capped at " + ms(*in.maxBackoffMs);
            return rule;
        }
        case Jitter::Full: return "ceiling " + ms(ceiling) + " × draw " + formatDraw(*choice.draw);
        case Jitter::Equal:
            return "ceiling " + ms(ceiling) + " / 2 + " + ms(ceiling / 2) + " × draw " + formatDraw(*choice.draw);
        case Jitter::Proportional:
            return "ceiling " + ms(ceiling) + " × (" + formatMs(in.jitterLow, 6) + " + " +
                   formatMs(in.jitterHigh - in.jitterLow, 6) + " × draw " + formatDraw(*choice.draw) + ")";
        case Jitter::Decorrelated: break;
    }
    return "";
}

}  // namespace

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

namespace {

// The backoff's jitter rule alone, before the minimum and the header's floor.
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

}  // namespace

double waitFor(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated) {
    if (plan.kind == WaitPlan::Kind::Header) return plan.headerMs;
    double wait = 0;
    // The minimum raises a backoff, never a header's wait nor an immediate first retry.
    if (plan.kind == WaitPlan::Kind::Backoff) wait = std::max(jittered(in, plan, d, decorrelated), in.minBackoffMs);
    return plan.headerFloor ? std::max(wait, plan.headerMs) : wait;
}

namespace {

// The sentence for a wait already made: how the plan and the draw gave `waitMs`.
std::string describeWait(const Inputs& in, int failureNumber, const WaitPlan& plan, const WaitChoice& choice,
                         const RetryAfterSeen* header) {
    if (plan.kind == WaitPlan::Kind::Header) return "Retry-After: " + trimmed(header->raw) + " (header wins)";
    std::string rule;
    double backoffMs = 0;  // the wait before the header's floor
    if (plan.kind == WaitPlan::Kind::Immediate) {
        rule = "first retry at once";
    } else {
        if (in.jitter == Jitter::Decorrelated) {
            rule = ms(in.baseBackoffMs) + " + draw " + formatDraw(*choice.draw) + " × (3 × " + ms(plan.previousMs) +
                   " − " + ms(in.baseBackoffMs) + ")" + (in.maxBackoffMs ? ", at most " + ms(*in.maxBackoffMs) : "");
        } else {
            rule = backoffRule(in, failureNumber, choice);
        }
        double raw = jittered(in, plan, choice.draw.value_or(0), nullptr);
        if (raw < in.minBackoffMs) rule += ", raised to the " + ms(in.minBackoffMs) + " minimum";
        backoffMs = std::max(raw, in.minBackoffMs);
    }
    if (plan.headerFloor) {
        if (plan.headerMs >= backoffMs)
            return "Retry-After: " + trimmed(header->raw) + " (at least the header; backoff " + ms(backoffMs) + ")";
        return rule + " (more than Retry-After: " + trimmed(header->raw) + ")";
    }
    if (plan.headerIgnored) rule += " (Retry-After over the " + ms(*in.retryAfterMaxMs) + " maximum is ignored)";
    return rule;
}

}  // namespace

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
