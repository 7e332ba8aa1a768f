// FLEET.md §4–§6 and §8: the service workload as one event loop. Events are small plain
// values in a binary heap ordered by the key of §6, (time, kind, client, request, attempt);
// everything an event needs later travels in it (an attempt's waiting limit, its service
// time), so the loop keeps one record per open request and none per attempt. A request's
// record (its slot) is reused once the request has ended and no event or queue entry names it
// any more, so memory follows what is in flight, not how many requests a run makes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "fleet_bins.hpp"
#include "fleet_gates.hpp"
#include "fleet_loop.hpp"
#include "fleet_network.hpp"
#include "lane.hpp"
#include "policy.hpp"
#include "retrylab/fleet.hpp"
#include "servers.hpp"
#include "streams.hpp"
#include "throttling.hpp"

namespace retrylab {

namespace {

using streams::Distribution;

// §6's kinds, in their order at equal times.
// Crash: docs/servers.md §8.2's kind 0, a crash starting on a server (its index in the client's place).
enum Kind : std::uint64_t { Crash = 0, Completion = 1, Arrival = 2, Answer = 3, Limit = 4, Send = 5 };
// Rejected503: Envoy's admission control's local reply (docs/throttling.md §7), at the send itself,
// with no Retry-After.
// Refused and Reset: docs/servers.md §5's crash, a refused connection and a reset one.
enum Status : std::uint32_t {
    Ok200 = 0,
    Error500 = 1,
    Busy503 = 2,
    Throttled429 = 3,
    Rejected503 = 4,
    Refused = 5,
    Reset = 6
};
// A failure's class (FLEET.md §4; the 429 of docs/throttling.md §3; docs/servers.md §5's two).
enum class Failure { Timeout, ServerError, Throttled, Refused, Reset };
// An attempt's events carry its server (docs/servers.md) above the low byte of `status`, which
// holds what it held before (an answer's status, a held send, a soft cutoff; a completion's
// crash epoch): with one server, server 0, every status is as before.
constexpr int kServerShift = 8;
inline std::uint32_t lowOf(std::uint32_t status) { return status & 0xFFu; }
inline std::uint32_t serverOf(std::uint32_t status) { return status >> kServerShift; }
inline std::uint32_t withServer(std::uint32_t low, std::uint32_t server) { return low | (server << kServerShift); }
constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;  // a crash's event names no request
// A send event's status: 0 a send that asks the send gates, 1 one the adaptive limiter held
// (docs/throttling.md §4), sent when it comes with its token already taken.
constexpr std::uint32_t kHeldSend = 1;

// The key below the time: kind (3 bits), client (14), request (36), attempt (7, 1–101).
constexpr int kAttemptBits = 7;
constexpr int kRequestBits = 36;
constexpr int kClientBits = 14;

// 32 bytes: the heap and the lanes move every event several times, and at 40 (an arrival time for
// §8.3's residence in each) the one-server opening run took about 13 % longer in WebAssembly. With
// per-server rows a completion's x names its ticket instead (ServiceRun's tickets_).
struct Event {
    double t;
    std::uint64_t key;
    double x;            // Arrival: the waiting limit L; Completion, Answer: the attempt's service time
    std::uint32_t slot;  // the request's record
    std::uint32_t status;
};
static_assert(sizeof(Event) == 32, "the fleet's event is 32 bytes");

// docs/servers.md §8.3: an attempt in service, with per-server rows, holds its service time and its
// arrival at its server (for meanResidenceMs) in a ticket its completion's x names, given back when
// the completion is taken (or found aborted by a crash).
struct Ticket {
    double serviceMs;
    double arrivedMs;
};

struct EventLess {
    // Without short-circuits, so the heap can pick a child without a branch.
    bool operator()(const Event& a, const Event& b) const { return (a.t < b.t) | ((a.t == b.t) & (a.key < b.key)); }
};

inline std::uint64_t makeKey(Kind kind, std::uint32_t client, std::uint64_t request, int attempt) {
    return (static_cast<std::uint64_t>(kind) << (kClientBits + kRequestBits + kAttemptBits)) |
           (static_cast<std::uint64_t>(client) << (kRequestBits + kAttemptBits)) | (request << kAttemptBits) |
           static_cast<std::uint64_t>(attempt);
}
inline Kind keyKind(std::uint64_t key) { return static_cast<Kind>(key >> (kClientBits + kRequestBits + kAttemptBits)); }
inline int keyAttempt(std::uint64_t key) { return static_cast<int>(key & ((1u << kAttemptBits) - 1)); }

enum Flag : std::uint8_t { Ended = 1, Resolved = 2, Committed = 4, PaidCost = 8, InUse = 16 };

struct Request {
    double createdMs;
    double previousMs;  // the last backoff wait (decorrelated's "previous")
    double lastCost;    // the quota's cost last taken for this request
    std::uint32_t client;
    std::uint32_t number;   // k: the client's request number
    std::uint32_t period;   // the breaker period the current attempt was sent in
    std::uint16_t pending;  // events and queue entries that name this record
    std::uint8_t attempt;   // the current attempt n (0 before the first)
    std::uint8_t flags;
};

struct Waiting {
    double limitMs;
    std::uint32_t request;  // the slot
    std::uint32_t attempt;
    double arrivedMs;  // at its server
};

// The waiting attempts: a ring for first-in first-out, its back for last-in first-out.
class WaitQueue {
public:
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    void push(const Waiting& w) {
        if (size_ == ring_.size()) ring_.grow(head_, size_);
        ring_[(head_ + size_) & ring_.mask()] = w;
        ++size_;
        deepest_ = std::max(deepest_, size_);
    }
    std::size_t deepest() const { return deepest_; }
    Waiting popOldest() {
        Waiting w = ring_[head_];
        head_ = (head_ + 1) & ring_.mask();
        --size_;
        return w;
    }
    Waiting popNewest() {
        --size_;
        return ring_[(head_ + size_) & ring_.mask()];
    }

private:
    Ring<Waiting, 64> ring_;
    std::size_t head_ = 0, size_ = 0, deepest_ = 0;
};

// docs/throttling.md's client gates, per owner (a client, or the fleet); FLEET §5's retry gates
// hold theirs in gates::GateSet.
struct Owner {
    // Out of line, so that a run without them holds no more per owner (fleet_cost.cpp's kOwnerBytes).
    std::unique_ptr<throttling::AdaptiveLimiter> adaptive;          // docs/throttling.md §4
    std::unique_ptr<throttling::AdaptiveThrottler> local;           // docs/throttling.md §5
    std::unique_ptr<throttling::AdmissionWindow> admissionControl;  // docs/throttling.md §7
};

// docs/throttling.md §6: a hedged request's copies (at most 5; bit n of `resolved` for copy n).
struct HedgeState {
    std::uint8_t asked = 0;        // the last copy whose send was asked for (the gates, the limiter)
    std::uint8_t sent = 0;         // copies sent
    std::uint8_t failed = 0;       // copies that failed (a non-fatal class)
    std::uint8_t holding = 0;      // copies the adaptive limiter holds
    std::uint8_t resolved = 0;     // copies answered in time or timed out
    bool stopped = false;          // a gate refused a copy: no further copy
    std::uint32_t period[6] = {};  // the breaker period each copy was sent in
};
// A hedge's Send event x: what asked for it (the quota's cost follows).
constexpr double kHedgeOnDelay = 0, kHedgeAfterTimeout = 1, kHedgeAfterFailure = 2;

// docs/throttling.md §8: a request under Envoy's hedge on per-try timeout. Its attempts (at most
// maxRetries + 1 ≤ 101; bit n of a mask for attempt n) may overlap: each is waited for until the
// request's deadline, its per-try timeout a soft cutoff.
struct TryState {
    std::uint64_t resolved[2] = {};  // attempt n's answer has reached the client in time
    std::uint64_t hedged[2] = {};    // attempt n's soft cutoff has come
    std::uint16_t failures = 0;      // SPEC §4's failure number so far (soft cutoffs and failing answers)
    std::uint8_t inFlight = 0;       // attempts sent whose answer is not in
    bool scheduled = false;          // a retry is scheduled (or held by the adaptive limiter)
    bool stopped = false;            // a send was refused: no further retry
};
inline bool hasBit(const std::uint64_t (&mask)[2], int n) { return (mask[n >> 6] >> (n & 63)) & 1u; }
inline void setBit(std::uint64_t (&mask)[2], int n) { mask[n >> 6] |= std::uint64_t{1} << (n & 63); }
// A Limit event's status: 0 the waiting limit L, 1 §8's soft cutoff (the per-try timeout).
constexpr std::uint32_t kSoftCutoff = 1;

// docs/throttling.md §3's rule 1a: one admission limit (a client's, or the fleet's).
struct AdmissionLimit {
    double tokens = 0, last = 0;
};

// docs/servers.md: the servers (one without `servers`), each with its queue and work.
struct Working {  // an attempt in service on a server a crash names
    std::uint64_t key;
    std::uint32_t slot;
    std::uint32_t attempt;
    double limitMs;
};
struct Replica {
    const Server* cfg = nullptr;
    WaitQueue queue;
    std::uint64_t inService = 0;
    bool triggered = true;                                       // FLEET's trigger acts on it
    std::vector<std::pair<double, double>> crashes, partitions;  // its faults' windows
    bool tracked = false;                                        // a crash names it: its work in service is listed
    std::vector<Working> working;
    std::uint32_t epoch = 0;  // its crashes that aborted work
};
class ServiceRun {
public:
    ServiceRun(const FleetRequest& r, FleetTrace* trace, FleetWork* work)
        : r_(r), trace_(trace), work_(work), gates_(r.gates, r.clients, 1) {
        const FleetPolicy& p = r.policy;
        backoff_ = backoffOf(p);
        network_ = distributionOf(r.network);
        // SPEC §4's ceiling for failure n depends on n alone here: worked out once per n (a
        // request has at most maxRetries + 1 ≤ 101 attempts; [0] is unused).
        ceilings_ = ceilingsOf(backoff_, static_cast<std::size_t>(p.maxRetries ? *p.maxRetries + 2 : 102));
        horizon_ = 2 * r.durationMs + 60000;
        hedging_ = r.policy.hedging && r.policy.hedging->kind == HedgeKind::A6;
        perTry_ = r.policy.hedging && r.policy.hedging->kind == HedgeKind::PerTryTimeout;
        if (perTry_ && r.gates.breaker) periodStride_ = static_cast<std::size_t>(*p.maxRetries) + 2;
        const bool anyClientGate = (r.gates.adaptive && r.gates.adaptive->scope == GateScope::Client) ||
                                   (r.gates.local && r.gates.local->scope == GateScope::Client) ||
                                   (r.gates.admissionControl && r.gates.admissionControl->scope == GateScope::Client);
        owners_.resize(anyClientGate ? r.clients + 1 : 1);
        for (std::size_t i = 0; i < owners_.size(); ++i) {
            Owner& o = owners_[i];
            // The limiters and throttlers hold more state: only the owners their scope uses.
            const bool fleetOwner = i == 0;
            if (r.gates.adaptive && fleetOwner == (r.gates.adaptive->scope == GateScope::Fleet))
                o.adaptive = std::make_unique<throttling::AdaptiveLimiter>(0.0);
            if (r.gates.local && fleetOwner == (r.gates.local->scope == GateScope::Fleet))
                o.local = std::make_unique<throttling::AdaptiveThrottler>(r.gates.local->windowMs / 1000,
                                                                          static_cast<int>(r.gates.local->bins),
                                                                          r.gates.local->ratio, r.gates.local->padding);
            if (r.gates.admissionControl && fleetOwner == (r.gates.admissionControl->scope == GateScope::Fleet))
                o.admissionControl = std::make_unique<throttling::AdmissionWindow>(r.gates.admissionControl->windowMs);
        }
        if (r.gates.adaptive) fills_.assign(r.gates.adaptive->scope == GateScope::Fleet ? 1 : r.clients, 0.0);
        setUpServers();
        if (r.server.admission) {
            // docs/servers.md: every server its own limits (a client's, or the fleet's), server-major.
            admissionPer_ = r.server.admission->scope == GateScope::Fleet ? 1 : r.clients;
            admission_.resize(admissionPer_ * k_);
            for (AdmissionLimit& l : admission_) l.tokens = r.server.admission->burst;
        }
        keyOut_ = streams::purposeKey(r.seed, streams::Out);
        keyBack_ = streams::purposeKey(r.seed, streams::Back);
        keyFail_ = streams::purposeKey(r.seed, streams::Fail);
        keyWait_ = streams::purposeKey(r.seed, streams::Wait);
        keyLocal_ = streams::purposeKey(r.seed, streams::kPurposeLocal);
        keyAdmission_ = streams::purposeKey(r.seed, streams::kPurposeAdmission);
        // The delays that recur (lane.hpp's lanes): at most kLanes of them.
        if (r.network.dist == NetworkDist::Fixed) events_.addLane(r.network.ms);
        events_.addLane(r.policy.clientTimeoutMs);
        laneNetwork_ = r.network.dist == NetworkDist::Fixed ? events_.laneFor(r.network.ms) : -1;
        laneTimeout_ = events_.laneFor(r.policy.clientTimeoutMs);
        for (const Replica& each : replicas_) {
            const Server& c = *each.cfg;
            if (c.serviceMsPerInFlight != 0 || c.serviceDist != servers::ServiceDist::Fixed) continue;
            events_.addLane(c.serviceMs * 1);
            if (r.trigger && r.trigger->kind == TriggerKind::Slowdown && each.triggered)
                events_.addLane(c.serviceMs * r.trigger->factor);
        }
    }

    // A request's creation (fleet_loop.hpp's arrivals): its first send.
    auto creation() {
        return [this](std::uint32_t client, std::uint32_t k, double at) {
            const std::uint32_t id = newRequest(client, k, at);
            schedule(at, Send, id, 1);
        };
    }

    ServiceResult run() {
        arrivals_.start(creation());
        const std::uint64_t taken = events_.run(horizon_, [this](const Event& e) { process(e); });
        finish();
        if (work_) {
            work_->events = taken;
            for (const Replica& each : replicas_)
                work_->queue = std::max<std::uint64_t>(work_->queue, each.queue.deepest());
            work_->records = requests_.size();
        }
        return std::move(result_);
    }

private:
    // A network leg of attempt n of request (client, k): stream (purpose; client, k, n − 1).
    double leg(std::uint64_t purposeKey, const Request& q, int n) const {
        if (!streams::drawsFrom(network_)) return network_.a;
        const std::uint64_t key = streams::step(streams::step(streams::step(purposeKey, q.client), q.number),
                                                static_cast<std::uint64_t>(n - 1));
        return streams::sample(network_, key);
    }
    double attemptDraw(std::uint64_t purposeKey, const Request& q, int n) const {
        const std::uint64_t key = streams::step(streams::step(streams::step(purposeKey, q.client), q.number),
                                                static_cast<std::uint64_t>(n - 1));
        return streams::draw(key, 0);
    }

    Owner& owner(GateScope scope, std::uint32_t client) {
        return scope == GateScope::Fleet ? owners_[0] : owners_[client + 1];
    }

    std::uint32_t newRequest(std::uint32_t client, std::uint32_t k, double at) {
        Request q{};
        q.createdMs = at;
        q.client = client;
        q.number = k;
        q.previousMs = r_.policy.baseBackoffMs;
        q.flags = InUse;
        if (!free_.empty()) {
            const std::uint32_t slot = free_.back();
            free_.pop_back();
            requests_[slot] = q;
            if (hedging_) hedge_[slot] = HedgeState{};
            if (perTry_) tries_[slot] = TryState{};
            if (previousHosts_) tried_[slot].clear();
            if (keysTracked_) records_[slot].clear();
            return slot;
        }
        if (previousHosts_) tried_.emplace_back();
        if (keysTracked_) records_.emplace_back();
        if (sentStride_) sentAt_.resize((requests_.size() + 1) * sentStride_);
        requests_.push_back(q);
        if (hedging_) hedge_.push_back(HedgeState{});
        if (perTry_) {
            tries_.push_back(TryState{});
            periods_.resize(requests_.size() * periodStride_);
        }
        return static_cast<std::uint32_t>(requests_.size() - 1);
    }

    // Gives the slot back once its request has ended and nothing names it.
    [[gnu::always_inline]] void release(std::uint32_t slot) {
        Request& q = requests_[slot];
        if ((q.flags & Ended) && q.pending == 0 && (q.flags & InUse)) {
            q.flags = 0;
            free_.push_back(slot);
        }
    }

    // An event at now + delay: in the lane of that delay if there is one, else in the heap.
    void scheduleAfter(double now, double delay, Kind kind, std::uint32_t slot, int attempt, double x = 0,
                       std::uint32_t status = 0) {
        scheduleIn(events_.laneFor(delay), now + delay, kind, slot, attempt, x, status);
    }
    // An event at t in lane i (t being now + the lane's delay), or in the heap when i < 0.
    [[gnu::always_inline]] void scheduleIn(int i, double t, Kind kind, std::uint32_t slot, int attempt, double x = 0,
                                           std::uint32_t status = 0) {
        Request& q = requests_[slot];
        ++q.pending;
        events_.put(i, Event{t, makeKey(kind, q.client, q.number, attempt), x, slot, status});
    }

    void schedule(double t, Kind kind, std::uint32_t slot, int attempt, double x = 0, std::uint32_t status = 0) {
        Request& q = requests_[slot];
        ++q.pending;
        events_.push(Event{t, makeKey(kind, q.client, q.number, attempt), x, slot, status});
    }

    ServiceBin& bin(double t) {
        const std::size_t b = bins_.of(t);
        if (b >= result_.bins.size()) growBins(b + 1);
        return result_.bins[b];
    }
    // The bins to `size`, each with a row per server when the result has them (docs/servers.md §8.3).
    void growBins(std::size_t size) {
        const std::size_t from = result_.bins.size();
        if (size <= from) return;
        result_.bins.resize(size);
        if (extended_)
            for (std::size_t b = from; b < size; ++b) result_.bins[b].servers.resize(k_);
    }

    // Writes the state after the last event into every bin before the one at time t.
    void advanceTo(double t) {
        bins_.advanceTo(t, [this](std::size_t b) { writeState(b); });
    }
    void writeState(std::size_t b) {
        if (b >= result_.bins.size()) growBins(b + 1);
        ServiceBin& s = result_.bins[b];
        std::uint64_t queued = 0, serving = 0;
        for (std::size_t j = 0; j < k_; ++j) {
            const Replica& each = replicas_[j];
            queued += each.queue.size();
            serving += each.inService;
            if (extended_) {
                s.servers[j].queue = each.queue.size();
                s.servers[j].inService = each.inService;
            }
        }
        s.queue = queued;
        s.inService = serving;
        s.tokens = fleetTokens();
        if (r_.gates.adaptive) writeSendRate(s);
    }
    // docs/throttling.md §4.1: the enabled limiters and the mean of their fill rates, summed in
    // client order (a limiter not enabled holds 0 in fills_, which adds exactly nothing). Summed
    // again only after a bin in which some limiter's rate was set.
    void writeSendRate(ServiceBin& s) {
        if (fillsChanged_) {
            double sum = 0;
            for (double f : fills_) sum += f;
            sendRate_ = limiting_ ? std::optional<double>(sum / static_cast<double>(limiting_)) : std::nullopt;
            fillsChanged_ = false;
        }
        s.limiting = limiting_;
        s.sendRate = sendRate_;
    }
    // §4: an outcome the client sees reaches its limiter (or the fleet's); §4.1 keeps its fill.
    void limiterHears(std::uint32_t client, double t, bool throttled) {
        const bool fleet = r_.gates.adaptive->scope == GateScope::Fleet;
        throttling::AdaptiveLimiter& l = *owner(r_.gates.adaptive->scope, client).adaptive;
        l.onResponse(t / 1000, throttled);
        if (!l.enabled()) return;
        double& f = fills_[fleet ? 0 : client];
        if (f == 0) ++limiting_;
        f = l.fillRate();
        fillsChanged_ = true;
    }
    std::optional<double> fleetTokens() const { return gates_.fleetTokens(); }

    void process(const Event& e) {
        const Kind kind = keyKind(e.key);
        if (kind == Crash) return crash(e);
        const std::uint32_t id = e.slot;
        const int n = keyAttempt(e.key);
        Request& q = requests_[id];
        --q.pending;
        // A waiting limit whose attempt was answered in time, or whose request has ended, is
        // not an event.
        if (kind == Limit && (hedging_  ? copyDone(id, n)
                              : perTry_ ? tryDone(id, n)
                                        : ((q.flags & (Ended | Resolved)) || q.attempt != n))) {
            // docs/servers.md §4.3: an attempt of a request that has ended stops being outstanding at
            // its limit all the same, unless its answer came in time.
            if (countsOn_ && lowOf(e.status) != kSoftCutoff &&
                (hedging_ ? !(hedge_[id].resolved & (1u << n)) : perTry_ && !hasBit(tries_[id].resolved, n)))
                endOutstanding(q.client, serverOf(e.status));
            release(id);
            return;
        }
        // docs/servers.md §5: a completion whose work a crash aborted is not an event.
        if (kind == Completion && lowOf(e.status) != replicas_[serverOf(e.status)].epoch) {
            freeTickets_.push_back(static_cast<std::uint32_t>(e.x));  // a crash names a server: rows are on
            release(id);
            return;
        }
        // A hedge's send that another has overtaken, or after the request's end, is not an event either.
        if (hedging_ && kind == Send && staleCopy(id, n, e.status == kHeldSend)) {
            release(id);
            return;
        }
        // §8: a retry scheduled that comes after the request's end is not an event.
        if (perTry_ && kind == Send && (q.flags & Ended)) {
            release(id);
            return;
        }
        advanceTo(e.t);
        result_.totals.endMs = e.t;
        if (trace_) trace_->events.push_back(FleetTraceEvent{e.t, static_cast<int>(kind), q.client, q.number, n});
        switch (kind) {
            case Send: send(id, n, e.t, e.status == kHeldSend, e.x); break;
            case Arrival: arrive(id, n, e.t, e.x, serverOf(e.status)); break;
            case Completion: complete(id, n, e.t, e.x, serverOf(e.status)); break;
            case Answer: answer(id, n, e.t, e.x, e.status); break;
            case Limit:
                perTry_ ? tryLimit(id, n, e.t, lowOf(e.status) == kSoftCutoff, serverOf(e.status))
                        : timeout(id, n, e.t, serverOf(e.status));
                break;
            case Crash: break;
        }
        release(id);
    }

    // A send at t (a request's creation and first attempt, or a retry); `held`: the adaptive
    // limiter's delayed send of docs/throttling.md §4, coming now with its token taken.
    void send(std::uint32_t id, int n, double t, bool held, double trigger = kHedgeOnDelay) {
        const std::uint32_t client = requests_[id].client;
        if (n == 1 && !held) {
            ++result_.totals.requests;
            ++bin(t).created;
            arrivals_.created(client, requests_[id].number, t, creation());  // may move requests_
        }
        if (hedging_ && !held) {
            hedge_[id].asked = static_cast<std::uint8_t>(n);
            if (n > 1 && !hedgeGates(id, t, trigger)) return;
        }
        if (hedging_ && held) --hedge_[id].holding;
        if (!held && (r_.gates.local || r_.gates.adaptive) && !sendGates(id, n, t)) return;
        std::uint32_t period = 0;
        if (!gates_.admits(0, client, t, period)) return refuseSend(id, n, t, EndReason::CircuitOpen);
        // docs/throttling.md §7: Envoy's admission control, after every client gate has let the attempt go.
        const bool rejected = r_.gates.admissionControl && admissionRejects(id, n, t);
        Request& sent = requests_[id];
        ServiceBin& b = bin(t);
        if (rejected) {  // not sent: not an attempt, no deposit, no budget's first attempt
            ++result_.totals.admissionRejected;
            ++b.admissionRejected;
        } else {
            ++result_.totals.attempts;
            if (n == 1) {
                ++result_.totals.firstAttempts;
                ++b.firstAttempts;
                gates_.firstSent(0, sent.client, t);
            } else {
                ++result_.totals.retries;
                ++b.retries;
            }
        }
        sent.attempt = static_cast<std::uint8_t>(n);
        sent.flags &= static_cast<std::uint8_t>(~Resolved);
        sent.period = period;
        if (perTry_) trySent(id, n, period);
        if (rejected) return rejectLocally(id, n, t, period);
        const std::uint32_t host = pickHost(id, n, t);
        if (perTry_) return tryLimits(id, n, t, host);
        double limit = t + r_.policy.clientTimeoutMs;
        if (r_.policy.deadlineMs) limit = std::min(limit, sent.createdMs + *r_.policy.deadlineMs);
        const std::uint32_t at = withServer(0, host);
        if (laneNetwork_ >= 0)  // a fixed network: every leg is the lane's delay
            scheduleIn(laneNetwork_, t + network_.a, Arrival, id, n, limit, at);
        else
            scheduleAfter(t, leg(keyOut_, sent, n), Arrival, id, n, limit, at);
        if (limit == t + r_.policy.clientTimeoutMs)
            scheduleIn(laneTimeout_, limit, Limit, id, n, 0, at);
        else
            schedule(limit, Limit, id, n, 0, at);
        if (hedging_) {
            HedgeState& h = hedge_[id];
            h.sent = static_cast<std::uint8_t>(n);
            h.period[n] = period;
            if (n < r_.policy.hedging->maxAttempts)
                schedule(t + r_.policy.hedging->delayMs, Send, id, n + 1, kHedgeOnDelay);
        }
    }

    // ---- docs/throttling.md §7: Envoy's admission control -------------------------------------------

    // §7.2's steps 1–3 at a send at t: the average rate (read before the counts' update) below
    // rpsThreshold lets it go; else the probability of the window's counts against draw 0 of
    // ADMISSION (client, request, attempt id).
    bool admissionRejects(std::uint32_t id, int n, double t) {
        const AdmissionControlGate& g = *r_.gates.admissionControl;
        const Request& q = requests_[id];
        throttling::AdmissionWindow& w = *owner(g.scope, q.client).admissionControl;
        if (static_cast<double>(w.averageRps(t)) < g.rpsThreshold) return false;
        const throttling::AdmissionWindow::Counts c = w.counts(t);
        const double p =
            throttling::rejectionProbability(static_cast<double>(c.requests), static_cast<double>(c.successes),
                                             g.srThreshold / 100, g.aggression, g.maxRejectionProbability / 100);
        return throttling::rejects(p, attemptDraw(keyAdmission_, q, n));
    }

    // A rejected attempt: its 503 reaches the client at t, at once (Envoy's local reply is sent
    // within the request's own call), and FLEET §4 goes on as for any answer in time. A hedged
    // copy counts as a copy asked and answered (the next on its delay, or at once if non-fatal).
    void rejectLocally(std::uint32_t id, int n, double t, std::uint32_t period) {
        if (hedging_) {
            HedgeState& h = hedge_[id];
            h.sent = static_cast<std::uint8_t>(n);
            h.period[n] = period;
            if (n < r_.policy.hedging->maxAttempts)
                schedule(t + r_.policy.hedging->delayMs, Send, id, n + 1, kHedgeOnDelay);
        }
        answer(id, n, t, 0, Rejected503);
    }

    // §7.3: an answer in time is recorded at its arrival, a success iff its status is below 500
    // (a 429 is one); a rejection is not.
    void admissionRecord(const Request& q, double t, std::uint32_t status) {
        if (status == Rejected503) return;
        owner(r_.gates.admissionControl->scope, q.client)
            .admissionControl->record(t, status == Ok200 || status == Throttled429);
    }

    // ---- docs/throttling.md §6: hedging ----------------------------------------------------------

    // FLEET §4 rule 4: the gates a retry asks, in order (quota, bucket, throttle, budget), for a
    // retry and for a hedged copy alike (docs/throttling.md §6). The first refusal's reason; or,
    // when none refuses, each gate's cost paid and nothing returned.
    std::optional<EndReason> askRetryGates(Request& q, double t, bool afterTimeout) {
        gates::RetryAsk ask{t, afterTimeout, std::nullopt};
        const std::optional<EndReason> refused = gates_.askRetry(0, q.client, ask);
        if (ask.quotaPaid) {
            q.lastCost = *ask.quotaPaid;
            q.flags |= PaidCost;
        }
        return refused;
    }

    // What the gates read of an answer to request q's current attempt.
    gates::Received received(const Request& q, double t, bool retryable) const {
        return gates::Received{t, q.period, (q.flags & PaidCost) ? std::optional<double>(q.lastCost) : std::nullopt,
                               retryable};
    }

    bool copyDone(std::uint32_t id, int n) const {
        return (requests_[id].flags & Ended) || (hedge_[id].resolved & (1u << n));
    }
    // A send of copy n that need not happen: the request has ended; or (not held) a gate has
    // stopped the copies, or copy n's send has been asked for already (a failure sent it at once).
    bool staleCopy(std::uint32_t id, int n, bool held) const {
        if (requests_[id].flags & Ended) return true;
        if (held || n == 1) return false;
        const HedgeState& h = hedge_[id];
        return h.stopped || h.asked >= n;
    }
    // No further copy. With none in flight or held the request ends now, by the refusal's reason
    // (as a refused retry ends, FLEET §4 rule 4); else when the last in flight has failed
    // (attempt-limit: no copy left to send).
    void stopCopies(std::uint32_t id, double t, EndReason reason) {
        HedgeState& h = hedge_[id];
        h.stopped = true;
        if (h.failed == h.sent && h.holding == 0) end(id, reason, t);
    }
    // A copy after the first asks the retry gates as a retry would (FLEET §4 rule 4; the quota's
    // cost by what asked for it: a timeout's, else retryCost), and is not sent at or after the
    // request's deadline. False: refused (no further copy).
    bool hedgeGates(std::uint32_t id, double t, double trigger) {
        Request& q = requests_[id];
        if (r_.policy.deadlineMs && t >= q.createdMs + *r_.policy.deadlineMs) {
            stopCopies(id, t, EndReason::Deadline);
            return false;
        }
        if (const std::optional<EndReason> refused = askRetryGates(q, t, trigger == kHedgeAfterTimeout))
            return stopCopies(id, t, *refused), false;
        return true;
    }

    void hedgeAnswer(std::uint32_t id, int n, double t, double serviceMs, std::uint32_t packed) {
        Request& q = requests_[id];
        const std::uint32_t host = serverOf(packed), status = lowOf(packed);
        if (copyDone(id, n)) return lateAnswer(t, serviceMs, host);
        answeredInTime(id, n, host, status);
        hedge_[id].resolved = static_cast<std::uint8_t>(hedge_[id].resolved | (1u << n));
        if (r_.gates.adaptive || r_.gates.local) answerSeen(q, t, status == Throttled429);
        if (r_.gates.admissionControl) admissionRecord(q, t, status);
        q.period = hedge_[id].period[n];
        if (status == Ok200) return succeed(id, t);
        hedgeFail(id, failureOf(status), t);
    }

    // A copy's failure: the throttle's token and the breaker's outcome as any failure's; a fatal
    // class ends the request; a non-fatal one sends the next copy at once, or, with none left to
    // send and none in flight, ends it attempt-limit.
    void hedgeFail(std::uint32_t id, Failure failure, double t) {
        Request& q = requests_[id];
        gates_.failed(0, q.client, received(q, t, retried(failure)));
        const Hedging& hp = *r_.policy.hedging;
        const bool nonFatal = failure == Failure::Timeout       ? hp.nonFatalTimeout
                              : failure == Failure::ServerError ? hp.nonFatal5xx
                              : failure == Failure::Refused     ? hp.nonFatal5xx || hp.nonFatalRefused
                              : failure == Failure::Reset       ? hp.nonFatal5xx || hp.nonFatalReset
                                                                : hp.nonFatal429;
        if (!nonFatal) return end(id, EndReason::NotRetryable, t);
        HedgeState& h = hedge_[id];
        ++h.failed;
        if (!h.stopped && h.asked < hp.maxAttempts) {
            schedule(t, Send, id, h.asked + 1, failure == Failure::Timeout ? kHedgeAfterTimeout : kHedgeAfterFailure);
            return;
        }
        if (h.failed == h.sent && h.holding == 0) end(id, EndReason::AttemptLimit, t);
    }

    // ---- docs/throttling.md §8: Envoy's hedge on per-try timeout -----------------------------------

    bool tryDone(std::uint32_t id, int n) const {
        return (requests_[id].flags & Ended) || hasBit(tries_[id].resolved, n);
    }
    // D = a + deadlineMs (the request's validation needs a deadline; a typed request without one
    // waits to the horizon).
    double tryDeadline(const Request& q) const {
        return r_.policy.deadlineMs ? q.createdMs + *r_.policy.deadlineMs : std::numeric_limits<double>::infinity();
    }
    std::uint32_t tryPeriod(std::uint32_t id, int n) const {
        return periodStride_ ? periods_[id * periodStride_ + static_cast<std::size_t>(n)] : 0;
    }
    // Attempt n has gone (or been rejected by the admission control, its 503 to come at once).
    void trySent(std::uint32_t id, int n, std::uint32_t period) {
        TryState& s = tries_[id];
        s.scheduled = false;
        ++s.inFlight;
        if (periodStride_) periods_[id * periodStride_ + static_cast<std::size_t>(n)] = period;
    }
    // Attempt n sent at t: its arrival with the waiting limit L = D, the limit at D, and its soft
    // cutoff at t + clientTimeoutMs when that is before D.
    void tryLimits(std::uint32_t id, int n, double t, std::uint32_t host) {
        const Request& q = requests_[id];
        const double deadline = tryDeadline(q);
        const std::uint32_t at = withServer(0, host);
        if (laneNetwork_ >= 0)
            scheduleIn(laneNetwork_, t + network_.a, Arrival, id, n, deadline, at);
        else
            scheduleAfter(t, leg(keyOut_, q, n), Arrival, id, n, deadline, at);
        if (deadline <= horizon_) schedule(deadline, Limit, id, n, 0, at);
        const double soft = t + r_.policy.clientTimeoutMs;
        if (soft < deadline) scheduleIn(laneTimeout_, soft, Limit, id, n, 0, withServer(kSoftCutoff, host));
    }
    // A send refused after attempt 1 (the local throttle, the breaker, the limiter's deadline): no
    // further retry; with no attempt in flight the request ends now by the refusal's reason.
    void refuseRetry(std::uint32_t id, double t, EndReason reason) {
        TryState& s = tries_[id];
        s.scheduled = false;
        s.stopped = true;
        if (s.inFlight == 0) end(id, reason, t);
    }
    // A failure the client sees (a soft cutoff or a failing answer): the throttle's token and the
    // breaker's outcome, as FLEET §4 takes them for any failure.
    void tryFailureSeen(Request& q, Failure failure, double t) {
        gates_.failed(0, q.client, received(q, t, retried(failure)));
    }
    // The retry after failure number f of attempt n at t (FLEET §4 rules 2–4 as §8 reads them): none
    // when a retry is scheduled or none is left; else the wait (an honoured Retry-After, or the
    // backoff for failure f with WAIT of attempt n), the deadline and the gates. The reason it is
    // not scheduled, or none when it is.
    std::optional<EndReason> tryRetry(std::uint32_t id, int n, double t, bool afterTimeout, double retryAfterMs) {
        Request& q = requests_[id];
        TryState& s = tries_[id];
        if (s.scheduled || s.stopped || q.attempt >= *r_.policy.maxRetries + 1) return EndReason::AttemptLimit;
        const FleetPolicy& p = r_.policy;
        double wait = 0;
        const bool backoff = !(retryAfterMs >= 0 && p.honourRetryAfter);
        if (!backoff) {
            wait = retryAfterMs;
        } else {
            const auto f = static_cast<std::size_t>(s.failures);
            const double ceiling = f < ceilings_.size() ? ceilings_[f] : ceilingFor(backoff_, s.failures);
            const double d = p.jitter == Jitter::None ? 0.0 : attemptDraw(keyWait_, q, n);
            wait = jitteredWait(backoff_, ceiling, q.previousMs, d);
        }
        if (t + wait >= tryDeadline(q)) return EndReason::Deadline;
        if (const std::optional<EndReason> refused = askRetryGates(q, t, afterTimeout)) return refused;
        if (backoff) q.previousMs = wait;
        s.scheduled = true;
        scheduleAfter(t, wait, Send, id, q.attempt + 1);
        return std::nullopt;
    }
    // A limit of attempt n at t: the deadline ends the request; a soft cutoff is a timeout the gates
    // learn of, the attempt hedged and a retry scheduled if one may be, the attempt left in flight.
    void tryLimit(std::uint32_t id, int n, double t, bool soft, std::uint32_t host) {
        if (!soft && countsOn_) endOutstanding(requests_[id].client, host);
        ++bin(t).timeouts;
        if (!soft) return end(id, EndReason::Deadline, t);
        Request& q = requests_[id];
        TryState& s = tries_[id];
        setBit(s.hedged, n);
        ++s.failures;
        if (r_.gates.adaptive) owner(r_.gates.adaptive->scope, q.client).adaptive->onResponse(t / 1000, false);
        q.period = tryPeriod(id, n);
        tryFailureSeen(q, Failure::Timeout, t);
        tryRetry(id, n, t, true, -1);
    }
    // An answer of attempt n at t: late after the end; else the gates learn of it, a 200 ends the
    // request, a failure outside retryOn ends it, and one the policy would retry is retried, or
    // dropped while another attempt is in flight or a retry scheduled, or ends the request.
    void tryAnswer(std::uint32_t id, int n, double t, double serviceMs, std::uint32_t packed) {
        Request& q = requests_[id];
        const std::uint32_t host = serverOf(packed), status = lowOf(packed);
        if (q.flags & Ended) return lateAnswer(t, serviceMs, host);
        answeredInTime(id, n, host, status);
        TryState& s = tries_[id];
        setBit(s.resolved, n);
        --s.inFlight;
        if (r_.gates.adaptive || r_.gates.local) answerSeen(q, t, status == Throttled429);
        if (r_.gates.admissionControl) admissionRecord(q, t, status);
        q.period = tryPeriod(id, n);
        if (status == Ok200) return succeed(id, t);
        ++s.failures;
        const Failure failure = failureOf(status);
        tryFailureSeen(q, failure, t);
        if (!retried(failure)) return end(id, EndReason::NotRetryable, t);
        double retryAfterMs = -1;
        const Server& from = *replicas_[host].cfg;
        if (status == Busy503 && from.rejectRetryAfterMs) retryAfterMs = *from.rejectRetryAfterMs;
        if (status == Throttled429 && r_.server.admission->retryAfterMs)
            retryAfterMs = *r_.server.admission->retryAfterMs;
        const std::optional<EndReason> reason = hasBit(s.hedged, n) ? std::optional<EndReason>(EndReason::AttemptLimit)
                                                                    : tryRetry(id, n, t, false, retryAfterMs);
        if (!reason || s.inFlight > 0 || s.scheduled) return;  // retried, or dropped
        end(id, *reason, t);
    }

    // Attempt n's send refused by a gate (the local throttle, the breaker, the limiter's deadline):
    // a hedge's later copy stops the copies (§6), a per-try retry is refused (§8); otherwise the
    // request ends by the refusal's reason.
    void refuseSend(std::uint32_t id, int n, double t, EndReason reason) {
        if (hedging_ && n > 1) return stopCopies(id, t, reason);
        if (perTry_ && n > 1) return refuseRetry(id, t, reason);
        end(id, reason, t);
    }

    // docs/throttling.md §4–§5, before every send: the local throttle (which may refuse it), then
    // the adaptive limiter (which may hold it). False: not sent now (ended, or held to t + w).
    bool sendGates(std::uint32_t id, int n, double t) {
        const Request& q = requests_[id];
        if (r_.gates.local) {
            const double u = attemptDraw(keyLocal_, q, n);
            if (owner(r_.gates.local->scope, q.client).local->shouldThrottle(t / 1000, u)) {
                refuseSend(id, n, t, EndReason::LocalThrottle);
                return false;
            }
        }
        if (r_.gates.adaptive) {
            const double w = owner(r_.gates.adaptive->scope, q.client).adaptive->beforeSend(t / 1000);
            if (w > 0) {
                const double at = t + w * 1000;
                if (r_.policy.deadlineMs && at >= q.createdMs + *r_.policy.deadlineMs) {
                    refuseSend(id, n, t, EndReason::Deadline);  // the token is not given back
                    return false;
                }
                bin(t).gateWaitMs += w * 1000;
                if (hedging_) ++hedge_[id].holding;
                schedule(at, Send, id, n, 0, kHeldSend);
                return false;
            }
        }
        return true;
    }

    // docs/throttling.md §4–§5: what the send gates learn of an answer the client sees in time.
    void answerSeen(const Request& q, double t, bool throttled) {
        if (r_.gates.adaptive) limiterHears(q.client, t, throttled);
        if (r_.gates.local) owner(r_.gates.local->scope, q.client).local->registerResponse(t / 1000, throttled);
    }

    bool outageAt(double t, std::uint32_t host) const {
        return r_.trigger && r_.trigger->kind == TriggerKind::Outage && replicas_[host].triggered &&
               t >= r_.trigger->startMs && t < r_.trigger->endMs;
    }
    bool workerFree(const Replica& s) const { return !s.cfg->workers || s.inService < *s.cfg->workers; }
    ServerTotals& row(std::uint32_t host) { return result_.totals.servers[host]; }

    void reject(std::uint32_t id, int n, double t, std::uint32_t host) {
        const Request& q = requests_[id];
        scheduleAfter(t, leg(keyBack_, q, n), Answer, id, n, 0, withServer(Busy503, host));
    }

    void arrive(std::uint32_t id, int n, double t, double limit, std::uint32_t host) {
        Replica& server = replicas_[host];
        if (faultsOn_ && arriveFaulted(id, n, t, host)) return;
        if (outageAt(t, host)) {
            ++result_.totals.outageRejected;
            ServiceBin& b = bin(t);
            ++b.outageRejected;
            if (extended_) ++row(host).outageRejected, ++b.servers[host].outageRejected;
            reject(id, n, t, host);
            return;
        }
        if (r_.server.admission && !admit(id, n, t, host)) return;
        const Waiting w{limit, id, static_cast<std::uint32_t>(n), t};
        if (workerFree(server)) {
            startService(w, t, host);
            return;
        }
        if (!server.cfg->queueLimit || server.queue.size() < *server.cfg->queueLimit) {
            ++requests_[id].pending;
            server.queue.push(w);
            return;
        }
        ++result_.totals.shed;
        ServiceBin& b = bin(t);
        ++b.shed;
        if (extended_) ++row(host).shed, ++b.servers[host].shed;
        reject(id, n, t, host);
    }

    // docs/servers.md §8.1: a partition covering t drops the attempt on its way (no answer: its
    // limit decides); a crash covering t refuses it, the refusal leaving at t. True: so handled.
    bool arriveFaulted(std::uint32_t id, int n, double t, std::uint32_t host) {
        const Replica& server = replicas_[host];
        if (covers(server.partitions, t)) {
            ++result_.totals.partitioned;
            ++row(host).partitioned;
            ++bin(t).servers[host].partitioned;
            return true;
        }
        if (!covers(server.crashes, t)) return false;
        ++result_.totals.refused;
        ++row(host).refused;
        ++bin(t).servers[host].refused;
        scheduleAfter(t, leg(keyBack_, requests_[id], n), Answer, id, n, 0, withServer(Refused, host));
        return true;
    }
    static bool covers(const std::vector<std::pair<double, double>>& windows, double t) {
        for (const auto& w : windows)
            if (w.first <= t && t < w.second) return true;
        return false;
    }
    // An answer leaving `host` at t under a partition never arrives (docs/servers.md §5). True: lost.
    bool answerLost(std::uint32_t host, double t) {
        if (!faultsOn_ || !covers(replicas_[host].partitions, t)) return false;
        ++result_.totals.answersLost;
        ++row(host).answersLost;
        return true;
    }

    // docs/throttling.md §3's rule 1a: the limit refills by the time since its last arrival and
    // takes a token, or the attempt is answered 429 at t + answerMs (no worker, no queue). Each
    // server holds its own limits (docs/servers.md).
    bool admit(std::uint32_t id, int n, double t, std::uint32_t host) {
        const Admission& a = *r_.server.admission;
        AdmissionLimit& l = admission_[host * admissionPer_ + (a.scope == GateScope::Fleet ? 0 : requests_[id].client)];
        l.tokens = std::min(a.burst, l.tokens + ((t - l.last) * a.ratePerSecond) / 1000);
        l.last = t;
        if (l.tokens >= 1) {
            l.tokens = l.tokens - 1;
            return true;
        }
        ++result_.totals.throttled;
        ++bin(t).throttled;
        if (answerLost(host, t + a.answerMs)) return false;
        const double back = leg(keyBack_, requests_[id], n);
        if (a.answerMs == 0)
            scheduleAfter(t, back, Answer, id, n, 0, withServer(Throttled429, host));
        else
            schedule((t + a.answerMs) + back, Answer, id, n, 0, withServer(Throttled429, host));
        return false;
    }

    [[gnu::always_inline]] void startService(const Waiting& w, double t, std::uint32_t host) {
        Replica& server = replicas_[host];
        const Server& c = *server.cfg;
        double f = 1;
        if (r_.trigger && r_.trigger->kind == TriggerKind::Slowdown && server.triggered && t >= r_.trigger->startMs &&
            t < r_.trigger->endMs)
            f = r_.trigger->factor;
        double base = c.serviceMs;
        if (c.serviceDist !=
            servers::ServiceDist::Fixed) {  // docs/servers.md §3.3: SERVICE (client, request, attempt id)
            const Request& q = requests_[w.request];
            const std::uint64_t key = streams::step(streams::step(streams::step(keyService_, q.client), q.number),
                                                    static_cast<std::uint64_t>(w.attempt - 1));
            base = servers::serviceBase(c.serviceDist, c.serviceMs, c.serviceSigma, key);
        }
        const double s = (base + c.serviceMsPerInFlight * (server.inService + 1)) * f;
        if ((c.dropStale != DropStale::Never && t >= w.limitMs) ||
            (c.dropStale == DropStale::Unfinishable && t + s > w.limitMs)) {
            ++result_.totals.cancelled;
            if (extended_) ++row(host).cancelled;
            return;
        }
        ++result_.totals.served;
        ServiceBin& b = bin(t);
        ++b.served;
        if (extended_) ++row(host).served, ++b.servers[host].served;
        ++server.inService;
        if (server.tracked) {
            const Request& q = requests_[w.request];
            server.working.push_back(Working{makeKey(Arrival, q.client, q.number, static_cast<int>(w.attempt)),
                                             w.request, w.attempt, w.limitMs});
        }
        scheduleAfter(t, s, Completion, w.request, static_cast<int>(w.attempt), extended_ ? ticket(s, w.arrivedMs) : s,
                      withServer(server.epoch, host));
    }

    // FLEET §4's commit of a 200 to a charge on `host` at t: a replay when the request's earlier
    // charge is visible to it at t (docs/servers.md §6; with one store, any earlier commit), else a
    // charge, a duplicate after the request's first.
    void commit(Request& q, std::uint32_t id, std::uint32_t host, double t) {
        bool replay = r_.idempotencyKey && (q.flags & Committed);
        if (replay && keysTracked_) {
            replay = false;
            for (const auto& record : records_[id])
                if (servers::visible(r_.keyStore.scope, r_.keyStore.lagMs, record.first, host, record.second, t))
                    replay = true;
        }
        if (replay) {
            ++result_.totals.replays;
            if (extended_) ++row(host).replays;
        } else {
            ++result_.totals.charges;
            if (extended_) ++row(host).charges;
            if (q.flags & Committed) {
                ++result_.totals.duplicateCharges;
                if (extended_) ++row(host).duplicateCharges;
            }
            if (keysTracked_) records_[id].emplace_back(static_cast<std::uint16_t>(host), t);
        }
        q.flags |= Committed;
    }

    // A ticket for an attempt starting service (its index, exact as a double).
    double ticket(double serviceMs, double arrivedMs) {
        std::uint32_t i;
        if (freeTickets_.empty()) {
            i = static_cast<std::uint32_t>(tickets_.size());
            tickets_.push_back(Ticket{serviceMs, arrivedMs});
        } else {
            i = freeTickets_.back();
            freeTickets_.pop_back();
            tickets_[i] = Ticket{serviceMs, arrivedMs};
        }
        return i;
    }

    // `x`: the completion's service time, or with per-server rows its ticket.
    void complete(std::uint32_t id, int n, double t, double x, std::uint32_t host) {
        double serviceMs = x, arrivedMs = 0;
        if (extended_) {
            const auto i = static_cast<std::uint32_t>(x);
            serviceMs = tickets_[i].serviceMs;
            arrivedMs = tickets_[i].arrivedMs;
            freeTickets_.push_back(i);
        }
        Replica& server = replicas_[host];
        --server.inService;
        if (server.tracked) forget(server, id, n);
        Request& q = requests_[id];
        // The coin FAIL below failureRate. A draw lies in [0, 1), so a rate of 0 never fails
        // and a rate of 1 always does: the draw is made only when it can decide.
        const double rate = server.cfg->failureRate;
        const bool failed = rate > 0 && (rate >= 1 || attemptDraw(keyFail_, q, n) < rate);
        if (!failed && r_.operation != Operation::Read) commit(q, id, host, t);
        if (extended_) {
            ServerTotals& own = row(host);
            ++(failed ? own.failed : own.succeeded);
            ++own.completions;
            own.serviceSumMs += serviceMs;
            own.residenceSumMs += t - arrivedMs;
        }
        if (!answerLost(host, t)) {
            const double back = leg(keyBack_, q, n);
            if (!trace_ && (hedging_  ? copyDone(id, n)
                            : perTry_ ? (q.flags & Ended) != 0
                                      : ((q.flags & (Ended | Resolved)) || q.attempt != n))) {
                // Already answered by its waiting limit, or its request has ended: whatever happens
                // before the answer arrives, it is late (a request's attempt number only grows, and
                // its flags for attempt n stay set), so it is counted now, in the bin of its time,
                // and never becomes an event. A traced run (FleetTrace) keeps it as one; the counts
                // are the same.
                lateAnswer(t + back, serviceMs, host);
            } else {
                scheduleAfter(t, back, Answer, id, n, serviceMs, withServer(failed ? Error500 : Ok200, host));
            }
        }
        while (workerFree(server) && !server.queue.empty()) {
            const Waiting next =
                server.cfg->queueOrder == QueueOrder::Fifo ? server.queue.popOldest() : server.queue.popNewest();
            --requests_[next.request].pending;
            startService(next, t, host);
            release(next.request);
        }
    }

    // ---- docs/servers.md: K servers, the balancer, faults, the key store ----------------------------

    void setUpServers() {
        const FleetRequest& r = r_;
        k_ = r.servers ? r.servers->count : 1;
        extended_ = r.servers || !r.faults.empty();
        faultsOn_ = !r.faults.empty();
        replicas_.resize(k_);
        for (std::uint32_t j = 0; j < k_; ++j) {
            Replica& each = replicas_[j];
            each.cfg = r.servers ? &r.servers->each[j] : &r.server;
            each.triggered =
                !r.trigger || !r.triggerServers ||
                std::find(r.triggerServers->begin(), r.triggerServers->end(), j) != r.triggerServers->end();
        }
        for (const Fault& f : r.faults) {
            if (!(f.startMs < f.endMs)) continue;  // an empty window covers nothing and starts no crash
            for (std::uint32_t j = 0; j < k_; ++j) {
                if (!f.names(j)) continue;
                Replica& each = replicas_[j];
                (f.kind == FaultKind::Crash ? each.crashes : each.partitions).emplace_back(f.startMs, f.endMs);
                if (f.kind != FaultKind::Crash) continue;
                each.tracked = true;
                events_.push(Event{f.startMs, makeKey(Crash, j, 0, 0), 0, kNoSlot, 0});
            }
        }
        if (extended_) result_.totals.servers.resize(k_);
        const bool perClient = r.balancer.scope == GateScope::Client;
        if (k_ > 1) {
            balancers_.resize(perClient ? r.clients : 1);
            for (std::size_t c = 0; c < balancers_.size(); ++c) {
                balancers_[c].kind = r.balancer.kind;
                balancers_[c].next = perClient ? c % k_ : 0;  // §4.1: client c starts at c mod K
            }
        }
        countsOn_ = k_ > 1 && (r.balancer.kind == servers::BalancerKind::LeastOutstanding ||
                               r.balancer.kind == servers::BalancerKind::TwoChoices);
        if (countsOn_) outstanding_.assign((perClient ? r.clients : 1) * k_, 0);
        previousHosts_ = k_ > 1 && r.policy.retryHost == HostRule::PreviousHosts;
        keysTracked_ = k_ > 1 && r.idempotencyKey && r.operation != Operation::Read &&
                       !(r.keyStore.scope == servers::KeyScope::Shared ||
                         (r.keyStore.scope == servers::KeyScope::Replicated && r.keyStore.lagMs == 0));
        keyBalance_ = streams::purposeKey(r.seed, servers::kPurposeBalance);
        keyService_ = streams::purposeKey(r.seed, servers::kPurposeService);
        if (extended_)
            sentStride_ = hedging_  ? static_cast<std::size_t>(r.policy.hedging->maxAttempts) + 1
                          : perTry_ ? static_cast<std::size_t>(*r.policy.maxRetries) + 2
                                    : 1;
    }
    std::size_t sentIndex(std::uint32_t id, int n) const {
        return id * sentStride_ + (sentStride_ == 1 ? 0 : static_cast<std::size_t>(n));
    }

    // §4: the server of attempt n of request id, sent at t (its gates have let it go): the host rule
    // over the balancer's picks; then the attempt is counted sent to it, tried and outstanding.
    std::uint32_t pickHost(std::uint32_t id, int n, double t) {
        std::uint32_t host = 0;
        const Request& q = requests_[id];
        if (k_ > 1) {
            const std::size_t owner = r_.balancer.scope == GateScope::Client ? q.client : 0;
            const std::uint64_t key = r_.balancer.kind == servers::BalancerKind::RoundRobin
                                          ? 0
                                          : streams::step(streams::step(streams::step(keyBalance_, q.client), q.number),
                                                          static_cast<std::uint64_t>(n - 1));
            const std::uint32_t* counts = countsOn_ ? &outstanding_[owner * k_] : nullptr;
            auto outstanding = [counts](std::size_t j) { return counts ? counts[j] : 0u; };
            const std::vector<std::uint16_t>* tried = previousHosts_ ? &tried_[id] : nullptr;
            auto wasTried = [tried](std::size_t j) {
                return tried && std::find(tried->begin(), tried->end(), static_cast<std::uint16_t>(j)) != tried->end();
            };
            host = static_cast<std::uint32_t>(servers::chooseHost(balancers_[owner], key, k_, n > 1, previousHosts_,
                                                                  r_.policy.hostSelectionRetryMaxAttempts, wasTried,
                                                                  outstanding));
            if (previousHosts_) tried_[id].push_back(static_cast<std::uint16_t>(host));
            if (countsOn_) ++outstanding_[owner * k_ + host];
        }
        if (extended_) {
            ++row(host).attempts;
            ++bin(t).servers[host].attempts;
            sentAt_[sentIndex(id, n)] = t;
        }
        return host;
    }
    // §4.3: an attempt to `host` has ended for its client's balancer.
    void endOutstanding(std::uint32_t client, std::uint32_t host) {
        --outstanding_[(r_.balancer.scope == GateScope::Client ? client : 0) * k_ + host];
    }
    // An answer of attempt n from `host` reaches its client in time: no longer outstanding; a 200
    // counted okInTime in the bin of the attempt's send (§8.3).
    void answeredInTime(std::uint32_t id, int n, std::uint32_t host, std::uint32_t status) {
        if (status == Rejected503) return;  // the sidecar's own answer: never sent, never outstanding
        if (countsOn_) endOutstanding(requests_[id].client, host);
        if (!extended_ || status != Ok200) return;
        ++row(host).okInTime;
        ++bin(sentAt_[sentIndex(id, n)]).servers[host].okInTime;
    }
    // The attempt leaves `server`'s list of work in service.
    static void forget(Replica& server, std::uint32_t id, int n) {
        for (std::size_t i = 0; i < server.working.size(); ++i) {
            if (server.working[i].slot != id || server.working[i].attempt != static_cast<std::uint32_t>(n)) continue;
            server.working[i] = server.working.back();
            server.working.pop_back();
            return;
        }
    }
    // §8.2's kind 0: a crash starting on a server aborts its work in service, then its queue, each
    // in key order, a reset leaving for each at t; a crash that finds no work is no event.
    void crash(const Event& e) {
        const auto host =
            static_cast<std::uint32_t>((e.key >> (kRequestBits + kAttemptBits)) & ((1u << kClientBits) - 1));
        Replica& server = replicas_[host];
        if (server.inService == 0 && server.queue.empty()) return;
        const double t = e.t;
        advanceTo(t);
        result_.totals.endMs = t;
        if (trace_) trace_->events.push_back(FleetTraceEvent{t, static_cast<int>(Crash), host, 0, 0});
        // Both lists in key order by one sort (each std::sort instantiated is about 4 KB of the fleet
        // engine file): the queue's entries as work with their keys.
        auto byKey = [](const Working& a, const Working& b) { return a.key < b.key; };
        std::sort(server.working.begin(), server.working.end(), byKey);
        std::vector<Working> queued;
        while (!server.queue.empty()) {
            const Waiting w = server.queue.popOldest();
            queued.push_back(Working{attemptKey(w.request, w.attempt), w.request, w.attempt, w.limitMs});
        }
        std::sort(queued.begin(), queued.end(), byKey);
        ++server.epoch;  // the completions scheduled are no events now
        server.inService = 0;
        for (const Working& w : server.working) abortWork(w.slot, static_cast<int>(w.attempt), t, host);
        server.working.clear();
        for (const Working& w : queued) {
            --requests_[w.slot].pending;
            abortWork(w.slot, static_cast<int>(w.attempt), t, host);
            release(w.slot);
        }
    }
    std::uint64_t attemptKey(std::uint32_t id, std::uint32_t attempt) const {
        const Request& q = requests_[id];
        return makeKey(Arrival, q.client, q.number, static_cast<int>(attempt));
    }
    void abortWork(std::uint32_t id, int n, double t, std::uint32_t host) {
        ++result_.totals.aborted;
        ++row(host).aborted;
        ++bin(t).servers[host].aborted;
        scheduleAfter(t, leg(keyBack_, requests_[id], n), Answer, id, n, 0, withServer(Reset, host));
    }
    // §8.3: each server's means, the rows' sums, and the recovery of the disturbance (the trigger's
    // and the faults' windows, from the earliest start to the latest end) for the fleet and each server.
    void finishServers() {
        for (ServerTotals& own : result_.totals.servers) {
            if (own.completions == 0) continue;
            own.meanServiceMs = own.serviceSumMs / static_cast<double>(own.completions);
            own.meanResidenceMs = own.residenceSumMs / static_cast<double>(own.completions);
        }
        if (!r_.trigger && r_.faults.empty()) return;
        FleetRequest judged = r_;
        Trigger window = r_.trigger ? *r_.trigger : Trigger{};
        if (!r_.trigger) window.startMs = r_.faults.front().startMs, window.endMs = r_.faults.front().endMs;
        for (const Fault& f : r_.faults) {
            window.startMs = std::min(window.startMs, f.startMs);
            window.endMs = std::max(window.endMs, f.endMs);
        }
        judged.trigger = window;
        result_.recovery = recoveryOf(judged, result_.bins);
        if (!extended_) return;
        std::vector<ServiceBin> own(result_.bins.size());
        for (std::uint32_t j = 0; j < k_; ++j) {
            for (std::size_t b = 0; b < own.size(); ++b) {
                own[b].created = result_.bins[b].servers[j].attempts;
                own[b].succeeded = result_.bins[b].servers[j].okInTime;
            }
            result_.serverRecovery.push_back(recoveryOf(judged, own));
        }
    }

    // A late answer at time t: counted, nothing else. One past the horizon is not counted, as
    // an event past it is never taken; the last one counted may be the run's last event.
    [[gnu::always_inline]] void lateAnswer(double t, double serviceMs, std::uint32_t host) {
        if (t > horizon_) return;
        ++result_.totals.late;
        ServiceBin& b = bin(t);
        ++b.late;
        result_.totals.wastedServiceMs += serviceMs;
        lastLateMs_ = std::max(lastLateMs_, t);
        if (extended_) {
            ServerTotals& row = result_.totals.servers[host];
            ++row.late;
            row.wastedServiceMs += serviceMs;
            ++b.servers[host].late;
        }
    }

    void answer(std::uint32_t id, int n, double t, double serviceMs, std::uint32_t packed) {
        if (hedging_) return hedgeAnswer(id, n, t, serviceMs, packed);
        if (perTry_) return tryAnswer(id, n, t, serviceMs, packed);
        Request& q = requests_[id];
        const std::uint32_t host = serverOf(packed), status = lowOf(packed);
        if ((q.flags & (Ended | Resolved)) || q.attempt != n) {
            lateAnswer(t, serviceMs, host);
            return;
        }
        answeredInTime(id, n, host, status);
        q.flags |= Resolved;
        if (r_.gates.adaptive || r_.gates.local) answerSeen(q, t, status == Throttled429);
        if (r_.gates.admissionControl) admissionRecord(q, t, status);
        if (status == Ok200) {
            succeed(id, t);
            return;
        }
        // A Retry-After: a 503's of rule 1 or 4 (its server's), a 429's of rule 1a (negative: none).
        double retryAfterMs = -1;
        const Server& from = *replicas_[host].cfg;
        if (status == Busy503 && from.rejectRetryAfterMs) retryAfterMs = *from.rejectRetryAfterMs;
        if (status == Throttled429 && r_.server.admission->retryAfterMs)
            retryAfterMs = *r_.server.admission->retryAfterMs;
        fail(id, n, failureOf(status), t, retryAfterMs);
    }

    void timeout(std::uint32_t id, int n, double t, std::uint32_t host) {
        if (countsOn_) endOutstanding(requests_[id].client, host);
        requests_[id].flags |= Resolved;
        ++bin(t).timeouts;
        // botocore's needs-retry hook runs after a timeout too, with no throttling code (§4).
        if (r_.gates.adaptive) limiterHears(requests_[id].client, t, false);
        if (hedging_) {
            hedge_[id].resolved = static_cast<std::uint8_t>(hedge_[id].resolved | (1u << n));
            requests_[id].period = hedge_[id].period[n];
            return hedgeFail(id, Failure::Timeout, t);
        }
        fail(id, n, Failure::Timeout, t, -1);
    }

    void succeed(std::uint32_t id, double t) {
        gates_.succeeded(0, requests_[id].client, received(requests_[id], t, false));
        end(id, EndReason::Success, t);
    }

    bool retried(Failure c) const {
        const FleetPolicy& p = r_.policy;
        switch (c) {
            case Failure::Timeout: return p.retryTimeout;
            case Failure::ServerError: return p.retry5xx;
            case Failure::Throttled: return p.retry429;
            case Failure::Refused: return p.retry5xx || p.retryRefused;  // docs/servers.md §5: 5xx covers both
            case Failure::Reset: return p.retry5xx || p.retryReset;
        }
        return false;
    }
    static Failure failureOf(std::uint32_t status) {
        return status == Throttled429 ? Failure::Throttled
               : status == Refused    ? Failure::Refused
               : status == Reset      ? Failure::Reset
                                      : Failure::ServerError;
    }

    void fail(std::uint32_t id, int n, Failure failure, double t, double retryAfterMs) {
        Request& q = requests_[id];
        const FleetPolicy& p = r_.policy;
        const bool timedOut = failure == Failure::Timeout;
        const bool retryable = retried(failure);
        // Every failure takes a token, or with countFailures "retryable" only one of a class rule 1
        // retries (gRPC A6; docs/engine.md §7.1), before the retry decision. A 429 is a failure
        // for every gate (docs/throttling.md §3).
        gates_.failed(0, q.client, received(q, t, retryable));
        if (!retryable) return end(id, EndReason::NotRetryable, t);
        if (p.maxRetries && n >= *p.maxRetries + 1) return end(id, EndReason::AttemptLimit, t);
        double wait = 0;
        if (retryAfterMs >= 0 && p.honourRetryAfter) {
            wait = retryAfterMs;
        } else {
            const auto at = static_cast<std::size_t>(n);
            const double ceiling = at < ceilings_.size() ? ceilings_[at] : ceilingFor(backoff_, n);
            const double d = p.jitter == Jitter::None ? 0.0 : attemptDraw(keyWait_, q, n);
            wait = jitteredWait(backoff_, ceiling, q.previousMs, d);
            q.previousMs = wait;
        }
        if (p.deadlineMs && t + wait >= q.createdMs + *p.deadlineMs) return end(id, EndReason::Deadline, t);

        if (const std::optional<EndReason> refused = askRetryGates(q, t, timedOut)) return end(id, *refused, t);
        scheduleAfter(t, wait, Send, id, n + 1);
    }

    void end(std::uint32_t id, EndReason reason, double t) {
        Request& q = requests_[id];
        q.flags |= Ended;
        if (trace_) trace_->ends.push_back(FleetTraceEnd{t, q.client, q.number, reason});
        countEnd(result_.totals, bin(t), latencies_, reason, q.createdMs, t);
        arrivals_.ended(q.client, q.number, q.createdMs, t, reason, creation());  // may move requests_
    }

    void finish() {
        // The late answers counted without an event (complete()) end the run if they come last;
        // the state the bins up to them hold is the last event's, as no answer changes it.
        result_.totals.endMs = std::max(result_.totals.endMs, lastLateMs_);
        endUnfinished(
            requests_.size(), horizon_, result_.totals.endMs,
            [this](std::uint32_t id) { return (requests_[id].flags & InUse) && !(requests_[id].flags & Ended); },
            [this](double t) { advanceTo(t); }, [this](std::uint32_t id) { end(id, EndReason::Unfinished, horizon_); });
        bins_.closeAt(result_.totals.endMs, [this](std::size_t b) { writeState(b); });

        if (!latencies_.empty()) { result_.totals.latencyMs = latencyOf(latencies_); }
        finishServers();
    }

    const FleetRequest& r_;
    FleetTrace* trace_;
    FleetWork* work_;
    Backoff backoff_;
    Distribution network_;
    std::vector<double> ceilings_;  // ceilingFor(backoff_, n) by failure number n
    double horizon_ = 0;
    double lastLateMs_ = 0;  // the time of the last late answer counted (lateAnswer())
    std::uint64_t keyOut_ = 0, keyBack_ = 0, keyFail_ = 0, keyWait_ = 0, keyLocal_ = 0, keyAdmission_ = 0;
    ArrivalGaps arrivals_{r_};  // fleet_loop.hpp
    static constexpr int kLanes = 4;
    EventQueue<Event, EventLess, kLanes> events_;  // lane.hpp
    int laneNetwork_ = -1;                         // the lane of a fixed network's legs (-1: the network draws)
    int laneTimeout_ = -1;                         // the lane of clientTimeoutMs, the waiting limit without a deadline
    std::vector<Request> requests_;
    std::vector<std::uint32_t> free_;
    std::vector<Owner> owners_;
    gates::GateSet gates_;
    std::vector<AdmissionLimit> admission_;  // rule 1a's limits: one per client, or the fleet's
    bool hedging_ = false;                   // policy.hedging, kind a6 (docs/throttling.md §6)
    std::vector<HedgeState> hedge_;          // by slot, with hedging
    bool perTry_ = false;                    // policy.hedging, kind per-try-timeout (docs/throttling.md §8)
    std::vector<TryState> tries_;            // by slot, with perTry_
    std::size_t periodStride_ = 0;           // with perTry_ and a breaker: maxRetries + 2 periods a slot
    std::vector<std::uint32_t> periods_;     // the breaker period attempt n of slot s was sent in, at s × stride + n
    std::vector<Replica> replicas_;
    std::size_t k_ = 1;
    bool extended_ = false;  // servers or faults: the result's per-server rows
    bool faultsOn_ = false;
    bool countsOn_ = false;                     // the balancer reads outstanding counts (§4.3)
    bool previousHosts_ = false;                // a retry's host rule needs the tried servers
    bool keysTracked_ = false;                  // a request's records, where not every store sees them at once (§6)
    std::vector<servers::Balancer> balancers_;  // one per client, or the fleet's
    std::vector<std::uint32_t> outstanding_;    // by owner × K + server
    std::vector<std::vector<std::uint16_t>> tried_;                       // by slot
    std::vector<std::vector<std::pair<std::uint16_t, double>>> records_;  // by slot: (server, commit time)
    std::vector<double> sentAt_;   // by slot × stride + attempt: each attempt's send time
    std::vector<Ticket> tickets_;  // with per-server rows: the attempts in service (complete())
    std::vector<std::uint32_t> freeTickets_;
    std::size_t sentStride_ = 0;
    std::size_t admissionPer_ = 1;
    std::uint64_t keyBalance_ = 0, keyService_ = 0;
    std::vector<double> latencies_;
    // docs/throttling.md §4.1: each limiter's fill rate once enabled (0 before), by client (one with
    // scope fleet); how many are enabled; the mean last summed, and whether a rate was set since.
    std::vector<double> fills_;
    std::uint64_t limiting_ = 0;
    std::optional<double> sendRate_;
    bool fillsChanged_ = false;
    BinStates bins_{static_cast<double>(r_.binMs)};  // fleet_bins.hpp
    ServiceResult result_;
};

}  // namespace

ServiceResult simulateService(const FleetRequest& request, FleetTrace* trace, FleetWork* work) {
    // docs/layers.md §9: a stack of layers runs in fleet_layers.cpp.
    if (!request.policy.layers.empty()) return simulateLayeredService(request, trace, work);
    return ServiceRun(request, trace, work).run();
}

}  // namespace retrylab
