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

#include "fleet_gates.hpp"
#include "fleet_network.hpp"
#include "lane.hpp"
#include "min_heap.hpp"
#include "policy.hpp"
#include "retrylab/fleet.hpp"
#include "streams.hpp"
#include "throttling.hpp"

namespace retrylab {

namespace {

using streams::Distribution;

// §6's kinds, in their order at equal times.
enum Kind : std::uint64_t { Completion = 1, Arrival = 2, Answer = 3, Limit = 4, Send = 5 };
// Rejected503: Envoy's admission control's local reply (docs/throttling.md §7), at the send itself,
// with no Retry-After.
enum Status : std::uint32_t { Ok200 = 0, Error500 = 1, Busy503 = 2, Throttled429 = 3, Rejected503 = 4 };
// A failure's class (FLEET.md §4; the 429 of docs/throttling.md §3).
enum class Failure { Timeout, ServerError, Throttled };
// A send event's status: 0 a send that asks the send gates, 1 one the adaptive limiter held
// (docs/throttling.md §4), sent when it comes with its token already taken.
constexpr std::uint32_t kHeldSend = 1;

// The key below the time: kind (3 bits), client (14), request (36), attempt (7, 1–101).
constexpr int kAttemptBits = 7;
constexpr int kRequestBits = 36;
constexpr int kClientBits = 14;

struct Event {
    double t;
    std::uint64_t key;
    double x;  // Arrival: the waiting limit L; Completion, Answer: the attempt's service time
    std::uint32_t slot;  // the request's record
    std::uint32_t status;
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
    double previousMs;   // the last backoff wait (decorrelated's "previous")
    double lastCost;     // the quota's cost last taken for this request
    std::uint32_t client;
    std::uint32_t number;  // k: the client's request number
    std::uint32_t period;  // the breaker period the current attempt was sent in
    std::uint16_t pending; // events and queue entries that name this record
    std::uint8_t attempt;  // the current attempt n (0 before the first)
    std::uint8_t flags;
};

struct Waiting {
    double limitMs;
    std::uint32_t request;  // the slot
    std::uint32_t attempt;
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

using Lane = EventLane<Event, EventLess>;  // lane.hpp

// docs/throttling.md's client gates, per owner (a client, or the fleet); FLEET §5's retry gates
// hold theirs in gates::GateSet.
struct Owner {
    // Out of line, so that a run without them holds no more per owner (fleet_cost.cpp's kOwnerBytes).
    std::unique_ptr<throttling::AdaptiveLimiter> adaptive;  // docs/throttling.md §4
    std::unique_ptr<throttling::AdaptiveThrottler> local;   // docs/throttling.md §5
    std::unique_ptr<throttling::AdmissionWindow> admissionControl;  // docs/throttling.md §7
};

// docs/throttling.md §6: a hedged request's copies (at most 5; bit n of `resolved` for copy n).
struct HedgeState {
    std::uint8_t asked = 0;    // the last copy whose send was asked for (the gates, the limiter)
    std::uint8_t sent = 0;     // copies sent
    std::uint8_t failed = 0;   // copies that failed (a non-fatal class)
    std::uint8_t holding = 0;  // copies the adaptive limiter holds
    std::uint8_t resolved = 0; // copies answered in time or timed out
    bool stopped = false;      // a gate refused a copy: no further copy
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

class ServiceRun {
public:
    ServiceRun(const FleetRequest& r, FleetTrace* trace, FleetWork* work)
        : r_(r), trace_(trace), work_(work), gates_(r.gates, r.clients, 1) {
        const FleetPolicy& p = r.policy;
        backoff_.baseBackoffMs = p.baseBackoffMs;
        backoff_.backoffMultiplier = p.backoffMultiplier;
        backoff_.maxBackoffMs = p.maxBackoffMs;
        backoff_.jitter = p.jitter;
        network_ = distributionOf(r.network);
        // SPEC §4's ceiling for failure n depends on n alone here: worked out once per n (a
        // request has at most maxRetries + 1 ≤ 101 attempts; [0] is unused).
        ceilings_.resize(static_cast<std::size_t>(p.maxRetries ? *p.maxRetries + 2 : 102));
        for (std::size_t n = 1; n < ceilings_.size(); ++n) ceilings_[n] = ceilingFor(backoff_, static_cast<int>(n));
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
            if (r.gates.adaptive && fleetOwner == (r.gates.adaptive->scope == GateScope::Fleet)) o.adaptive = std::make_unique<throttling::AdaptiveLimiter>(0.0);
            if (r.gates.local && fleetOwner == (r.gates.local->scope == GateScope::Fleet))
                o.local = std::make_unique<throttling::AdaptiveThrottler>(
                    r.gates.local->windowMs / 1000, static_cast<int>(r.gates.local->bins), r.gates.local->ratio,
                    r.gates.local->padding);
            if (r.gates.admissionControl && fleetOwner == (r.gates.admissionControl->scope == GateScope::Fleet))
                o.admissionControl = std::make_unique<throttling::AdmissionWindow>(r.gates.admissionControl->windowMs);
        }
        if (r.gates.adaptive) fills_.assign(r.gates.adaptive->scope == GateScope::Fleet ? 1 : r.clients, 0.0);
        if (r.server.admission) {
            admission_.resize(r.server.admission->scope == GateScope::Fleet ? 1 : r.clients);
            for (AdmissionLimit& l : admission_) l.tokens = r.server.admission->burst;
        }
        keyArrival_ = streams::purposeKey(r.seed, streams::Arrival);
        // ARRIVAL(c)'s key, once per client: every gap of client c is a draw of it.
        arrivalKeys_.resize(r.clients);
        for (std::uint32_t c = 0; c < r.clients; ++c)
            arrivalKeys_[c] = streams::step(streams::step(streams::step(keyArrival_, c), 0), 0);
        keyOut_ = streams::purposeKey(r.seed, streams::Out);
        keyBack_ = streams::purposeKey(r.seed, streams::Back);
        keyFail_ = streams::purposeKey(r.seed, streams::Fail);
        keyWait_ = streams::purposeKey(r.seed, streams::Wait);
        keyLocal_ = streams::purposeKey(r.seed, streams::kPurposeLocal);
        keyAdmission_ = streams::purposeKey(r.seed, streams::kPurposeAdmission);
        // The delays that recur (see Lane): at most kLanes of them.
        if (r.network.dist == NetworkDist::Fixed) addLane(r.network.ms);
        addLane(r.policy.clientTimeoutMs);
        laneNetwork_ = r.network.dist == NetworkDist::Fixed ? laneFor(r.network.ms) : -1;
        laneTimeout_ = laneFor(r.policy.clientTimeoutMs);
        if (r.server.serviceMsPerInFlight == 0) {
            addLane(r.server.serviceMs * 1);
            if (r.trigger && r.trigger->kind == TriggerKind::Slowdown) addLane(r.server.serviceMs * r.trigger->factor);
        }
    }

    ServiceResult run() {
        startArrivals();
        for (;;) {
            // The next event: the heap's first or a lane's, whichever comes first.
            // Time decides unless two are equal (rare), so the comparison branches on it.
            int from = -1;  // -1 the heap
            const Event* next = events_.empty() ? &none_ : &events_.top();
            for (int i = 0; i < kLanes; ++i) {  // a lane not in use is empty; a fixed count unrolls
                if (lane_[i].empty()) continue;
                const Event& f = lane_[i].front();
                if (f.t < next->t || (f.t == next->t && f.key < next->key)) {
                    next = &f;
                    from = i;
                }
            }
            if (!(next->t <= horizon_)) break;  // none_ is past every horizon
            const Event e = from < 0 ? events_.pop() : lane_[from].pop();
            process(e);
            ++eventsTaken_;
        }
        finish();
        if (work_) {
            work_->events = eventsTaken_;
            work_->queue = queue_.deepest();
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

    // The gap before client c's request k, drawn at time `at` (the previous creation, or 0).
    double gap(std::uint32_t client, std::uint32_t k, double at) const {
        double rate = r_.ratePerClient;
        if (r_.spike && at >= r_.spike->startMs && at < r_.spike->endMs) rate = r_.ratePerClient * r_.spike->factor;
        const double u0 = streams::draw(arrivalKeys_[client], k);
        if (r_.arrivals == Arrivals::Uniform) return 0 + (2000 / rate - 0) * u0;
        return streams::exponentialFrom(1000 / rate, u0);
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
            return slot;
        }
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

    void addLane(double delay) {
        for (int i = 0; i < lanes_; ++i)
            if (lane_[i].delay() == delay) return;
        if (lanes_ < kLanes) lane_[lanes_++] = Lane(delay);
    }

    // The lane of this delay, or -1 (the heap).
    int laneFor(double delay) const {
        for (int i = 0; i < lanes_; ++i)
            if (lane_[i].delay() == delay) return i;
        return -1;
    }

    // An event at now + delay: in the lane of that delay if there is one, else in the heap.
    void scheduleAfter(double now, double delay, Kind kind, std::uint32_t slot, int attempt, double x = 0,
                       std::uint32_t status = 0) {
        scheduleIn(laneFor(delay), now + delay, kind, slot, attempt, x, status);
    }
    // An event at t in lane i (t being now + the lane's delay), or in the heap when i < 0.
    [[gnu::always_inline]] void scheduleIn(int i, double t, Kind kind, std::uint32_t slot, int attempt, double x = 0,
                    std::uint32_t status = 0) {
        Request& q = requests_[slot];
        ++q.pending;
        const Event e{t, makeKey(kind, q.client, q.number, attempt), x, slot, status};
        if (i >= 0)
            lane_[i].push(e);
        else
            events_.push(e);
    }

    void schedule(double t, Kind kind, std::uint32_t slot, int attempt, double x = 0, std::uint32_t status = 0) {
        Request& q = requests_[slot];
        ++q.pending;
        events_.push(Event{t, makeKey(kind, q.client, q.number, attempt), x, slot, status});
    }

    void scheduleCreation(std::uint32_t client, std::uint32_t k, double at) {
        const std::uint32_t id = newRequest(client, k, at);
        schedule(at, Send, id, 1);
    }

    void startArrivals() {
        for (std::uint32_t c = 0; c < r_.clients; ++c) {
            if (r_.arrivals == Arrivals::Once) {
                scheduleCreation(c, 0, 0);
                continue;
            }
            const double a0 = gap(c, 0, 0);
            if (a0 < r_.durationMs) scheduleCreation(c, 0, a0);
        }
    }

    // The bin b with b × binMs ≤ t < (b + 1) × binMs, exactly (the division may round).
    // Events come in time order, so the last bin found usually holds the next time too.
    std::size_t binOf(double t) {
        if (t >= binLo_ && t < binHi_) return binIndex_;
        const double binMs = r_.binMs;
        double b = std::floor(t / binMs);
        if (b * binMs > t) b -= 1;
        if ((b + 1) * binMs <= t) b += 1;
        binIndex_ = static_cast<std::size_t>(b);
        binLo_ = b * binMs;
        binHi_ = (b + 1) * binMs;
        return binIndex_;
    }

    ServiceBin& bin(double t) {
        const std::size_t b = binOf(t);
        if (b >= result_.bins.size()) result_.bins.resize(b + 1);
        return result_.bins[b];
    }

    // Writes the state after the last event into every bin before the one at time t.
    void advanceTo(double t) {
        const std::size_t b = binOf(t);
        while (stateBin_ < b) {
            writeState(stateBin_);
            ++stateBin_;
        }
    }
    void writeState(std::size_t b) {
        if (b >= result_.bins.size()) result_.bins.resize(b + 1);
        ServiceBin& s = result_.bins[b];
        s.queue = queue_.size();
        s.inService = inService_;
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
        const std::uint32_t id = e.slot;
        const int n = keyAttempt(e.key);
        Request& q = requests_[id];
        --q.pending;
        // A waiting limit whose attempt was answered in time, or whose request has ended, is
        // not an event.
        if (kind == Limit && (hedging_  ? copyDone(id, n)
                              : perTry_ ? tryDone(id, n)
                                        : ((q.flags & (Ended | Resolved)) || q.attempt != n))) {
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
            case Arrival: arrive(id, n, e.t, e.x); break;
            case Completion: complete(id, n, e.t, e.x); break;
            case Answer: answer(id, n, e.t, e.x, e.status); break;
            case Limit: perTry_ ? tryLimit(id, n, e.t, e.status == kSoftCutoff) : timeout(id, n, e.t); break;
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
            if (r_.arrivals == Arrivals::Poisson || r_.arrivals == Arrivals::Uniform) {
                const std::uint32_t k = requests_[id].number;
                const double next = t + gap(client, k + 1, t);
                if (next < r_.durationMs) scheduleCreation(client, k + 1, next);  // may move requests_
            }
        }
        if (hedging_ && !held) {
            hedge_[id].asked = static_cast<std::uint8_t>(n);
            if (n > 1 && !hedgeGates(id, t, trigger)) return;
        }
        if (hedging_ && held) --hedge_[id].holding;
        if (!held && (r_.gates.local || r_.gates.adaptive) && !sendGates(id, n, t)) return;
        std::uint32_t period = 0;
        if (!gates_.admits(0, client, t, period)) {
            if (hedging_ && n > 1) return stopCopies(id, t, EndReason::CircuitOpen);
            if (perTry_ && n > 1) return refuseRetry(id, t, EndReason::CircuitOpen);
            end(id, EndReason::CircuitOpen, t);
            return;
        }
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
        if (perTry_) return tryLimits(id, n, t);
        double limit = t + r_.policy.clientTimeoutMs;
        if (r_.policy.deadlineMs) limit = std::min(limit, sent.createdMs + *r_.policy.deadlineMs);
        if (laneNetwork_ >= 0)  // a fixed network: every leg is the lane's delay
            scheduleIn(laneNetwork_, t + network_.a, Arrival, id, n, limit);
        else
            scheduleAfter(t, leg(keyOut_, sent, n), Arrival, id, n, limit);
        if (limit == t + r_.policy.clientTimeoutMs)
            scheduleIn(laneTimeout_, limit, Limit, id, n);
        else
            schedule(limit, Limit, id, n);
        if (hedging_) {
            HedgeState& h = hedge_[id];
            h.sent = static_cast<std::uint8_t>(n);
            h.period[n] = period;
            if (n < r_.policy.hedging->maxAttempts) schedule(t + r_.policy.hedging->delayMs, Send, id, n + 1, kHedgeOnDelay);
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
        const double p = throttling::rejectionProbability(static_cast<double>(c.requests), static_cast<double>(c.successes),
                                                          g.srThreshold / 100, g.aggression,
                                                          g.maxRejectionProbability / 100);
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
            if (n < r_.policy.hedging->maxAttempts) schedule(t + r_.policy.hedging->delayMs, Send, id, n + 1, kHedgeOnDelay);
        }
        answer(id, n, t, 0, Rejected503);
    }

    // §7.3: an answer in time is recorded at its arrival, a success iff its status is below 500
    // (a 429 is one); a rejection is not.
    void admissionRecord(const Request& q, double t, std::uint32_t status) {
        if (status == Rejected503) return;
        owner(r_.gates.admissionControl->scope, q.client).admissionControl->record(t, status == Ok200 || status == Throttled429);
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
        return gates::Received{t, q.period, (q.flags & PaidCost) ? std::optional<double>(q.lastCost) : std::nullopt, retryable};
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

    void hedgeAnswer(std::uint32_t id, int n, double t, double serviceMs, std::uint32_t status) {
        Request& q = requests_[id];
        if (copyDone(id, n)) return lateAnswer(t, serviceMs);
        hedge_[id].resolved = static_cast<std::uint8_t>(hedge_[id].resolved | (1u << n));
        if (r_.gates.adaptive || r_.gates.local) answerSeen(q, t, status == Throttled429);
        if (r_.gates.admissionControl) admissionRecord(q, t, status);
        q.period = hedge_[id].period[n];
        if (status == Ok200) return succeed(id, t);
        hedgeFail(id, status == Throttled429 ? Failure::Throttled : Failure::ServerError, t);
    }

    // A copy's failure: the throttle's token and the breaker's outcome as any failure's; a fatal
    // class ends the request; a non-fatal one sends the next copy at once, or, with none left to
    // send and none in flight, ends it attempt-limit.
    void hedgeFail(std::uint32_t id, Failure failure, double t) {
        Request& q = requests_[id];
        gates_.failed(0, q.client, received(q, t, retried(failure)));
        const Hedging& hp = *r_.policy.hedging;
        const bool nonFatal = failure == Failure::Timeout ? hp.nonFatalTimeout
                              : failure == Failure::ServerError ? hp.nonFatal5xx : hp.nonFatal429;
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
    void tryLimits(std::uint32_t id, int n, double t) {
        const Request& q = requests_[id];
        const double deadline = tryDeadline(q);
        if (laneNetwork_ >= 0)
            scheduleIn(laneNetwork_, t + network_.a, Arrival, id, n, deadline);
        else
            scheduleAfter(t, leg(keyOut_, q, n), Arrival, id, n, deadline);
        if (deadline <= horizon_) schedule(deadline, Limit, id, n);
        const double soft = t + r_.policy.clientTimeoutMs;
        if (soft < deadline) scheduleIn(laneTimeout_, soft, Limit, id, n, 0, kSoftCutoff);
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
    void tryLimit(std::uint32_t id, int n, double t, bool soft) {
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
    void tryAnswer(std::uint32_t id, int n, double t, double serviceMs, std::uint32_t status) {
        Request& q = requests_[id];
        if (q.flags & Ended) return lateAnswer(t, serviceMs);
        TryState& s = tries_[id];
        setBit(s.resolved, n);
        --s.inFlight;
        if (r_.gates.adaptive || r_.gates.local) answerSeen(q, t, status == Throttled429);
        if (r_.gates.admissionControl) admissionRecord(q, t, status);
        q.period = tryPeriod(id, n);
        if (status == Ok200) return succeed(id, t);
        ++s.failures;
        const Failure failure = status == Throttled429 ? Failure::Throttled : Failure::ServerError;
        tryFailureSeen(q, failure, t);
        if (!retried(failure)) return end(id, EndReason::NotRetryable, t);
        double retryAfterMs = -1;
        if (status == Busy503 && r_.server.rejectRetryAfterMs) retryAfterMs = *r_.server.rejectRetryAfterMs;
        if (status == Throttled429 && r_.server.admission->retryAfterMs) retryAfterMs = *r_.server.admission->retryAfterMs;
        const std::optional<EndReason> reason =
            hasBit(s.hedged, n) ? std::optional<EndReason>(EndReason::AttemptLimit) : tryRetry(id, n, t, false, retryAfterMs);
        if (!reason || s.inFlight > 0 || s.scheduled) return;  // retried, or dropped
        end(id, *reason, t);
    }

    // docs/throttling.md §4–§5, before every send: the local throttle (which may refuse it), then
    // the adaptive limiter (which may hold it). False: not sent now (ended, or held to t + w).
    bool sendGates(std::uint32_t id, int n, double t) {
        const Request& q = requests_[id];
        if (r_.gates.local) {
            const double u = attemptDraw(keyLocal_, q, n);
            if (owner(r_.gates.local->scope, q.client).local->shouldThrottle(t / 1000, u)) {
                if (hedging_ && n > 1) stopCopies(id, t, EndReason::LocalThrottle);
                else if (perTry_ && n > 1) refuseRetry(id, t, EndReason::LocalThrottle);
                else end(id, EndReason::LocalThrottle, t);
                return false;
            }
        }
        if (r_.gates.adaptive) {
            const double w = owner(r_.gates.adaptive->scope, q.client).adaptive->beforeSend(t / 1000);
            if (w > 0) {
                const double at = t + w * 1000;
                if (r_.policy.deadlineMs && at >= q.createdMs + *r_.policy.deadlineMs) {
                    // The token is not given back.
                    if (hedging_ && n > 1) stopCopies(id, t, EndReason::Deadline);
                    else if (perTry_ && n > 1) refuseRetry(id, t, EndReason::Deadline);
                    else end(id, EndReason::Deadline, t);
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

    bool outageAt(double t) const {
        return r_.trigger && r_.trigger->kind == TriggerKind::Outage && t >= r_.trigger->startMs && t < r_.trigger->endMs;
    }
    bool workerFree() const { return !r_.server.workers || inService_ < *r_.server.workers; }

    void reject(std::uint32_t id, int n, double t) {
        const Request& q = requests_[id];
        scheduleAfter(t, leg(keyBack_, q, n), Answer, id, n, 0, Busy503);
    }

    void arrive(std::uint32_t id, int n, double t, double limit) {
        if (outageAt(t)) {
            ++result_.totals.outageRejected;
            ++bin(t).outageRejected;
            reject(id, n, t);
            return;
        }
        if (r_.server.admission && !admit(id, n, t)) return;
        const Waiting w{limit, id, static_cast<std::uint32_t>(n)};
        if (workerFree()) {
            startService(w, t);
            return;
        }
        if (!r_.server.queueLimit || queue_.size() < *r_.server.queueLimit) {
            ++requests_[id].pending;
            queue_.push(w);
            return;
        }
        ++result_.totals.shed;
        ++bin(t).shed;
        reject(id, n, t);
    }

    // docs/throttling.md §3's rule 1a: the limit refills by the time since its last arrival and
    // takes a token, or the attempt is answered 429 at t + answerMs (no worker, no queue).
    bool admit(std::uint32_t id, int n, double t) {
        const Admission& a = *r_.server.admission;
        AdmissionLimit& l = admission_[a.scope == GateScope::Fleet ? 0 : requests_[id].client];
        l.tokens = std::min(a.burst, l.tokens + ((t - l.last) * a.ratePerSecond) / 1000);
        l.last = t;
        if (l.tokens >= 1) {
            l.tokens = l.tokens - 1;
            return true;
        }
        ++result_.totals.throttled;
        ++bin(t).throttled;
        const double back = leg(keyBack_, requests_[id], n);
        if (a.answerMs == 0)
            scheduleAfter(t, back, Answer, id, n, 0, Throttled429);
        else
            schedule((t + a.answerMs) + back, Answer, id, n, 0, Throttled429);
        return false;
    }

    [[gnu::always_inline]] void startService(const Waiting& w, double t) {
        double f = 1;
        if (r_.trigger && r_.trigger->kind == TriggerKind::Slowdown && t >= r_.trigger->startMs && t < r_.trigger->endMs)
            f = r_.trigger->factor;
        const double s = (r_.server.serviceMs + r_.server.serviceMsPerInFlight * (inService_ + 1)) * f;
        if ((r_.server.dropStale != DropStale::Never && t >= w.limitMs) ||
            (r_.server.dropStale == DropStale::Unfinishable && t + s > w.limitMs)) {
            ++result_.totals.cancelled;
            return;
        }
        ++result_.totals.served;
        ++bin(t).served;
        ++inService_;
        scheduleAfter(t, s, Completion, w.request, static_cast<int>(w.attempt), s);
    }

    void complete(std::uint32_t id, int n, double t, double serviceMs) {
        --inService_;
        Request& q = requests_[id];
        // The coin FAIL below failureRate. A draw lies in [0, 1), so a rate of 0 never fails
        // and a rate of 1 always does: the draw is made only when it can decide.
        const double rate = r_.server.failureRate;
        const bool failed = rate > 0 && (rate >= 1 || attemptDraw(keyFail_, q, n) < rate);
        if (!failed && r_.operation != Operation::Read) {
            if (r_.idempotencyKey && (q.flags & Committed)) {
                ++result_.totals.replays;
            } else {
                ++result_.totals.charges;
                if (q.flags & Committed) ++result_.totals.duplicateCharges;
            }
            q.flags |= Committed;
        }
        const double back = leg(keyBack_, q, n);
        if (!trace_ && (hedging_  ? copyDone(id, n)
                        : perTry_ ? (q.flags & Ended) != 0
                                  : ((q.flags & (Ended | Resolved)) || q.attempt != n))) {
            // Already answered by its waiting limit, or its request has ended: whatever happens
            // before the answer arrives, it is late (a request's attempt number only grows, and
            // its flags for attempt n stay set), so it is counted now, in the bin of its time,
            // and never becomes an event. A traced run (FleetTrace) keeps it as one; the counts
            // are the same.
            lateAnswer(t + back, serviceMs);
        } else {
            scheduleAfter(t, back, Answer, id, n, serviceMs, failed ? Error500 : Ok200);
        }
        while (workerFree() && !queue_.empty()) {
            const Waiting next = r_.server.queueOrder == QueueOrder::Fifo ? queue_.popOldest() : queue_.popNewest();
            --requests_[next.request].pending;
            startService(next, t);
            release(next.request);
        }
    }

    // A late answer at time t: counted, nothing else. One past the horizon is not counted, as
    // an event past it is never taken; the last one counted may be the run's last event.
    [[gnu::always_inline]] void lateAnswer(double t, double serviceMs) {
        if (t > horizon_) return;
        ++result_.totals.late;
        ++bin(t).late;
        result_.totals.wastedServiceMs += serviceMs;
        lastLateMs_ = std::max(lastLateMs_, t);
    }

    void answer(std::uint32_t id, int n, double t, double serviceMs, std::uint32_t status) {
        if (hedging_) return hedgeAnswer(id, n, t, serviceMs, status);
        if (perTry_) return tryAnswer(id, n, t, serviceMs, status);
        Request& q = requests_[id];
        if ((q.flags & (Ended | Resolved)) || q.attempt != n) {
            lateAnswer(t, serviceMs);
            return;
        }
        q.flags |= Resolved;
        if (r_.gates.adaptive || r_.gates.local) answerSeen(q, t, status == Throttled429);
        if (r_.gates.admissionControl) admissionRecord(q, t, status);
        if (status == Ok200) {
            succeed(id, t);
            return;
        }
        // A Retry-After: a 503's of rule 1 or 4, a 429's of rule 1a (negative: none).
        double retryAfterMs = -1;
        if (status == Busy503 && r_.server.rejectRetryAfterMs) retryAfterMs = *r_.server.rejectRetryAfterMs;
        if (status == Throttled429 && r_.server.admission->retryAfterMs) retryAfterMs = *r_.server.admission->retryAfterMs;
        fail(id, n, status == Throttled429 ? Failure::Throttled : Failure::ServerError, t, retryAfterMs);
    }

    void timeout(std::uint32_t id, int n, double t) {
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
        return c == Failure::Timeout ? p.retryTimeout : c == Failure::ServerError ? p.retry5xx : p.retry429;
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
        if (reason == EndReason::Success) {
            ++result_.totals.succeeded;
            ++bin(t).succeeded;
            latencies_.push_back(t - q.createdMs);
        } else {
            ++result_.totals.failed[static_cast<int>(reason)];
            ++bin(t).failed;
        }
        if (r_.arrivals == Arrivals::Serial && reason != EndReason::Unfinished) {
            const std::uint32_t client = q.client, k = q.number;
            const double due = q.createdMs + gap(client, k + 1, q.createdMs);
            const double next = std::max(t, due);
            if (next < r_.durationMs) scheduleCreation(client, k + 1, next);
        }
    }

    void finish() {
        // The late answers counted without an event (complete()) end the run if they come last;
        // the state the bins up to them hold is the last event's, as no answer changes it.
        result_.totals.endMs = std::max(result_.totals.endMs, lastLateMs_);
        bool open = false;
        for (std::uint32_t id = 0; id < requests_.size(); ++id) {
            if (!(requests_[id].flags & InUse) || (requests_[id].flags & Ended)) continue;
            if (!open) {
                advanceTo(horizon_);
                result_.totals.endMs = horizon_;
                open = true;
            }
            end(id, EndReason::Unfinished, horizon_);
        }
        const std::size_t last = binOf(result_.totals.endMs);
        if (result_.bins.size() < last + 1) result_.bins.resize(last + 1);
        while (stateBin_ <= last) writeState(stateBin_++);

        if (!latencies_.empty()) {
            std::sort(latencies_.begin(), latencies_.end());
            const std::size_t count = latencies_.size();
            auto rank = [count](std::size_t percent) { return (percent * count + 99) / 100; };  // ⌈q × n⌉
            Latency l;
            l.p50 = latencies_[rank(50) - 1];
            l.p90 = latencies_[rank(90) - 1];
            l.p99 = latencies_[rank(99) - 1];
            l.max = latencies_.back();
            result_.totals.latencyMs = l;
        }
        if (r_.trigger) result_.recovery = recovery();
    }

    // §8 (v3): windows of five bins judged together (recoveryOf, fleet_result.cpp).
    Recovery recovery() const { return recoveryOf(r_, result_.bins); }

    const FleetRequest& r_;
    FleetTrace* trace_;
    FleetWork* work_;
    std::uint64_t eventsTaken_ = 0;
    Backoff backoff_;
    Distribution network_;
    std::vector<double> ceilings_;  // ceilingFor(backoff_, n) by failure number n
    double horizon_ = 0;
    double lastLateMs_ = 0;  // the time of the last late answer counted (lateAnswer())
    std::uint64_t keyArrival_ = 0, keyOut_ = 0, keyBack_ = 0, keyFail_ = 0, keyWait_ = 0, keyLocal_ = 0, keyAdmission_ = 0;
    std::vector<std::uint64_t> arrivalKeys_;  // ARRIVAL(c)'s stream key, by client
    MinHeap<Event, EventLess> events_;
    const Event none_{std::numeric_limits<double>::infinity(), 0, 0, 0, 0};  // "no event": later than any
    static constexpr int kLanes = 4;
    Lane lane_[kLanes];
    int lanes_ = 0;
    int laneNetwork_ = -1;  // the lane of a fixed network's legs (-1: the network draws)
    int laneTimeout_ = -1;  // the lane of clientTimeoutMs, the waiting limit without a deadline
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
    WaitQueue queue_;
    std::uint64_t inService_ = 0;
    std::vector<double> latencies_;
    std::size_t stateBin_ = 0;
    // docs/throttling.md §4.1: each limiter's fill rate once enabled (0 before), by client (one with
    // scope fleet); how many are enabled; the mean last summed, and whether a rate was set since.
    std::vector<double> fills_;
    std::uint64_t limiting_ = 0;
    std::optional<double> sendRate_;
    bool fillsChanged_ = false;
    std::size_t binIndex_ = 0;
    double binLo_ = 1, binHi_ = 0;  // none cached yet
    ServiceResult result_;
};

}  // namespace

ServiceResult simulateService(const FleetRequest& request, FleetTrace* trace, FleetWork* work) {
    // docs/layers.md §9: a stack of layers runs in fleet_layers.cpp.
    if (!request.policy.layers.empty()) return simulateLayeredService(request, trace, work);
    return ServiceRun(request, trace, work).run();
}

}  // namespace retrylab
