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

struct WaitChoice {
    double waitMs = 0;
    std::string rule;                // "Retry-After: 2 (header wins)", "ceiling 1000 ms × draw 0.40", ...
    std::optional<double> ceilingMs;
    std::optional<double> draw;
};

// The wait after failure number `failureNumber`. A usable, honoured Retry-After wins;
// otherwise the backoff, taking one draw from `draws` when jittered. `previousDecorrelated`
// is the last wait the decorrelated rule produced (baseBackoffMs before the first).
WaitChoice chooseWait(const Inputs& in, int failureNumber, const std::optional<RetryAfterSeen>& retryAfter,
                      double& previousDecorrelated, DrawStream& draws);

// The stop reasons checked before any wait is made, in the spec's order: success,
// not-retryable, write-without-key, attempt-limit. Nothing when the run may go on.
// `status` is the status the client received (none on a timeout); `hasRetryAfter` whether it
// carried a Retry-After header.
std::optional<StopReason> stopBeforeWaiting(const Inputs& in, int attempt, FailureClass seen,
                                            std::optional<int> status, bool hasRetryAfter);

}  // namespace retrylab
