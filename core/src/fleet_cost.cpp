// The fleet's cost bound (docs/robustness.md, "The fleet's cost bound"): what a valid request
// will cost the engine, worked out from the request alone before anything runs. Each figure is
// an upper bound on what the loop of fleet_service.cpp (or fleet_occ.cpp) does or holds, from
// the rules of FLEET.md §4 and the engine's own layout; the constants (nanoseconds an event,
// bytes a record) were measured on the build machine (bench/fleet_cost.cpp prints them beside
// the estimate). parseFleetRequest() refuses a request whose time or bytes pass the bound.
#include <algorithm>
#include <cmath>
#include <vector>

#include "retrylab/fleet.hpp"
#include "servers.hpp"

namespace retrylab {

namespace {

// Measured (docs/robustness.md): the engine's time per event taken, at its slowest (every
// event through the heap, a deep heap; with a budget or a breaker on, each attempt also
// records in its windows), and per bin of the result; an occ write.
constexpr double kNsPerEvent = 200;
constexpr double kNsPerWindowedEvent = 400;
constexpr double kNsPerBin = 1000;
constexpr double kNsPerWrite = 120;
// The layout (fleet_service.cpp): a request record, a queue entry, an event, a latency.
constexpr double kRecordBytes = 40;
constexpr double kWaitingBytes = 24;  // its limit, slot, attempt and arrival (docs/servers.md §8.3's residence)
constexpr double kEventBytes = 32;    // both loops' events (static_asserts in fleet_service.cpp and fleet_layers.cpp)
constexpr double kTicketBytes = 16;   // fleet_service.cpp's Ticket (docs/servers.md §8.3's residence)
constexpr double kLatencyBytes = 8;
constexpr double kTryStateBytes = 40;  // docs/throttling.md §8: two 128-bit masks and the counts
// A container grown by doubling holds at most twice what it keeps, and for a moment while it
// grows the old block too: three times.
constexpr double kGrowth = 3;
// A bin of the result: its ServiceBin, its Value and its JSON text (measured).
constexpr double kBinBytes = 800;
// Per client: its arrival key, its gates' owner (the two budget windows, the breaker).
constexpr double kClientBytes = 8;
constexpr double kOwnerBytes = 200;
// docs/throttling.md §3–§5 (throttling.hpp's layouts): an admission limit (two doubles); an
// adaptive limiter (its bucket, CUBIC and clock, held out of line); a local throttler, held out
// of line, with two lookbacks of `bins` doubles each. A bin a lookback empties as its head moves
// costs a modulo and two stores: measured 2.8 ns natively and 5 ns in WebAssembly (node 20, load
// 5, a run emptying 6 × 10^7 bins in 170 and 300 ms); 10 ns, as the other constants, at the slowest.
constexpr double kAdmissionBytes = 16;
constexpr double kLimiterBytes = 160;
constexpr double kThrottlerBytes = 160;
constexpr double kNsPerClearedBin = 10;
// docs/throttling.md §4.1: a limiter's fill rate added into a bin's sendRate (a dense array of
// doubles, summed once after a bin in which a rate was set).
constexpr double kNsPerSummedFill = 1;
// docs/throttling.md §7: Envoy's admission control window, held out of line (its ring, start
// and sums), and a bucket of it (its start and two counts).
constexpr double kWindowBytes = 96;
constexpr double kWindowBucketBytes = 24;
// docs/servers.md §10: a step of a pick (least-outstanding reads K counts a pick, every other kind
// one), a per-server row of a bin (its ServerBin, Value and JSON text), a server's state (its
// queue's ring, its counters, its totals row), a request's tried servers and records (a vector
// each, and an entry per attempt), an outstanding count, a balancer.
constexpr double kNsPerPickStep = 5;
constexpr double kServerBinBytes = 700;
constexpr double kNsPerServerBin = 500;
constexpr double kServerBytes = 1200;
constexpr double kSlotVectorBytes = 24;
constexpr double kTriedBytes = 2;
constexpr double kRecordEntryBytes = 16;
constexpr double kCountBytes = 4;
constexpr double kBalancerBytes = 16;
// An occ client, and a run of the result.
constexpr double kOccClientBytes = 48;
constexpr double kOccRunBytes = 400;
// What every run holds besides: the request, its echo, the result's totals.
constexpr double kBaseBytes = 256 * 1024;

// The longest network leg a draw can give (streams.hpp): an exponential's −mean × ln(1 − u)
// with u ≤ 1 − 2^−53 is at most 36.8 × mean; a normal's |mean + sd × z| has |z| ≤ 2√3.
double longestLeg(const Network& n) {
    switch (n.dist) {
        case NetworkDist::Fixed: return n.ms;
        case NetworkDist::Uniform: return n.hi;
        case NetworkDist::Exponential: return 37 * n.mean;
        case NetworkDist::Normal: return n.mean + 4 * n.sd;
    }
    return n.ms;
}

// docs/servers.md §10: the servers of a request (one without `servers`).
const std::vector<Server>& serversOf(const FleetRequest& r) {
    static thread_local std::vector<Server> one(1);
    if (r.servers) return r.servers->each;
    one[0] = r.server;
    return one;
}
// The longest base service time a server's draw can give (§3.3): fixed serviceMs; exponential
// 37 × serviceMs, as a leg; log-normal the horizon (its values are capped at 86,400,000 ms).
double longestBase(const Server& s, double horizon) {
    switch (s.serviceDist) {
        case servers::ServiceDist::Exponential: return 37 * s.serviceMs;
        case servers::ServiceDist::Lognormal: return horizon;
        case servers::ServiceDist::Fixed: break;
    }
    return s.serviceMs;
}

// Its mean base service time, the rate its workers serve at: serviceMs (fixed, exponential), or
// the log-normal's mean serviceMs × e^(σ²/2).
double meanBase(const Server& s) {
    if (s.serviceDist != servers::ServiceDist::Lognormal) return s.serviceMs;
    return s.serviceMs * streams::exactExp(s.serviceSigma * s.serviceSigma / 2);
}

bool clientScoped(const Gates& g) {
    return (g.quota && g.quota->scope == GateScope::Client) || (g.bucket && g.bucket->scope == GateScope::Client) ||
           (g.throttle && g.throttle->scope == GateScope::Client) ||
           (g.budget && g.budget->scope == GateScope::Client) || (g.breaker && g.breaker->scope == GateScope::Client) ||
           (g.admissionControl && g.admissionControl->scope == GateScope::Client);
}

FleetCost occCost(const FleetRequest& r) {
    FleetCost c;
    const double clients = r.clients;
    // Each client writes until one succeeds: a failed write needs a success between its read
    // and itself, so a run has at most clients² writes, or clients × (maxRetries + 1).
    const double perClient = r.policy.maxRetries ? std::min(clients, *r.policy.maxRetries + 1.0) : clients;
    c.requests = clients * r.runs;
    c.attempts = clients * r.runs;
    c.events = c.requests * perClient;
    c.pending = clients;
    c.bytes = kBaseBytes + kOccClientBytes * clients * kGrowth / 2 + kOccRunBytes * r.runs;
    c.ms = c.events * kNsPerWrite / 1e6;
    return c;
}

// What the bound's parts share: the request's sizes, the tries a request may make, and how long an
// attempt and a request can keep their events and record outside the queue.
struct CostShape {
    double horizon = 0;
    double clients = 0;
    bool a6 = false;
    bool perTry = false;
    bool once = false;
    int retries = 0;
    double tries = 0;
    const std::vector<Server>* servers = nullptr;
    double k = 0;
    double leg = 0;
    double slow = 1;
    double service = 0;
    double wait = 0;
    double timeout = 0;
    double attemptSpan = 0;
    double workers = 0;      // the workers summed over the servers, at most the attempts (heldAtOnce)
    bool unlimited = false;  // a server has no worker limit (heldAtOnce)
    double requestSpan = 0;
    double requests = 0;
    double durationMs = 0;
    // The requests created in any span of d ms (the rate with its spike factor, over the
    // whole duration; once: all at time 0).
    double createdWithin(double d) const {
        if (once) return requests;
        return std::min(requests, requests * d / durationMs + clients);
    }
};

// The requests, attempts and events (c.requests, c.attempts, c.events), and the tries behind them.
CostShape countsOf(const FleetRequest& r, FleetCost& c) {
    CostShape s;
    s.horizon = 2 * r.durationMs + 60000;
    s.clients = r.clients;
    s.durationMs = r.durationMs;
    // A service request always has maxRetries (§3); none would be at most 100 retries.
    // A hedged request (docs/throttling.md §6, maxRetries 0) sends up to maxAttempts copies, delayMs apart;
    // §8's hedge on per-try timeout at most maxRetries + 1 attempts, each with a soft cutoff besides.
    s.a6 = r.policy.hedging && r.policy.hedging->kind == HedgeKind::A6;
    s.perTry = r.policy.hedging && r.policy.hedging->kind == HedgeKind::PerTryTimeout;
    s.retries = s.a6 ? r.policy.hedging->maxAttempts - 1 : r.policy.maxRetries.value_or(100);
    s.tries = s.retries + 1.0;
    // docs/layers.md §9.4: a stack's bottom attempts, at most the product of its layers' tries.
    if (!r.policy.layers.empty()) {
        s.tries = 1;
        for (const FleetLayer& l : r.policy.layers) s.tries *= l.policy.maxRetries.value_or(100) + 1.0;
    }
    s.once = r.arrivals == Arrivals::Once;
    const double factor = r.spike ? std::max(1.0, r.spike->factor) : 1.0;
    // The expected count, and five standard deviations above it: a Poisson count passes that
    // less than once in three million runs, and never by much.
    const double expected = s.clients * r.ratePerClient * factor * r.durationMs / 1000;
    c.requests = s.once ? s.clients : expected + 5 * std::sqrt(expected);
    s.requests = c.requests;
    c.attempts = c.requests * s.tries;
    // Every attempt is at most five events: its send, its arrival, its waiting limit, its
    // completion and its answer; and each client's first creation. The adaptive limiter's held
    // send (docs/throttling.md §4) is one more.
    c.events = ((r.gates.adaptive ? 6 : 5) + (s.perTry ? 1 : 0)) * c.attempts + s.clients;
    // An upper layer's attempt is three events more (its send, its cutoff, its call's end), and a
    // layer's calls are at most the bottom's attempts: at most 8 an attempt with a stack.
    if (r.policy.layers.size() > 1) c.events = 8 * c.attempts + s.clients;
    return s;
}

// How long an attempt and a request can keep their events and record outside the queue.
void spansOf(const FleetRequest& r, CostShape& s) {
    const double horizon = s.horizon;
    s.leg = std::min(horizon, longestLeg(r.network));
    s.slow = r.trigger && r.trigger->kind == TriggerKind::Slowdown ? r.trigger->factor : 1.0;
    s.servers = &serversOf(r);
    s.k = static_cast<double>(s.servers->size());
    // The longest service over the servers (docs/servers.md §10).
    double service = 0;
    for (const Server& v : *s.servers) {
        double own = longestBase(v, horizon);
        if (v.serviceMsPerInFlight > 0)
            own = v.workers ? own + v.serviceMsPerInFlight * (*v.workers + 1.0)
                            : horizon;  // no bound on the attempts in service: the whole run
        service = std::max(service, own);
    }
    s.service = std::min(horizon, service * s.slow);
    // The longest wait before a retry: the backoff ceiling grows at most by max(m, 3) a failure
    // (decorrelated's 3 × previous), capped; an honoured Retry-After replaces it.
    double wait = r.policy.baseBackoffMs;
    for (int n = 1; n <= s.retries && wait < horizon; ++n) wait *= std::max(r.policy.backoffMultiplier, 3.0);
    if (r.policy.maxBackoffMs) wait = std::min(wait, *r.policy.maxBackoffMs);
    for (const Server& v : *s.servers)
        if (v.rejectRetryAfterMs && r.policy.honourRetryAfter) wait = std::max(wait, *v.rejectRetryAfterMs);
    if (s.a6) wait = std::max(wait, r.policy.hedging->delayMs);
    s.wait = std::min(horizon, wait);
    s.timeout = std::min(horizon, r.policy.clientTimeoutMs);
    // The adaptive limiter may hold a send for as long as its bucket needs (0.5 tokens a second
    // at the least, a whole fleet's sends behind one limiter): a request may then stay open to
    // the horizon.
    const double held = r.gates.adaptive ? horizon : 0;
    // §8: an attempt is waited for until the request's deadline (a per-try timeout does not end it).
    const double kept = s.perTry ? std::max(s.timeout, *r.policy.deadlineMs) : s.timeout;
    s.attemptSpan = std::min(horizon, held + s.wait + std::max(kept, 2 * s.leg + s.service));
    s.requestSpan =
        std::min(horizon, held + s.tries * (s.timeout + s.wait) + 2 * s.leg + s.service + (s.perTry ? kept : 0));
}

// The queue, the records and the events waiting at once, and the bins (c.queue, c.records,
// c.pending, c.bins).
void heldAtOnce(const FleetRequest& r, CostShape& s, FleetCost& c) {
    const double horizon = s.horizon;
    // The queue, as a fluid: attempts arrive at most at λ = (maxRetries + 1) × R / durationMs a
    // ms, over the span they can arrive in; the workers serve μ = workers / S a ms (μ / factor
    // during a slowdown). It grows by at most λ − μ a ms, plus the attempts of one service
    // time arriving at once; at most every attempt, or queueLimit.
    // docs/servers.md §10: the deepest queues and the workers summed over the servers, each with its
    // own μ and queueLimit (a server's λ is at most all of it).
    double workers = 0;
    double queued = 0;
    for (const Server& v : *s.servers) {
        const double own = v.workers ? std::min<double>(*v.workers, c.attempts) : 0;
        workers += own;
        s.unlimited = s.unlimited || !v.workers;
        if (!v.workers) continue;
        const double arriving = std::min(horizon, r.durationMs + s.tries * (s.timeout + s.wait) + s.leg);
        const double lambda = s.once ? c.attempts : c.attempts / r.durationMs;
        const double full = meanBase(v) + v.serviceMsPerInFlight * (own + 1);
        const double mu = full > 0 ? own / full : c.attempts;
        double slowSpan = 0;
        if (r.trigger && r.trigger->kind == TriggerKind::Slowdown)
            slowSpan = std::max(0.0, std::min(r.trigger->endMs, arriving) - r.trigger->startMs);
        const double fluid = std::max(0.0, lambda - mu) * arriving + std::max(0.0, lambda - mu / s.slow) * slowSpan;
        const double burst = s.tries * s.createdWithin(std::min(horizon, full * s.slow)) + own;
        queued += std::min({c.attempts, v.queueLimit ? *v.queueLimit : c.attempts, fluid + burst});
    }
    workers = std::min(workers, c.attempts);
    s.workers = workers;
    c.queue = std::min(c.attempts, queued);
    // Attempts served from the queue whose answers are still on their way back.
    const double answering = std::min(c.queue, s.service > 0 ? workers * (s.leg / s.service + 1) : c.queue);
    // A record is held while its request is open and its events pending (requestSpan), or by
    // a queue entry, an attempt in service from the queue, or its answer.
    c.records = std::min(c.requests, s.createdWithin(s.requestSpan) + c.queue + workers + answering);
    // Two events an attempt at most at once (its waiting limit and its send, arrival,
    // completion or answer) over an attempt's span, those served from the queue, the arrivals.
    // §8's attempt holds its soft cutoff too: three at once.
    const double perAttempt = s.perTry ? 3 : 2;
    c.pending = std::min(perAttempt * c.attempts + s.clients,
                         perAttempt * s.tries * s.createdWithin(s.attemptSpan) + 2 * workers + answering + s.clients);
    c.bins = std::floor(horizon / r.binMs) + 1;
}

// docs/servers.md §10: the crash events (one a crash and server, added to c.events), the
// balancer's picks and their time, and whether the run keeps per-server bins.
struct ServerCost {
    bool previousHosts = false;
    bool scans = false;
    bool perServer = false;
    double pickMs = 0;
    double serverBins = 0;
};
ServerCost serverCost(const FleetRequest& r, const CostShape& s, FleetCost& c) {
    const double k = s.k;
    double crashes = 0;
    for (const Fault& f : r.faults)
        if (f.kind == FaultKind::Crash) crashes += f.allServers ? k : static_cast<double>(f.servers.size());
    c.events += crashes;
    ServerCost v;
    v.previousHosts = r.policy.retryHost == HostRule::PreviousHosts && k > 1;
    const double picks = k > 1 ? c.attempts * (1 + (v.previousHosts ? r.policy.hostSelectionRetryMaxAttempts : 0)) : 0;
    v.scans = r.balancer.kind == servers::BalancerKind::LeastOutstanding;
    v.pickMs = picks * (v.scans ? k : 1) * kNsPerPickStep / 1e6;
    v.perServer = r.servers || !r.faults.empty();
    v.serverBins = v.perServer ? k * c.bins : 0;
    return v;
}

// The gates' state: the breaker's and the budget's windows, the admission limits, the limiters,
// the throttlers' lookbacks (c.clearedBins, c.throttlerMs) and the admission control's windows,
// added to `bytes` in that order.
void addGateBytes(const FleetRequest& r, const CostShape& s, FleetCost& c, double& bytes) {
    const double clients = s.clients;
    const double horizon = s.horizon;
    if (r.gates.breaker) {  // a closed window's outcomes, one byte each, per owner
        const double scoped = r.gates.breaker->scope == GateScope::Client ? clients : 1;
        bytes += kGrowth * std::min(scoped * r.gates.breaker->window, c.attempts);
    }
    if (r.gates.budget) {  // two windows of times; each keeps up to 4,096 stale ones per owner
        const double scoped = r.gates.budget->scope == GateScope::Client ? clients : 1;
        const double held = std::min(c.attempts, scoped * 4097 + 2 * s.tries * s.createdWithin(r.gates.budget->ttlMs));
        bytes += 2 * kGrowth * 8 * held;
    }
    // docs/throttling.md §3–§5: the admission limits, the limiters, the throttlers' lookbacks.
    if (r.server.admission)
        bytes += kAdmissionBytes * s.k * (r.server.admission->scope == GateScope::Client ? clients : 1);
    if (r.gates.adaptive) bytes += kLimiterBytes * (r.gates.adaptive->scope == GateScope::Client ? clients : 1);
    if (r.gates.local) {
        const double owners = r.gates.local->scope == GateScope::Client ? clients : 1;
        const double bins = r.gates.local->bins;
        bytes += owners * (kThrottlerBytes + 2 * 8 * bins);
        // Each lookback's head moves forward only, emptying at most `bins` bins a move: over a
        // run at most the bins its head passes (the horizon over a bin's width, plus a window),
        // and at most `bins` for each question (one before each send, one at each answer).
        const double passed = std::floor(horizon / (r.gates.local->windowMs / bins)) + 1 + bins;
        c.clearedBins = 2 * std::min(2 * c.attempts * bins, owners * passed);
        c.throttlerMs = c.clearedBins * kNsPerClearedBin / 1e6;
    }
    if (r.gates.admissionControl) {
        // A window keeps at most windowMs / 1000 buckets (their starts within the window, 1,000 ms
        // apart at least), and none older than the run: at most the horizon's seconds + 1. Each
        // send and each answer recorded makes at most one, so all windows at most 2 × attempts.
        const double owners = r.gates.admissionControl->scope == GateScope::Client ? clients : 1;
        const double kept = std::min(r.gates.admissionControl->windowMs / 1000, std::floor(horizon / 1000) + 1);
        bytes +=
            owners * kWindowBytes + kGrowth * kWindowBucketBytes * std::min(owners * kept, 2 * c.attempts + owners);
    }
}

// The peak heap (c.bytes, c.binBytes): the records, the queue, the events, the latencies, the
// servers' state, the bins, the clients and owners, and the gates'.
void heapBytes(const FleetRequest& r, const CostShape& s, const ServerCost& v, FleetCost& c) {
    const double clients = s.clients;
    const double tries = s.tries;
    double bytes = kBaseBytes;
    bytes += kGrowth * (kRecordBytes * c.records + kWaitingBytes * c.queue + kEventBytes * c.pending);
    bytes += kGrowth * kLatencyBytes * c.requests;
    // §8's attempts' state beside each record (fleet_service.cpp's TryState), and with a breaker the
    // period of each of its maxRetries + 2 attempt numbers.
    if (s.perTry) bytes += kGrowth * c.records * (kTryStateBytes + (r.gates.breaker ? 4 * (tries + 1) : 0));
    c.binBytes = kBinBytes * c.bins + kServerBinBytes * v.serverBins;
    if (v.perServer) {  // the servers, each attempt's send time, the tried servers and the records
        bytes += kServerBytes * s.k + kGrowth * 8 * c.records * (s.perTry ? tries + 1 : s.a6 ? tries + 1 : 1);
        // A ticket an attempt in service (its service time and arrival): at most the workers, or
        // with a server of unlimited workers one a pending event (its completion).
        bytes += kGrowth * kTicketBytes * (s.unlimited ? c.pending : s.workers);
        if (v.previousHosts) bytes += kGrowth * (kSlotVectorBytes * c.records + kTriedBytes * c.attempts);
        if (r.idempotencyKey) bytes += kGrowth * (kSlotVectorBytes * c.records + kRecordEntryBytes * c.attempts);
        const bool perClient = r.balancer.scope == GateScope::Client;
        bytes += kBalancerBytes * (perClient ? clients : 1);
        if (v.scans || r.balancer.kind == servers::BalancerKind::TwoChoices)
            bytes += kCountBytes * s.k * (perClient ? clients : 1);
    }
    bytes += c.binBytes;
    const double owners = clientScoped(r.gates) ? clients + 1 : 1;
    bytes += kClientBytes * clients + kOwnerBytes * owners;
    addGateBytes(r, s, c, bytes);
    c.bytes = bytes;
}

}  // namespace

FleetCost fleetCost(const FleetRequest& r) {
    if (r.workload == FleetWorkload::Occ) return occCost(r);
    FleetCost c;
    CostShape s = countsOf(r, c);
    spansOf(r, s);
    heldAtOnce(r, s, c);
    const ServerCost v = serverCost(r, s, c);
    heapBytes(r, s, v, c);
    c.binMs = c.bins * kNsPerBin / 1e6 + v.serverBins * kNsPerServerBin / 1e6;
    if (r.gates.adaptive) {
        const double limiters = r.gates.adaptive->scope == GateScope::Client ? s.clients : 1;
        c.binMs += std::min(c.bins, 2 * c.attempts) * limiters * kNsPerSummedFill / 1e6;
    }
    // A budget's or breaker's windows, or the admission control's (§7: its counts at each send, a
    // record at each answer), are written at every attempt.
    const bool windows = r.gates.budget || r.gates.breaker || r.gates.admissionControl;
    c.ms = c.events * (windows ? kNsPerWindowedEvent : kNsPerEvent) / 1e6 + c.binMs + c.throttlerMs + v.pickMs;
    return c;
}

}  // namespace retrylab
