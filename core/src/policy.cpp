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

}  // namespace

// The ceiling before the cap: the schedule's entry, or base × multiplier^(n−1).
double uncappedCeiling(const Inputs& in, int failureNumber) {
    if (!in.ceilingScheduleMs.empty())
        return in.ceilingScheduleMs[std::min(in.ceilingScheduleMs.size(), static_cast<std::size_t>(failureNumber)) - 1];
    return in.baseBackoffMs * power(in.backoffMultiplier, failureNumber - 1);
}

double ceilingFor(const Inputs& in, int failureNumber) {
    double ceiling = uncappedCeiling(in, failureNumber);
    return in.maxBackoffMs ? std::min(*in.maxBackoffMs, ceiling) : ceiling;
}

namespace {

// The backoff alone (no header): the jitter rule, then the minimum.
WaitChoice backoff(const Inputs& in, int failureNumber, double& previousDecorrelated, DrawStream& draws) {
    WaitChoice choice;
    if (in.firstRetryImmediate && failureNumber == 1) {
        choice.rule = "first retry at once";
        return choice;
    }
    const std::string capped = in.maxBackoffMs ? ", capped at " + ms(*in.maxBackoffMs) : "";
    const std::string atMost = in.maxBackoffMs ? ", at most " + ms(*in.maxBackoffMs) : "";
    const double ceiling = ceilingFor(in, failureNumber);
    switch (in.jitter) {
        case Jitter::None:
            choice.waitMs = ceiling;
            choice.ceilingMs = ceiling;
            if (!in.ceilingScheduleMs.empty())
                choice.rule = "scheduled ceiling " + ms(ceiling);
            else
                choice.rule = ms(in.baseBackoffMs) + " × " + formatMs(in.backoffMultiplier, 6) + "^" +
                              formatInt(failureNumber - 1);
            if (in.maxBackoffMs && uncappedCeiling(in, failureNumber) > ceiling) choice.rule += capped;
            break;
        case Jitter::Full: {
            double d = draws.next();
            choice.waitMs = ceiling * d;
            choice.ceilingMs = ceiling;
            choice.draw = d;
            choice.rule = "ceiling " + ms(ceiling) + " × draw " + formatDraw(d);
            break;
        }
        case Jitter::Equal: {
            double d = draws.next();
            choice.waitMs = ceiling / 2 + ceiling / 2 * d;
            choice.ceilingMs = ceiling;
            choice.draw = d;
            choice.rule = "ceiling " + ms(ceiling) + " / 2 + " + ms(ceiling / 2) + " × draw " + formatDraw(d);
            break;
        }
        case Jitter::Proportional: {
            double d = draws.next();
            choice.waitMs = ceiling * (in.jitterLow + (in.jitterHigh - in.jitterLow) * d);
            choice.ceilingMs = ceiling;
            choice.draw = d;
            choice.rule = "ceiling " + ms(ceiling) + " × (" + formatMs(in.jitterLow, 6) + " + " +
                          formatMs(in.jitterHigh - in.jitterLow, 6) + " × draw " + formatDraw(d) + ")";
            break;
        }
        case Jitter::Decorrelated: {
            double previous = previousDecorrelated;
            double d = draws.next();
            double wait = in.baseBackoffMs + d * (3 * previous - in.baseBackoffMs);
            double upper = 3 * previous;
            if (in.maxBackoffMs) {
                wait = std::min(*in.maxBackoffMs, wait);
                upper = std::min(*in.maxBackoffMs, upper);
            }
            previousDecorrelated = wait;
            choice.waitMs = wait;
            choice.ceilingMs = upper;
            choice.draw = d;
            choice.rule = ms(in.baseBackoffMs) + " + draw " + formatDraw(d) + " × (3 × " + ms(previous) + " − " +
                          ms(in.baseBackoffMs) + ")" + atMost;
            break;
        }
    }
    if (choice.waitMs < in.minBackoffMs) {
        choice.waitMs = in.minBackoffMs;
        choice.rule += ", raised to the " + ms(in.minBackoffMs) + " minimum";
    }
    return choice;
}

}  // namespace

WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream& draws) {
    const bool headerApplies = in.honourRetryAfter && retryAfter && retryAfter->waitMs &&
                               (!in.retryAfterMaxMs || *retryAfter->waitMs <= *in.retryAfterMaxMs);
    if (headerApplies && in.retryAfterMode == RetryAfterMode::Replace) {
        WaitChoice choice;
        choice.waitMs = *retryAfter->waitMs;
        choice.rule = "Retry-After: " + trimmed(retryAfter->raw) + " (header wins)";
        return choice;
    }
    WaitChoice choice = backoff(in, failureNumber, previousDecorrelated, draws);
    if (headerApplies) {  // at least the header's wait
        if (*retryAfter->waitMs >= choice.waitMs) {
            choice.rule = "Retry-After: " + trimmed(retryAfter->raw) + " (at least the header; backoff " + ms(choice.waitMs) + ")";
            choice.waitMs = *retryAfter->waitMs;
        } else {
            choice.rule += " (more than Retry-After: " + trimmed(retryAfter->raw) + ")";
        }
    } else if (in.honourRetryAfter && retryAfter && retryAfter->waitMs) {
        choice.rule += " (Retry-After over the " + ms(*in.retryAfterMaxMs) + " maximum is ignored)";
    }
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
