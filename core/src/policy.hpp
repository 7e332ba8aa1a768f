// The client's retry policy, shared by the single run and the herd: how a wait is made and
// when the run stops (SPEC §4).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "random.hpp"
#include "retrylab/engine.hpp"

namespace retrylab {

bool isWrite(Operation operation);
// Whether an attempt starting at `start` is sent under the overall deadline (attemptStart):
// "fits", start + responseMs ≤ deadline; "before-deadline", that or start < deadline.
bool startsUnderDeadline(const Inputs& in, double start);
// Whether an honoured Retry-After above retryAfterMaxMs ends the retries
// (retryAfterOverMax "stop", openai-python ≥ 2.52).
bool headerRefusesRetry(const Inputs& in, const std::optional<RetryAfterSeen>& retryAfter);
FailureClass classify(int status);
// Whether what the client saw is retried: its class is in retryOn, or its status is listed
// in retryOnStatuses, or it is listed in retryAfterStatuses and carries a Retry-After.
bool retries(const Inputs& in, FailureClass cls, std::optional<int> status, bool hasRetryAfter);

// SPEC §4's backoff formulas, once for every model that waits: the single run, the herd and
// the fleet (FLEET.md §4 rule 3 and §7 use exactly these). Each model fills one from its own
// inputs; the schedule is borrowed, not copied.
struct Backoff {
    double baseBackoffMs = 0;
    double backoffMultiplier = 1;
    std::optional<double> maxBackoffMs;
    Jitter jitter = Jitter::None;
    double jitterLow = 0, jitterHigh = 1;                    // proportional jitter's range
    const std::vector<double>* ceilingScheduleMs = nullptr;  // null or empty: base × multiplier^(n−1)
};
Backoff backoffOf(const Inputs& in);

// ceiling(n) = min(maxBackoffMs, baseBackoffMs × backoffMultiplier^(n−1)), the power formed as
// 1 × m × … × m (n − 1 factors, left to right).
double ceilingFor(const Backoff& backoff, int failureNumber);
double ceilingFor(const Inputs& in, int failureNumber);
// The ceiling before the cap: the schedule's entry, or base × multiplier^(n−1).
double uncappedCeiling(const Backoff& backoff, int failureNumber);
double uncappedCeiling(const Inputs& in, int failureNumber);

// The jitter rule for draw `d`: none (the ceiling), full, equal, proportional, or decorrelated
// (min(maxBackoffMs, base + d × (3 × previous − base)); `previousMs` its last wait).
double jitteredWait(const Backoff& backoff, double ceilingMs, double previousMs, double d);

struct WaitChoice {
    double waitMs = 0;
    std::string rule;  // "Retry-After: 2 (header wins)", "ceiling 1000 ms × draw 0.40", ...
    std::optional<double> ceilingMs;
    std::optional<double> draw;
    bool fromHeader = false;            // an honoured Retry-After decided the wait
    WaitShape shape = WaitShape::Rule;  // what made the figure (docs/engine.md §5)
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
// rule runs, what it produced goes to `*decorrelated`; `*raised` (when given) says whether the
// minimum raised the backoff rule's figure.
double waitFor(const Inputs& in, const WaitPlan& plan, double d, double* decorrelated = nullptr,
               bool* raised = nullptr);

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
// The draw is taken from `draws` when not null, else it is `addressed` (a layer's draw from its
// addressed stream, docs/layers.md §6, the same whenever it is drawn).
WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream* draws, double addressed, bool describe);
inline WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                             double& previousDecorrelated, DrawStream& draws, bool describe = true) {
    return chooseWait(in, failureNumber, retryAfter, previousDecorrelated, &draws, 0, describe);
}

// The stop reasons checked before any wait is made, in the spec's order: success,
// not-retryable, write-without-key, attempt-limit. Nothing when the run may go on.
// `status` is the status the client received (none on a timeout); `hasRetryAfter` whether it
// carried a Retry-After header; `headerRefuses` whether that header refuses the retry
// (headerRefusesRetry), which makes it not-retryable.
// `keyed`: whether the attempts carried a key (a layer's call: docs/layers.md §4.1); the run's
// own reads `idempotencyKey` (the overload below).
std::optional<StopReason> stopBeforeWaiting(const Inputs& in, bool keyed, int attempt, FailureClass seen,
                                            std::optional<int> status, bool hasRetryAfter, bool headerRefuses);
inline std::optional<StopReason> stopBeforeWaiting(const Inputs& in, int attempt, FailureClass seen,
                                                   std::optional<int> status, bool hasRetryAfter,
                                                   bool headerRefuses = false) {
    return stopBeforeWaiting(in, in.idempotencyKey, attempt, seen, status, hasRetryAfter, headerRefuses);
}

}  // namespace retrylab
