// The fleet engine: FLEET.md as plain C++17 beside the single-run engine. Many clients, one
// server, retries that feed back into load (the "service" workload), and clients contending
// for one row under optimistic concurrency (the "occ" workload, AWS's 2015 experiment).
//
//   Value result = retrylab::fleet(request);   // FLEET.md §1, §3 and §8; never throws
//
// The typed pieces (parseFleetRequest, simulateService, simulateOcc, fleetToValue) are what
// fleet() is made of; tests and benchmarks use them directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "retrylab/engine.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/value.hpp"

namespace retrylab {

enum class FleetWorkload { Service, Occ };
enum class Arrivals { Poisson, Uniform, Serial, Once };
enum class QueueOrder { Fifo, Lifo };
enum class DropStale { Never, Expired, Unfinishable };
enum class NetworkDist { Fixed, Uniform, Exponential, Normal };
enum class TriggerKind { Slowdown, Outage };
enum class GateScope { Client, Fleet };
// docs/engine.md §7.1: the gate rules beyond FLEET.md §5, each FLEET.md's by default.
enum class QuotaRefund { CostOrIncrement, CostAndIncrement };  // aws-sdk-go-v2 gives back both
enum class BucketDeposit { FirstAttempt, Success };            // Brooker's post: on success
enum class BucketAllow { MoreThanCost, AtLeastCost };          // Brooker's post: a whole token
enum class ThrottleCount { All, Retryable };                   // gRPC A6: retryable failures only
// docs/servers.md's choices, declared in core/src/servers.hpp (opaque here: every value is its own).
namespace servers {
enum class BalancerKind;  // RoundRobin (0, the default), Random, LeastOutstanding, TwoChoices
enum class KeyScope;      // Shared (0, the default), PerServer, Replicated
enum class ServiceDist;   // Fixed (0, the default), Exponential, Lognormal
}  // namespace servers
enum class HostRule { Any, PreviousHosts };  // docs/servers.md §4.2

struct Network {
    NetworkDist dist = NetworkDist::Fixed;
    double ms = 5;            // fixed
    double lo = 0, hi = 0;    // uniform
    double mean = 0, sd = 0;  // exponential (mean), normal (mean, sd)
};

struct Spike {
    double startMs = 0, endMs = 0, factor = 1;
};

// docs/throttling.md §3: the server's admission limit (rule 1a), a token bucket per client or
// for the fleet; an attempt that finds less than one token is answered 429 after answerMs.
struct Admission {
    GateScope scope = GateScope::Client;
    double ratePerSecond = 10, burst = 10, answerMs = 0;
    std::optional<double> retryAfterMs;
};

struct Server {
    std::optional<std::uint32_t> workers = 10u;  // none: no limit
    std::optional<std::uint32_t> queueLimit;     // none: no limit
    QueueOrder queueOrder = QueueOrder::Fifo;
    double serviceMs = 50;
    double serviceMsPerInFlight = 0;
    double failureRate = 0;
    DropStale dropStale = DropStale::Never;
    std::optional<double> rejectRetryAfterMs;
    std::optional<Admission> admission;  // none: no limit (FLEET.md's server)
    // docs/servers.md §3.3: the service time's distribution (Fixed: serviceMs, FLEET.md's) and the
    // log-normal's σ.
    servers::ServiceDist serviceDist{};
    double serviceSigma = 1;
};

// docs/servers.md §2: K servers, each the request's `server` changed by its override (`each`,
// resolved when the request is read; `given`, the override members as given, for the echo).
struct FleetServerOverride {
    std::uint32_t index = 0;
    std::vector<std::string> given;
};
struct FleetServers {
    std::uint32_t count = 2;
    std::vector<FleetServerOverride> overrides;
    std::vector<Server> each;  // count servers, index order
};

// docs/servers.md §4: one balancer per client, or one for the fleet.
struct BalancerChoice {
    servers::BalancerKind kind{};
    GateScope scope = GateScope::Client;
};

// docs/servers.md §6: where the idempotency records live.
struct KeyStore {
    servers::KeyScope scope{};
    double lagMs = 0;
};

struct Trigger {
    TriggerKind kind = TriggerKind::Slowdown;
    double startMs = 10000, endMs = 20000, factor = 4;  // factor: slowdown only
};

// docs/throttling.md §6: gRPC A6's hedging policy (with maxRetries 0): copies delayMs apart, the
// next at once after a failure of a class in nonFatal; or §8's Envoy hedge on per-try timeout (kind
// PerTryTimeout: the policy's own retries, a per-try timeout that keeps its attempt in flight; the
// members below are A6's only).
struct Hedging {
    HedgeKind kind = HedgeKind::A6;
    int maxAttempts = 2;
    double delayMs = 0;
    bool nonFatalTimeout = false, nonFatal5xx = false, nonFatal429 = false;
    bool nonFatalRefused = false, nonFatalReset = false;  // docs/servers.md §5's classes
    std::vector<std::string> nonFatal;                    // as given, for the echo
};

struct FleetLayer;  // below: a layer holds its policy as a whole FleetPolicy

struct FleetPolicy {
    std::optional<int> maxRetries = 3;  // none only for occ: no limit
    double baseBackoffMs = 100;
    double backoffMultiplier = 2;
    std::optional<double> maxBackoffMs;
    Jitter jitter = Jitter::None;
    double clientTimeoutMs = 1000;
    std::optional<double> deadlineMs;
    bool retryTimeout = true, retry5xx = true, retry429 = false;
    bool retryRefused = false, retryReset = false;          // docs/servers.md §5 (5xx covers both)
    std::vector<std::string> retryOn = {"timeout", "5xx"};  // as given, for the echo
    bool honourRetryAfter = true;
    std::optional<Hedging> hedging;  // none: no hedging (FLEET.md's policy)
    // docs/layers.md §9: empty for `policy.layers: null` (FLEET.md's one layer, exactly), else 1-5
    // layers, top first.
    std::vector<FleetLayer> layers;
    // docs/servers.md §4.2: the retry's host rule and Envoy's host_selection_retry_max_attempts.
    HostRule retryHost = HostRule::Any;
    std::uint32_t hostSelectionRetryMaxAttempts = 1;
};

// One layer of docs/layers.md §9 (its §2 with FLEET.md §3's policy fields), every field filled in.
struct FleetLayer {
    std::string name;
    FleetPolicy policy;  // the request's policy with this layer's fields: only the FLEET §3 ones are read
    LayerKey key = LayerKey::None;
    GiveUp giveUp = GiveUp::LastFailure;
    Cancel cancel = Cancel::Propagate;
    bool inheritDeadline = false;
    double deadlineMarginMs = 0;
};

struct QuotaGate {
    GateScope scope = GateScope::Client;
    double capacity = 500, retryCost = 5, timeoutCost = 10, successIncrement = 1;
    QuotaRefund refund = QuotaRefund::CostOrIncrement;
};
struct BucketGate {
    GateScope scope = GateScope::Client;
    double capacity = 5, deposit = 0.1, cost = 1;
    BucketDeposit depositOn = BucketDeposit::FirstAttempt;
    BucketAllow allowWhen = BucketAllow::MoreThanCost;
};
struct ThrottleGate {
    GateScope scope = GateScope::Client;
    double maxTokens = 10, tokenRatio = 0.1;
    ThrottleCount countFailures = ThrottleCount::All;
};
struct BudgetGate {
    GateScope scope = GateScope::Client;
    double percent = 20, minPerSecond = 10, ttlMs = 10000;
};
struct BreakerGate {
    GateScope scope = GateScope::Client;
    std::uint32_t window = 100, minCalls = 100;
    double failurePercent = 50, openMs = 60000;
    std::uint32_t halfOpenCalls = 10;
};

// docs/throttling.md §4: AWS adaptive retry mode's client rate limiter (§1) before every send.
struct AdaptiveGate {
    GateScope scope = GateScope::Client;
};
// docs/throttling.md §5: client-side throttling (the SRE book, grpc-go's form, §2) before every send.
struct LocalGate {
    GateScope scope = GateScope::Client;
    double windowMs = 30000;
    std::uint32_t bins = 100;
    double ratio = 2, padding = 8;
};

// docs/throttling.md §7: Envoy's admission control (its defaults) at every send, after the client's
// own gates; a rejected attempt is a 503 at its send time.
struct AdmissionControlGate {
    GateScope scope = GateScope::Client;
    double windowMs = 30000;  // a whole number of seconds
    double srThreshold = 95, aggression = 1, rpsThreshold = 0, maxRejectionProbability = 80;
};

// docs/layers.md §9.3: the layer each FLEET.md §5 gate acts on, 1 the top; none: the bottom.
struct GateLayers {
    std::optional<int> quota, bucket, throttle, budget, breaker;
};

struct Gates {
    GateLayers layer;
    std::optional<QuotaGate> quota;
    std::optional<BucketGate> bucket;
    std::optional<ThrottleGate> throttle;
    std::optional<BudgetGate> budget;
    std::optional<BreakerGate> breaker;
    std::optional<AdaptiveGate> adaptive;
    std::optional<LocalGate> local;
    std::optional<AdmissionControlGate> admissionControl;
};

struct FleetRequest {
    FleetWorkload workload = FleetWorkload::Service;
    std::uint64_t seed = 1;
    std::uint32_t clients = 100;
    Arrivals arrivals = Arrivals::Poisson;
    double ratePerClient = 1;
    double durationMs = 60000;
    std::optional<Spike> spike;
    Network network;
    Server server;
    std::optional<FleetServers> servers;  // docs/servers.md: none, one server (FLEET.md's)
    BalancerChoice balancer;
    std::optional<Trigger> trigger = Trigger{};
    // docs/servers.md §5: trigger.servers, the servers the trigger acts on (none: every one).
    std::optional<std::vector<std::uint32_t>> triggerServers;
    std::vector<Fault> faults;  // docs/servers.md §5 (engine.hpp's Fault, the single run's too)
    FleetPolicy policy;
    Gates gates;
    Operation operation = Operation::Charge;  // Charge or Read
    bool idempotencyKey = false;
    KeyStore keyStore;
    std::uint32_t binMs = 1000;
    std::uint32_t runs = 100;
};

// The occ workload's defaults (§7): the 2015 experiment's network and policy.
FleetRequest occDefaults();

// §3 as field tables (fields.hpp), read by the same normalize() as the single run's inputs:
// the service workload's, and the occ workload's (its network and policy defaults, §7).
const FieldTable& fleetFields();
const FieldTable& occFleetFields();
// { engine, fleet: [row...], occ: [row...] }: both tables as data.
Value fleetSchema();

struct FleetParsed {
    std::optional<FleetRequest> request;  // set when errors is empty
    Value echo;                           // the normalized request, every default filled
    std::vector<InputError> errors;       // dotted paths: "server.workers", "gates.quota.retryCost"
};

// The engine's own cost of a request, estimated before it runs from the model of
// docs/robustness.md ("The fleet's cost bound"): upper bounds on the work of the run, its
// events, and the bytes it holds at its peak, with constants measured on the build machine.
struct FleetCost {
    double requests = 0;     // R: requests created (the expected count)
    double attempts = 0;     // A: R × (maxRetries + 1); occ: clients × runs
    double events = 0;       // events the loop takes: at most 5 an attempt; occ: writes
    double queue = 0;        // the most attempts waiting at once
    double records = 0;      // the most request records held at once
    double pending = 0;      // the most events waiting at once
    double bins = 0;         // the timeline's bins, at most
    double bytes = 0;        // the peak heap of the run and its result, estimated
    double binBytes = 0;     // of which the bins
    double ms = 0;           // the time it takes natively, estimated
    double binMs = 0;        // of which the bins
    double clearedBins = 0;  // the bins the local throttlers' lookbacks empty, at most (docs/throttling.md §5)
    double throttlerMs = 0;  // of the time, theirs
};
FleetCost fleetCost(const FleetRequest& request);

// The cost bound (docs/robustness.md): a request whose estimate passes either is refused.
constexpr double kFleetCostMs = 2000;                    // of estimated time
constexpr double kFleetCostBytes = 192.0 * 1024 * 1024;  // of estimated peak heap

struct FleetOptions {
    // false: the cost bound is not checked (retrysim --fleet --no-limits, research runs on
    // purpose). FLEET.md §3's own bounds always are.
    bool costBound = true;
};

// §3: every field checked (types, bounds, cross-field rules, the work bounds), every bad one
// named; nothing runs. Then the cost bound, unless options say not.
FleetParsed parseFleetRequest(const Value& raw, const FleetOptions& options = {});

// ---- The service workload's result (§8) ----------------------------------------------------

enum class EndReason {
    Success,
    NotRetryable,
    AttemptLimit,
    Deadline,
    GateQuota,
    GateBucket,
    GateThrottle,
    GateBudget,
    CircuitOpen,
    Unfinished,
    LocalThrottle  // docs/throttling.md §5; in the result's totals only with gates.local
};
constexpr int kEndReasons = 11;
const char* endReasonName(EndReason reason);

struct Latency {
    double p50 = 0, p90 = 0, p99 = 0, max = 0;
};

// docs/servers.md §8.3: one server's totals (with servers or faults; none otherwise).
struct ServerTotals {
    std::uint64_t attempts = 0, served = 0, succeeded = 0, failed = 0, shed = 0, outageRejected = 0, cancelled = 0;
    std::uint64_t refused = 0, partitioned = 0, aborted = 0, answersLost = 0, late = 0, okInTime = 0;
    double wastedServiceMs = 0;
    std::uint64_t charges = 0, replays = 0, duplicateCharges = 0;
    std::uint64_t completions = 0;                         // the services completed: the means' divisor
    double serviceSumMs = 0, residenceSumMs = 0;           // summed in the order completions are processed
    std::optional<double> meanServiceMs, meanResidenceMs;  // none when no service completed
};
// docs/servers.md §8.3: one server's counts in a bin.
struct ServerBin {
    std::uint64_t attempts = 0, okInTime = 0;  // by the attempt's send time
    std::uint64_t late = 0;                    // by arrival at the client
    std::uint64_t served = 0, shed = 0, outageRejected = 0, refused = 0, partitioned = 0, aborted = 0;  // by when
    std::uint64_t queue = 0, inService = 0;  // after the bin's last event
};

struct ServiceTotals {
    std::uint64_t requests = 0, succeeded = 0;
    std::uint64_t failed[kEndReasons] = {};  // by EndReason; [Success] stays 0
    std::uint64_t attempts = 0, firstAttempts = 0, retries = 0;
    std::uint64_t served = 0, cancelled = 0, shed = 0, outageRejected = 0, late = 0;
    std::uint64_t throttled = 0;  // 429s of rule 1a (docs/throttling.md §3); in the result only with server.admission
    std::uint64_t admissionRejected = 0;  // docs/throttling.md §7; in the result only with gates.admissionControl
    double wastedServiceMs = 0;
    std::uint64_t charges = 0, replays = 0, duplicateCharges = 0;
    // docs/layers.md §9.2: one row per layer, top first; empty without policy.layers.
    struct LayerRow {
        std::uint64_t calls = 0, attempts = 0, retries = 0, cancelled = 0, orphaned = 0;
    };
    std::vector<LayerRow> layers;
    std::optional<Latency> latencyMs;  // none when no request succeeded
    double endMs = 0;
    // docs/servers.md §8.3, with servers or faults only: the sums of the rows, and the rows.
    std::uint64_t refused = 0, partitioned = 0, aborted = 0, answersLost = 0;
    std::vector<ServerTotals> servers;
};

struct ServiceBin {
    std::uint64_t created = 0, firstAttempts = 0, retries = 0, succeeded = 0, failed = 0, timeouts = 0;
    std::uint64_t shed = 0, outageRejected = 0, served = 0, late = 0;
    std::uint64_t throttled = 0;          // by arrival; in the result only with server.admission
    std::uint64_t admissionRejected = 0;  // by the send's time; in the result only with gates.admissionControl
    double gateWaitMs = 0;  // the adaptive limiter's waits, by the time each began; only with gates.adaptive
    // docs/throttling.md §4.1, the state after the bin's last event, only with gates.adaptive: the limiters
    // enabled, and the mean of their fill rates (sends a second; none while no limiter is enabled).
    std::uint64_t limiting = 0;
    std::optional<double> sendRate;
    std::vector<std::uint64_t>
        layerAttempts;  // docs/layers.md §9.2: each layer's attempts sent; only with policy.layers
    std::uint64_t queue = 0, inService = 0;
    std::optional<double> tokens;
    std::vector<ServerBin> servers;  // docs/servers.md §8.3: one a server, with servers or faults only
};

struct Recovery {
    double triggerEndMs = 0;
    std::optional<double> recoveredAtMs;
    bool metastable = false;
    bool disrupted = false;  // some window after the trigger's start was not healthy (§8)
};

// What happened, event by event, for tests and fuzzers that check invariants (time order, every
// request ended once). Kinds as §6 numbers them: 1 completion, 2 arrival, 3 answer, 4 waiting
// limit, 5 send, and 0 a crash's start (docs/servers.md §8.2, its server in `client`); a request's
// end is recorded apart.
struct FleetTraceEvent {
    double tMs;
    int kind;
    std::uint32_t client;
    std::uint32_t request;  // k: the client's request number
    int attempt;
};
struct FleetTraceEnd {
    double tMs;
    std::uint32_t client;
    std::uint32_t request;
    EndReason reason;
};
struct FleetTrace {
    std::vector<FleetTraceEvent> events;
    std::vector<FleetTraceEnd> ends;
};

struct ServiceResult {
    ServiceTotals totals;
    std::vector<ServiceBin> bins;
    std::optional<Recovery> recovery;
    std::vector<Recovery> serverRecovery;  // docs/servers.md §8.3: recovery.servers, one a server
};

// What a service run did, for the cost model's tests and benchmark: the events taken (a
// waiting limit that is no event counted too), and the most of each thing held at once.
struct FleetWork {
    std::uint64_t events = 0;
    std::uint64_t queue = 0;    // the deepest queue
    std::uint64_t records = 0;  // request records (the slots' high-water mark)
};

// §4–§6 on a valid request. `trace`, when given, receives every event processed; `work`, when
// given, what the run did.
ServiceResult simulateService(const FleetRequest& request, FleetTrace* trace = nullptr, FleetWork* work = nullptr);
// docs/layers.md §9: the service workload with policy.layers (simulateService hands such a request here).
ServiceResult simulateLayeredService(const FleetRequest& request, FleetTrace* trace = nullptr,
                                     FleetWork* work = nullptr);
// FLEET.md §8's recovery, from the bins (the one- and the many-layer runs share it).
Recovery recoveryOf(const FleetRequest& request, const std::vector<ServiceBin>& bins);

// ---- The occ workload (§7) ---------------------------------------------------------------------

struct OccRun {
    double makespanMs = 0;
    double writes = 0;
    double failures = 0;
};

struct OccResult {
    std::vector<OccRun> runs;
    OccRun mean;
};

// One run of §7 with this seed (run r of a request uses seed + r).
OccRun simulateOccRun(const FleetRequest& request, std::uint64_t seed);
OccResult simulateOcc(const FleetRequest& request);

// ---- Values ------------------------------------------------------------------------------------

// The result of §8 (service) or §7 (occ): `echo` is its `request`, parseFleetRequest's echo of
// the request (the table's; a test that does not read it may give null).
Value fleetToValue(Value echo, const FleetRequest& request, const ServiceResult& result);
Value fleetToValue(Value echo, const FleetRequest& request, const OccResult& result);

// The whole contract: validate, simulate, describe. Never throws.
Value fleet(const Value& rawRequest, const FleetOptions& options = {});

}  // namespace retrylab
