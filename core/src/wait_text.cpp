// The sentences that say how a wait was made ("ceiling 1000 ms × draw 0.40"). Apart from the
// arithmetic in policy.cpp, which the herd runs a million times: the WebAssembly engine builds
// this file for size and that one for speed (bindings/wasm/CMakeLists.txt).
#include <algorithm>
#include <string>

#include "format.hpp"
#include "policy.hpp"

namespace retrylab {

namespace {

std::string ms(double value) { return formatMs(value) + " ms"; }

std::string trimmed(const std::string& raw) {
    std::size_t begin = raw.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    return raw.substr(begin, raw.find_last_not_of(" \t") - begin + 1);
}

// How a backoff wait was made, before the minimum and the header: "ceiling 1000 ms × draw 0.40".
std::string backoffRule(const Inputs& in, int failureNumber, const WaitPlan& plan, const WaitChoice& choice) {
    const double ceiling = choice.ceilingMs.value_or(0);
    const std::string draw = choice.draw ? formatDraw(*choice.draw) : "";
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
        case Jitter::Full: return "ceiling " + ms(ceiling) + " × draw " + draw;
        case Jitter::Equal: return "ceiling " + ms(ceiling) + " / 2 + " + ms(ceiling / 2) + " × draw " + draw;
        case Jitter::Proportional:
            return "ceiling " + ms(ceiling) + " × (" + formatMs(in.jitterLow, 6) + " + " +
                   formatMs(in.jitterHigh - in.jitterLow, 6) + " × draw " + draw + ")";
        case Jitter::Decorrelated:
            return ms(in.baseBackoffMs) + " + draw " + draw + " × (3 × " + ms(plan.previousMs) + " − " +
                   ms(in.baseBackoffMs) + ")" + (in.maxBackoffMs ? ", at most " + ms(*in.maxBackoffMs) : "");
    }
    return "";
}

}  // namespace

std::string describeWait(const Inputs& in, int failureNumber, const WaitPlan& plan, const WaitChoice& choice,
                         const RetryAfterSeen* header) {
    if (plan.kind == WaitPlan::Kind::Header) return "Retry-After: " + trimmed(header->raw) + " (header wins)";
    std::string rule;
    double backoffMs = 0;  // the wait before the header's floor
    if (plan.kind == WaitPlan::Kind::Immediate) {
        rule = "first retry at once";
    } else {
        rule = backoffRule(in, failureNumber, plan, choice);
        const double raw = jittered(in, plan, choice.draw.value_or(0), nullptr);
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

}  // namespace retrylab
