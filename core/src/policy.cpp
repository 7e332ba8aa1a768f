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

bool retries(const RetryOn& retryOn, FailureClass cls) {
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

double ceilingFor(const Inputs& in, int failureNumber) {
    double ceiling = in.baseBackoffMs * power(in.backoffMultiplier, failureNumber - 1);
    return in.maxBackoffMs ? std::min(*in.maxBackoffMs, ceiling) : ceiling;
}

WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream& draws) {
    WaitChoice choice;
    if (in.honourRetryAfter && retryAfter && retryAfter->waitMs) {
        choice.waitMs = *retryAfter->waitMs;
        choice.rule = "Retry-After: " + trimmed(retryAfter->raw) + " (header wins)";
        return choice;
    }
    const std::string capped = in.maxBackoffMs ? ", capped at " + ms(*in.maxBackoffMs) : "";
    const std::string atMost = in.maxBackoffMs ? ", at most " + ms(*in.maxBackoffMs) : "";
    switch (in.jitter) {
        case Jitter::None: {
            double ceiling = ceilingFor(in, failureNumber);
            choice.waitMs = ceiling;
            choice.ceilingMs = ceiling;
            choice.rule = ms(in.baseBackoffMs) + " × " + formatMs(in.backoffMultiplier, 6) + "^" +
                          formatInt(failureNumber - 1);
            if (in.maxBackoffMs && ceiling == *in.maxBackoffMs &&
                in.baseBackoffMs * power(in.backoffMultiplier, failureNumber - 1) > ceiling)
                choice.rule += capped;
            return choice;
        }
        case Jitter::Full: {
            double ceiling = ceilingFor(in, failureNumber);
            double d = draws.next();
            choice.waitMs = ceiling * d;
            choice.ceilingMs = ceiling;
            choice.draw = d;
            choice.rule = "ceiling " + ms(ceiling) + " × draw " + formatDraw(d);
            return choice;
        }
        case Jitter::Equal: {
            double ceiling = ceilingFor(in, failureNumber);
            double d = draws.next();
            choice.waitMs = ceiling / 2 + ceiling / 2 * d;
            choice.ceilingMs = ceiling;
            choice.draw = d;
            choice.rule = "ceiling " + ms(ceiling) + " / 2 + " + ms(ceiling / 2) + " × draw " + formatDraw(d);
            return choice;
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
            return choice;
        }
    }
    return choice;
}

std::optional<StopReason> stopBeforeWaiting(const Inputs& in, int attempt, FailureClass seen) {
    if (seen == FailureClass::Success) return StopReason::Success;
    if (!retries(in.retryOn, seen)) return StopReason::NotRetryable;
    if (isWrite(in.operation) && !in.idempotencyKey && !in.retryWritesWithoutKey) return StopReason::WriteWithoutKey;
    if (attempt >= in.maxRetries + 1) return StopReason::AttemptLimit;
    return std::nullopt;
}

}  // namespace retrylab
