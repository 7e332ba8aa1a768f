// The client's retry policy, shared by the single run and the herd: how a wait is made and
// when the run stops (SPEC §4).
#pragma once

#include <optional>
#include <string>

#include "random.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

bool isWrite(Operation operation);
FailureClass classify(int status);
// Whether what the client saw is retried: its class is in retryOn, or its status is listed
// in retryOnStatuses, or it is listed in retryAfterStatuses and carries a Retry-After.
bool retries(const Inputs& in, FailureClass cls, std::optional<int> status, bool hasRetryAfter);

// ceiling(n) = min(maxBackoffMs, baseBackoffMs × backoffMultiplier^(n−1)).
double ceilingFor(const Inputs& in, int failureNumber);
// The ceiling before the cap: the schedule's entry, or base × multiplier^(n−1).
double uncappedCeiling(const Inputs& in, int failureNumber);

struct WaitChoice {
    double waitMs = 0;
    std::string rule;                // "Retry-After: 2 (header wins)", "ceiling 1000 ms × draw 0.40", ...
    std::optional<double> ceilingMs;
    std::optional<double> draw;
    bool fromHeader = false;         // an honoured Retry-After decided the wait
};

// How the wait after failure number `failureNumber` is made, decided before any draw: an
// honoured Retry-After (replacing the backoff, or as its floor), an immediate first retry, or
// the backoff from this ceiling. The herd plans once and computes a million waits from it.
struct WaitPlan {
    enum class Kind { Header, Immediate, Backoff };
    Kind kind = Kind::Backoff;
    double headerMs = 0;         // the header's wait (Header), or the floor (headerFloor)
    bool headerFloor = false;    // retryAfterMode "at-least" with an honoured header
    bool headerIgnored = false;  // an honoured header over retryAfterMaxMs
    double ceilingMs = 0;        // Backoff
    double previousMs = 0;       // the decorrelated rule's previous wait
    bool usesDraw = false;       // Backoff with jitter: waitFor needs a draw
};

// `previousDecorrelated` is the last wait the decorrelated rule produced (baseBackoffMs before
// the first).
WaitPlan planWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                  double previousDecorrelated);

// The wait a plan gives for draw `d` (unused when the plan needs none). When the decorrelated
// rule runs, what it produced goes to `*decorrelated`.
double waitFor(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated = nullptr);

// The backoff's jitter rule alone for draw `d`, before the minimum and the header's floor.
// When the decorrelated rule runs, what it produced goes to `*decorrelated`.
double jittered(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated);

// The sentence for a wait already made (wait_text.cpp): how the plan and the draw gave
// `choice.waitMs`. `header` is the Retry-After seen, if any.
std::string describeWait(const Inputs& in, int failureNumber, const WaitPlan& plan, const WaitChoice& choice,
                         const RetryAfterSeen* header);

// The wait after failure number `failureNumber`, with its ceiling, draw and sentence: the plan,
// one draw from `draws` when it needs one, and `waitFor`.
// `describe` false leaves `rule` empty.
WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream& draws, bool describe = true);

// The stop reasons checked before any wait is made, in the spec's order: success,
// not-retryable, write-without-key, attempt-limit. Nothing when the run may go on.
// `status` is the status the client received (none on a timeout); `hasRetryAfter` whether it
// carried a Retry-After header.
std::optional<StopReason> stopBeforeWaiting(const Inputs& in, int attempt, FailureClass seen,
                                            std::optional<int> status, bool hasRetryAfter);

}  // namespace retrylab
