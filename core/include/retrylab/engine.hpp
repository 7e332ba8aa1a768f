// The retry engine: SPEC.md as plain C++17. No I/O, no clock, no global state.
//
//   Value result = retrylab::compute(inputs);   // the whole contract of SPEC §2, §5 and §7
//
// The typed pieces below (parseInputs, simulate, toValue) are what compute() is made of;
// tests and benchmarks use them directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "retrylab/compare_metrics.hpp"  // compareMetrics(): what a comparison lists
#include "retrylab/fields.hpp"
#include "retrylab/value.hpp"

namespace retrylab {

// The engine's version, reported in every result as `engine`.
const char* engineVersion();

enum class Scenario { ResponseLost, RequestLost, Outage503Twice, BadRequest400, Script };
enum class Operation { Charge, Create, Read };
enum class Jitter { None, Full, Equal, Decorrelated, Proportional };
// How an honoured Retry-After combines with the backoff.
enum class RetryAfterMode { Replace, AtLeast };
// What an honoured Retry-After above retryAfterMaxMs does: the backoff applies (Stripe,
// Anthropic), or the answer is not retried at all (openai-python ≥ 2.52).
enum class RetryAfterOverMax { Backoff, Stop };
// When the client sends an attempt under an overall deadline: only if its answer would come
// by the deadline (SPEC §4, the seed's rule), or whenever it starts before the deadline, as a
// real client does, which cannot know the server's response time (docs/engine.md §4).
enum class AttemptStart { Fits, BeforeDeadline };
// How the client classifies what it saw after an attempt (SPEC §4); Refused and Reset are a
// crashed server's (docs/servers.md §5): a refused connection, a connection reset at work.
enum class FailureClass { Success, Timeout, TooManyRequests, ServerError, ClientError, Other, Refused, Reset };

struct ScriptEntry {
    std::optional<int> status;                // absent only when dropped
    std::optional<std::string> retryAfter;    // the header's raw value
    std::optional<std::string> date;          // the response's Date header, raw
    std::optional<std::int64_t> dateSeconds;  // `date` parsed, seconds since 1970
    bool lost = false;
    bool dropped = false;
};

struct RetryOn {
    bool timeout = true;
    bool tooManyRequests = false;  // 429
    bool serverError = true;       // 5xx
    bool clientError = false;      // 4xx but 429
    bool refused = false;          // a refused connection (docs/servers.md §5); serverError covers it too
    bool reset = false;            // a connection reset (docs/servers.md §5); serverError covers it too
};

// docs/servers.md §2: the single run's many servers. The enums are core/src/servers.hpp's (its
// primitives read them); declared here so that Inputs can hold them.
namespace servers {
enum class BalancerKind;  // RoundRobin (0), Random, LeastOutstanding, TwoChoices
enum class KeyScope;      // Shared (0), PerServer, Replicated
}  // namespace servers

// One server's own fields (`servers.overrides[i]`): those not given are the run's.
struct ServerOverride {
    std::size_t index = 0;
    std::optional<double> responseMs;
    bool hasScript = false;  // a script of its own, read by docs/servers.md §7.1's rule
    std::vector<ScriptEntry> script;
};

// docs/servers.md §5: a crash or a partition of some servers over [startMs, endMs).
enum class FaultKind { Crash, Partition };
struct Fault {
    FaultKind kind = FaultKind::Crash;
    bool allServers = true;            // `servers: null`
    std::vector<std::size_t> servers;  // otherwise, the indices named
    double startMs = 0, endMs = 0;
    bool names(std::size_t j) const {
        if (allServers) return true;
        for (std::size_t s : servers)
            if (s == j) return true;
        return false;
    }
    bool covers(double t) const { return startMs <= t && t < endMs; }
};

// docs/layers.md §2: what a layer's attempts carry, what its call relays when it gives up, and
// what the call below does when the layer stops waiting for it.
enum class LayerKey { None, Mint, Pass };
enum class GiveUp { LastFailure, DoNotRetry };
enum class Cancel { Propagate, Orphan };

// docs/throttling.md §6 and §8: the single run's `hedging`. gRPC A6's copies delayMs apart
// (maxRetries 0), or Envoy's hedge on per-try timeout (the policy's own retries).
enum class HedgeKind { A6, PerTryTimeout };
struct HedgePolicy {
    HedgeKind kind = HedgeKind::A6;
    int maxAttempts = 2;                           // a6: the most copies, the first included
    double delayMs = 0;                            // a6: from one copy to the next
    RetryOn nonFatal{false, false, false, false};  // a6: the classes after which the next copy goes at once
};

struct Layer;  // below: a layer holds its policy as a whole Inputs

struct Inputs {
    Scenario scenario = Scenario::ResponseLost;
    std::vector<ScriptEntry> script;  // only for Scenario::Script
    Operation operation = Operation::Charge;
    std::string operationId = "op-0001";
    int maxRetries = 3;
    double baseBackoffMs = 500;
    double backoffMultiplier = 2;
    std::optional<double> maxBackoffMs;
    Jitter jitter = Jitter::None;
    std::vector<double> draws;
    std::uint64_t seed = 1;
    double clientTimeoutMs = 3000;
    std::optional<double> deadlineMs = 10000.0;
    std::optional<double> waitBudgetMs;
    double responseMs = 200;
    bool idempotencyKey = false;
    RetryOn retryOn;
    bool retryWritesWithoutKey = true;
    bool honourRetryAfter = true;
    std::string startDate = "Sun, 29 Nov 2026 10:00:00 GMT";
    std::int64_t startSeconds = 1795946400;  // startDate, seconds since 1970
    std::uint32_t callers = 1;

    // Knobs beyond SPEC.md §2 that real clients need (docs/engine.md §2). Their defaults
    // leave every SPEC result unchanged.
    bool firstRetryImmediate = false;       // failure 1 waits 0 (urllib3)
    double minBackoffMs = 0;                // a backoff wait is at least this (Stripe)
    double jitterLow = 0, jitterHigh = 1;   // proportional: ceiling × U(low, high)
    std::vector<double> ceilingScheduleMs;  // ceilings per failure, last repeats; empty: base × multiplier^(n−1)
    std::vector<int> retryOnStatuses;       // exact statuses retried besides retryOn's classes
    std::vector<int> retryAfterStatuses;    // statuses retried when they carry a Retry-After (urllib3)
    RetryAfterMode retryAfterMode = RetryAfterMode::Replace;
    std::optional<double> retryAfterMaxMs;  // an honoured header above this is ignored (Stripe: 60 s)
    RetryAfterOverMax retryAfterOverMax = RetryAfterOverMax::Backoff;
    AttemptStart attemptStart = AttemptStart::Fits;
    // docs/throttling.md §6, §8: none (the default) is the run above, exactly.
    std::optional<HedgePolicy> hedging;

    // docs/layers.md: empty for `layers: null` (the run above, exactly), else 1-5 layers, top first.
    std::vector<Layer> layers;

    // docs/servers.md §2: `servers` null is one server made of the fields above (today, exactly).
    bool serversGiven = false;                    // `servers` not null: the rows of §7.2 are written
    std::size_t serverCount = 1;                  // K
    std::vector<ServerOverride> serverOverrides;  // in the order given
    servers::BalancerKind balancer = static_cast<servers::BalancerKind>(0);  // round robin
    bool previousHosts = false;                                              // retryHost "previous-hosts"
    int hostSelectionRetryMaxAttempts = 1;
    std::vector<Fault> faults;
    servers::KeyScope keyScope = static_cast<servers::KeyScope>(0);  // shared
    double keyLagMs = 0;
};

// One layer of docs/layers.md §2, every field filled in (the echo's values).
struct Layer {
    std::string name;
    Inputs policy;  // the run's inputs with this layer's policy fields: only those are read
    LayerKey key = LayerKey::None;
    GiveUp giveUp = GiveUp::LastFailure;
    Cancel cancel = Cancel::Propagate;
    bool inheritDeadline = false;
    double deadlineMarginMs = 0;
};

// The answers the server gives, one per attempt, the last repeating: the named scenario's
// or the script.
std::vector<ScriptEntry> serverScript(const Inputs& inputs);

struct ParsedInputs {
    std::optional<Inputs> inputs;    // set when errors is empty
    Value echo;                      // then: every field, defaults filled (the result's `inputs`)
    std::vector<InputError> errors;  // InputError: fields.hpp
};

// SPEC §7: every field checked against inputFields() (fields.hpp), then the rules between
// fields; every bad one named.
ParsedInputs parseInputs(const Value& raw);

// `{ ok, errors: [{ field, code, message, detail }] }` without running (errors empty when ok).
Value validate(const Value& raw);
// The input table as data: `{ engine, inputs: [row...], scenarios: { name: [answer...] } }`
// (docs/engine.md §4); `scenarios` holds each named scenario's serverScript(), written as the
// `script` input writes answers.
Value schema();
// Answers as the `script` input's echo writes them (only what differs from an answer's default).
Value scriptToValue(const std::vector<ScriptEntry>& script);

enum class EventKind {
    Send,
    Commit,
    Replay,
    Conflict,
    ServerError,
    RequestLost,
    ResponseLost,
    Receive,
    Timeout,
    Deadline,
    Wait,
    Stop,
    Call,
    GiveUp,
    Cancel,
    Orphan,  // docs/layers.md §7: only in a layered run
    Refused,
    Reset  // docs/servers.md §7.1: a crashed server's
};
const char* eventKindName(EventKind kind);

struct Event {
    double tMs = 0;
    EventKind kind = EventKind::Send;
    std::optional<int> attempt;  // none for the run's own events (a stop before any attempt)
    std::string text;
    int layer = 0;     // a layered run's (docs/layers.md §7): the layer from 1; 0 in a run without layers
    std::string path;  // and the attempt's or call's path, "2.1" ("" for layer 1's call)
    int host = -1;     // docs/servers.md §7.2: the server of its attempt, with `servers` given; else -1
};

struct RetryAfterSeen {
    std::string raw;
    std::optional<double> waitMs;  // none when unusable
    std::string note;              // "seconds", "date", "past", "unusable"
};

// Where the wait after an attempt came from: an honoured Retry-After that decided it, the
// backoff (an immediate first retry included), or no wait (the last attempt).
enum class WaitKind { None, Header, Backoff };
const char* waitKindName(WaitKind kind);  // "none", "header", "backoff"
// What made the wait's figure (docs/engine.md §5): the backoff rule's figure alone, the minimum,
// an immediate first retry, the header, the backoff above an at-least header, the backoff after
// a header over the maximum was ignored, or no wait.
enum class WaitShape { None, Rule, Minimum, Immediate, Header, AboveHeader, HeaderOverMax };
const char* waitShapeName(WaitShape shape);    // "none", "rule", "minimum", ...
const char* failureClassName(FailureClass c);  // "success", "timeout", "429", "5xx", "4xx", "other"

struct AttemptRow {
    int n = 0;
    double startMs = 0;
    double endMs = 0;
    std::string server;              // "200", "503", "409", "replay", "dropped"
    std::optional<double> commitMs;  // when the server committed a side effect
    std::string effect;              // the side effect in words
    std::string clientSaw;           // "200", "503", "timeout"
    std::optional<double> waitAfterMs;
    std::optional<std::string> waitRule;
    std::optional<double> ceilingMs;
    std::optional<double> draw;
    std::optional<RetryAfterSeen> retryAfter;
    // The same facts as data (docs/engine.md §5), beside the words above.
    WaitKind waitKind = WaitKind::None;
    WaitShape waitShape = WaitShape::None;
    int scriptIndex = 0;                               // the entry of the server's script attempt n drew (0-based)
    bool scriptRepeats = false;                        // that entry is the script's last, the one that repeats
    FailureClass clientClass = FailureClass::Timeout;  // the class of what the client saw
    std::optional<int> chargeNumber;                   // the side effect this attempt committed: #k
    bool scripted = false;  // the client received the script entry's own answer (docs/engine.md §5)
    // A layered run's (docs/layers.md §7); layer 0 in a run without layers, and none written.
    int layer = 0;
    std::string path;                      // "2.1"
    std::optional<std::string> key;        // the key value it carried
    bool upper = false;                    // an attempt of a layer above the bottom: a call below
    bool givenUp = false;                  // it received a call's given-up
    bool cancelled = false;                // its call was cancelled before its answer came
    std::optional<double> callDeadlineMs;  // the deadline D of its call (§4.2), absolute
    // A hedged run's (docs/throttling.md §6.1), written only when `hedging` is set.
    bool hedgedRun = false;
    bool hedge = false;  // sent while an earlier attempt was still in flight
    // docs/servers.md §7.2: the server it was sent to, written only when `servers` is given.
    std::optional<int> host;
    bool noEntry = false;  // refused or cut off: no script entry was read (scriptIndex null)
};

enum class Outcome { Success, Unknown, Failed };
enum class StopReason {
    Success,
    NotRetryable,
    WriteWithoutKey,
    AttemptLimit,
    WaitBudget,
    Deadline,
    Cancelled /* a layer's call (docs/layers.md §4.5), never the run's */
};
const char* outcomeName(Outcome outcome);
const char* stopReasonName(StopReason reason);

struct Metrics {
    int attempts = 0;
    int charges = 0;
    int replays = 0;
    double elapsedMs = 0;
    double waitingMs = 0;
    Outcome outcome = Outcome::Failed;
    StopReason stopReason = StopReason::Deadline;
    std::optional<double> refusedWaitMs;
    int duplicates = 0;
    bool lookupNeeded = false;
    std::string agentReport;  // "success", "error 400", "timeout", "not-sent"
    // A layered run's (docs/layers.md §7), written only when `layers` is not empty.
    struct LayerRow {
        std::string name;
        int calls = 0, attempts = 0, retries = 0, cancelled = 0, orphaned = 0;
    };
    std::vector<LayerRow> layers;
    int orphanAttempts = 0;
    int orphanCharges = 0;
    double lastWorkMs = 0;
    // A hedged run's (docs/throttling.md §6.1), written only when `hedging` is set.
    bool hedgedRun = false;
    int hedges = 0;       // attempts sent while an earlier one was still in flight
    int lateAnswers = 0;  // attempts still in flight when the run ended (their answers come to no one)
    // docs/servers.md §7.2: one row per server, written only when `servers` is given.
    struct ServerRow {
        int host = 0;
        int attempts = 0, charges = 0, replays = 0, conflicts = 0, refused = 0, aborted = 0, dropped = 0,
            answersLost = 0, duplicates = 0;
    };
    bool serversRun = false;
    std::vector<ServerRow> servers;
};

struct Herd {
    std::uint32_t callers = 0;
    std::uint32_t notRetried = 0;
    double bucketMs = 100;
    std::vector<std::uint32_t> buckets;
    int occupied = 0;
    std::uint32_t fullest = 0;
};

struct Run {
    std::vector<Event> events;
    std::vector<AttemptRow> attempts;
    Metrics metrics;
    std::optional<Herd> herd;  // only when callers > 1
};

// SPEC §3–§6 on valid inputs. Deterministic: the same inputs give the same run. With
// `describe` false the run has no events and no sentences (wait rules, stop texts): the
// metrics and attempt numbers alone, for sweeps that run thousands of points.
Run simulate(const Inputs& inputs, bool describe = true);

// SPEC §5: `{ ok: true, engine, inputs, events, attempts, metrics, herd? }`, `inputs` being
// the echo parseInputs() made (every field with its default filled in).
Value toValue(Value echo, const Run& run);
// `{ ok: false, errors: [{ field, code, message, detail }] }`.
Value toValue(const std::vector<InputError>& errors);

// The whole contract: validate, simulate, describe. Never throws on bad input.
Value compute(const Value& rawInputs);

// A failure-boundary sweep (docs/engine.md §3): `{ inputs, vary, from, to, points }` runs the
// inputs once per value of one field and names every place where the charges, the outcome
// or the attempts change, refined to the exact value.
Value sweep(const Value& request);

// The pieces of sweep()'s result, as data: written once, by writeSweep() (write_result.hpp),
// into toValue()'s tree or straight onto a binding's own format (issue 18: no tree per point).
struct SweepPoint {
    double value = 0;
    int attempts = 0;
    int charges = 0;
    Outcome outcome = Outcome::Failed;
    double elapsedMs = 0;
    int replays = 0;
    std::string agentReport;
    StopReason stopReason = StopReason::Deadline;
};

struct SweepBoundary {
    double value = 0;
    Outcome before = Outcome::Failed;
    Outcome after = Outcome::Failed;
    int chargesBefore = 0;
    int chargesAfter = 0;
    std::string text;
};

struct SweepRun {
    std::vector<InputError> errors;  // the request's; when not empty, nothing else is set
    const char* vary = "";
    Value echo;  // the swept inputs' echo, as compute() gives it
    std::vector<SweepPoint> points;
    std::vector<SweepBoundary> boundaries;
};

// sweep() without its result written: the points and boundaries, or the request's errors.
SweepRun runSweep(const Value& request);

}  // namespace retrylab
