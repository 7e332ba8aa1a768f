// docs/layers.md §9: FLEET.md's service workload with a stack of retry layers per client. Each
// layer's call is FLEET §4's request loop with that layer's policy; an upper layer's attempt is a
// call to the layer below, and only the bottom layer's attempts reach the server (FLEET §4's,
// unchanged). One event loop in FLEET §6's order with the key (time, kind, client, request,
// (layer, id(path))): every event names a call, and a call's record lives while an event or a
// live call below names it. A caller's handle on the call its attempt waits for carries the
// record's generation, so a record released and given to another call is never taken for it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "fleet_bins.hpp"
#include "fleet_gates.hpp"
#include "fleet_layers.hpp"
#include "fleet_loop.hpp"
#include "fleet_network.hpp"
#include "lane.hpp"
#include "policy.hpp"
#include "retrylab/fleet.hpp"
#include "streams.hpp"

namespace retrylab {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNone = 0xFFFFFFFFu;

// FLEET §6's kinds, in their order at equal times; an upper layer's answers are kind 3, its
// cutoffs kind 4 (docs/layers.md §9.1).
enum Kind : std::uint64_t { Completion = 1, Arrival = 2, Answer = 3, Limit = 4, Send = 5 };
// What an attempt receives: the server's statuses, or a call's relayed result (§4.4).
enum Status : std::uint32_t { Ok200 = 0, Error500 = 1, Busy503 = 2, TimedOut = 3, GivenUp = 4 };

// FLEET §6's key below the time, 91 bits: kind (3), client (14), request (36), then the layer from 1
// (3) and id(q), the path's numbers less one as base-128 digits (§6: at most 5 × 7 = 35 bits). An
// event holds them in `hi` and the top 27 bits of `lo`, and below them in `lo` the call's record
// (32 bits) and the status (3): 32 bytes, as fleet_service.cpp's event, where 40 (the key, the
// layer and path, the call and status apart) took about 8 % more of the three-layer opening run
// in WebAssembly. No two events share the 91 bits (an attempt has one send, arrival, cutoff,
// completion and answer), so what lies below them never orders two events.
constexpr int kClientShift = 36, kKindShift = 50, kPathBits = 38, kLayerShift = 35;
constexpr int kLoKeyBits = kPathBits - 11;  // the path's bits in lo; its top 11 end hi
constexpr int kStatusShift = 32;
constexpr int kKeyLayerShift = 40;  // a minted key's layer (§5), above id(p)

struct Event {
    double t;
    std::uint64_t hi;
    std::uint64_t lo;
    double x;  // Arrival: the cutoff L; Completion and a bottom Answer: the service time; an upper Answer: Retry-After
    Kind kind() const { return static_cast<Kind>(hi >> (kKindShift + 11)); }
    int attempt() const { return static_cast<int>((lo >> (64 - kLoKeyBits)) & 127) + 1; }
    std::uint32_t call() const { return static_cast<std::uint32_t>(lo); }
    std::uint32_t status() const { return static_cast<std::uint32_t>(lo >> kStatusShift) & 7u; }
};
static_assert(sizeof(Event) == 32, "a layered event is 32 bytes");

// An event at t of `kind` for request (client, number) naming the attempt (layer from 1, id).
inline Event makeEvent(double t, Kind kind, std::uint32_t client, std::uint64_t number, std::uint64_t layerFrom1,
                       std::uint64_t id, double x, std::uint32_t call, std::uint32_t status) {
    const std::uint64_t key = (static_cast<std::uint64_t>(kind) << kKindShift) |
                              (static_cast<std::uint64_t>(client) << kClientShift) | number;
    const std::uint64_t path = (layerFrom1 << kLayerShift) | id;
    return Event{t, (key << 11) | (path >> kLoKeyBits),
                 (path << (64 - kLoKeyBits)) | (static_cast<std::uint64_t>(status) << kStatusShift) | call, x};
}

struct EventLess {
    // Without short-circuits, so the heap can pick a child without a branch (as fleet_service.cpp's).
    bool operator()(const Event& a, const Event& b) const {
        return (a.t < b.t) | ((a.t == b.t) & ((a.hi < b.hi) | ((a.hi == b.hi) & (a.lo < b.lo))));
    }
};

enum CallState : std::uint8_t { Running, Ended, Cancelled };

struct Call {
    double deadline = kNever;    // D (§4.2), absolute
    double cutoff = 0;           // its current attempt's cutoff X (§4.3)
    double previousMs = 0;       // decorrelated's "previous": this call's last backoff wait
    double lastCost = 0;         // the quota's cost last taken for this call
    double lastRetryAfter = -1;  // the last answer's Retry-After (relayed by last-failure), -1 none
    std::uint64_t id = 0;        // id(p) of the path p naming this call (layer 1's: 0)
    std::uint64_t key = 0;       // the key value its attempts carry (§5); 0 none
    std::uint32_t request = 0;
    std::uint32_t parent = kNone;
    std::uint32_t child = kNone;        // the call its current attempt made and waits for (upper layers)
    std::uint32_t childGeneration = 0;  // that call's record's generation when it was made
    std::uint32_t generation = 0;       // how many times this record has been released
    std::uint32_t pending = 0;          // events, queue entries and live calls below that name it
    std::uint32_t period = 0;           // the breaker period its current attempt was sent in
    std::uint8_t layer = 0;             // from 0
    std::uint8_t attempt = 0;           // its current attempt n
    std::uint8_t state = Running;
    std::uint8_t last = TimedOut;  // the last answer's status (relayed by last-failure)
    bool orphan = false;           // it, or a call above it, was left running (§4.5)
    bool left = false;             // its caller stopped waiting for it: its result reaches no one (§4.5)
    bool resolved = false;         // its current attempt was answered in time or timed out
    bool paidCost = false;
    bool inUse = false;
};

struct Request {
    double createdMs = 0;
    std::uint32_t client = 0, number = 0;
    std::uint32_t live = 0;  // calls of it still held
    bool ended = false, charged = false, inUse = false;
    std::vector<std::uint64_t> keys;  // the key values its commits carried
};

struct Waiting {
    double limitMs;
    std::uint32_t call;
    std::uint32_t attempt;
};

// The waiting attempts, oldest first from `head`: first-in first-out takes the front, last-in
// first-out the back; the taken front is dropped once it is half the storage.
class WaitQueue {
public:
    std::size_t size() const { return items_.size() - head_; }
    bool empty() const { return size() == 0; }
    void push_back(const Waiting& w) { items_.push_back(w); }
    Waiting popOldest() {
        const Waiting w = items_[head_++];
        if (head_ > 1024 && head_ * 2 > items_.size()) {
            items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
        return w;
    }
    Waiting popNewest() {
        const Waiting w = items_.back();
        items_.pop_back();
        return w;
    }

private:
    std::vector<Waiting> items_;
    std::size_t head_ = 0;
};

// One layer's policy as the loop reads it.
struct LayerRun {
    const FleetLayer* layer = nullptr;
    Backoff backoff;
    std::vector<double> ceilings;  // by failure number n
    int laneTimeout = -1;          // the lane of now + its clientTimeoutMs, or -1 (the heap)
};

class LayeredRun {
public:
    LayeredRun(const FleetRequest& r, FleetTrace* trace, FleetWork* work, RecordReuse reuse)
        : r_(r),
          trace_(trace),
          work_(work),
          reuse_(reuse == RecordReuse::Reuse),
          gates_(r.gates, r.clients, r.policy.layers.size()) {
        k_ = r.policy.layers.size();
        for (const FleetLayer& l : r.policy.layers) {
            LayerRun run;
            run.layer = &l;
            run.backoff = backoffOf(l.policy);
            run.ceilings = ceilingsOf(run.backoff, static_cast<std::size_t>(*l.policy.maxRetries + 2));
            layers_.push_back(std::move(run));
        }
        result_.totals.layers.resize(k_);
        network_ = distributionOf(r.network);
        horizon_ = 2 * r.durationMs + 60000;
        keyOut_ = streams::purposeKey(r.seed, streams::Out);
        keyBack_ = streams::purposeKey(r.seed, streams::Back);
        keyFail_ = streams::purposeKey(r.seed, streams::Fail);
        keyWait_ = streams::purposeKey(r.seed, streams::Wait);
        keyLayerWait_ = streams::purposeKey(r.seed, streams::LayerWait);
        // The delays that recur (lane.hpp's lanes), at most kLanes of them: a call's first send
        // below and a call's end reaching its caller (0), a fixed network's legs, each layer's
        // timeout, the service.
        events_.addLane(0);
        if (r.network.dist == NetworkDist::Fixed) events_.addLane(r.network.ms);
        for (const FleetLayer& l : r.policy.layers) events_.addLane(l.policy.clientTimeoutMs);
        if (r.server.serviceMsPerInFlight == 0) {
            events_.addLane(r.server.serviceMs * 1);
            if (r.trigger && r.trigger->kind == TriggerKind::Slowdown)
                events_.addLane(r.server.serviceMs * r.trigger->factor);
        }
        laneNow_ = events_.laneFor(0);
        laneNetwork_ = r.network.dist == NetworkDist::Fixed ? events_.laneFor(r.network.ms) : -1;
        for (LayerRun& l : layers_) l.laneTimeout = events_.laneFor(l.layer->policy.clientTimeoutMs);
    }

    // A request's creation (fleet_loop.hpp's arrivals): its layer-1 call's first send.
    auto creation() {
        return [this](std::uint32_t client, std::uint32_t k, double at) {
            const std::uint32_t request = newRequest(client, k, at);
            schedule(at, Send, newCall(request, 0, kNone, at), 1);
        };
    }

    ServiceResult run() {
        arrivals_.start(creation());
        const std::uint64_t taken = events_.run(horizon_, [this](const Event& e) { process(e); });
        finish();
        if (work_) {
            work_->events = taken;
            work_->queue = deepest_;
            work_->records = calls_.size();
        }
        return std::move(result_);
    }

private:
    // ---- streams, arrivals, records -----------------------------------------------------------

    // id(q) of attempt n of call c: the call's path with n appended (§6).
    static std::uint64_t attemptId(const Call& c, int n) { return c.id * 128 + static_cast<std::uint64_t>(n - 1); }

    std::uint64_t streamKey(std::uint64_t purposeKey, const Request& q, std::uint64_t id) const {
        return streams::step(streams::step(streams::step(purposeKey, q.client), q.number), id);
    }
    double leg(std::uint64_t purposeKey, const Call& c, int n) const {
        if (!streams::drawsFrom(network_)) return network_.a;
        return streams::sample(network_, streamKey(purposeKey, requests_[c.request], attemptId(c, n)));
    }

    std::uint32_t newRequest(std::uint32_t client, std::uint32_t k, double at) {
        Request q;
        q.createdMs = at;
        q.client = client;
        q.number = k;
        q.inUse = true;
        if (reuse_ && !freeRequests_.empty()) {
            const std::uint32_t slot = freeRequests_.back();
            freeRequests_.pop_back();
            requests_[slot] = std::move(q);
            return slot;
        }
        requests_.push_back(std::move(q));
        return static_cast<std::uint32_t>(requests_.size() - 1);
    }

    // A call to layer `layer` made at t by attempt n of `parent` (none: the request's own call).
    // Written in its slot member by member: a whole record copied in was a memcpy call, about 6 %
    // of the three-layer opening run in WebAssembly.
    std::uint32_t newCall(std::uint32_t request, std::size_t layer, std::uint32_t parent, double t) {
        std::uint32_t slot;
        if (reuse_ && !freeCalls_.empty()) {
            slot = freeCalls_.back();
            freeCalls_.pop_back();
        } else {
            slot = static_cast<std::uint32_t>(calls_.size());
            calls_.emplace_back();
        }
        const FleetLayer& l = *layers_[layer].layer;
        Call& c = calls_[slot];  // its generation is kept
        c.deadline = l.policy.deadlineMs ? t + *l.policy.deadlineMs : kNever;
        c.cutoff = 0;
        c.previousMs = l.policy.baseBackoffMs;
        c.lastCost = 0;
        c.lastRetryAfter = -1;
        c.id = 0;
        c.request = request;
        c.parent = parent;
        c.child = kNone;
        c.childGeneration = 0;
        c.pending = 0;
        c.period = 0;
        c.layer = static_cast<std::uint8_t>(layer);
        c.attempt = 0;
        c.state = Running;
        c.last = TimedOut;
        c.orphan = false;
        c.left = false;
        c.resolved = false;
        c.paidCost = false;
        c.inUse = true;
        std::uint64_t given = 0;  // the key the call is given: its caller's attempt's
        if (parent != kNone) {
            Call& p = calls_[parent];
            c.id = attemptId(p, p.attempt);
            c.orphan = p.orphan;
            given = p.key;
            // §4.2: an inherited deadline is the caller's cutoff less the margin.
            if (l.inheritDeadline) c.deadline = std::min(c.deadline, p.cutoff - l.deadlineMarginMs);
            ++p.pending;
        }
        c.key = l.key == LayerKey::None   ? 0
                : l.key == LayerKey::Pass ? given
                                          : ((static_cast<std::uint64_t>(layer + 1) << kKeyLayerShift) | c.id) + 1;
        ServiceTotals::LayerRow& row = result_.totals.layers[layer];
        ++row.calls;
        if (c.orphan) ++row.orphaned;
        ++requests_[request].live;
        return slot;
    }

    // Gives a call's record back once it has stopped and nothing names it; then its caller's and
    // its request's, in turn.
    void release(std::uint32_t slot) {
        while (slot != kNone) {
            Call& c = calls_[slot];
            if (!c.inUse || c.state == Running || c.pending != 0) return;
            c.inUse = false;
            ++c.generation;
            freeCalls_.push_back(slot);
            const std::uint32_t parent = c.parent;
            Request& q = requests_[c.request];
            --q.live;
            if (q.ended && q.live == 0 && q.inUse) {
                q.inUse = false;
                q.keys.clear();
                freeRequests_.push_back(c.request);
            }
            if (parent != kNone) --calls_[parent].pending;
            slot = parent;
        }
    }

    // An event at t, in the heap.
    void schedule(double t, Kind kind, std::uint32_t slot, int n, double x = 0, std::uint32_t status = 0) {
        scheduleIn(-1, t, kind, slot, n, x, status);
    }
    // An event at now + delay: in the lane of that delay if there is one, else in the heap.
    void scheduleAfter(double now, double delay, Kind kind, std::uint32_t slot, int n, double x = 0,
                       std::uint32_t status = 0) {
        scheduleIn(events_.laneFor(delay), now + delay, kind, slot, n, x, status);
    }
    void scheduleIn(int lane, double t, Kind kind, std::uint32_t slot, int n, double x = 0, std::uint32_t status = 0) {
        Call& c = calls_[slot];
        ++c.pending;
        const Request& q = requests_[c.request];
        events_.put(lane, makeEvent(t, kind, q.client, q.number, c.layer + 1u, attemptId(c, n), x, slot, status));
    }

    // ---- bins ---------------------------------------------------------------------------------

    ServiceBin& bin(double t) {
        const std::size_t b = bins_.of(t);
        if (b >= result_.bins.size()) result_.bins.resize(b + 1);
        return result_.bins[b];
    }
    void advanceTo(double t) {
        bins_.advanceTo(t, [this](std::size_t b) { writeState(b); });
    }
    void writeState(std::size_t b) {
        if (b >= result_.bins.size()) result_.bins.resize(b + 1);
        ServiceBin& s = result_.bins[b];
        s.queue = queue_.size();
        s.inService = inService_;
        s.tokens = fleetTokens();
    }
    std::optional<double> fleetTokens() const { return gates_.fleetTokens(); }

    // ---- the loop -----------------------------------------------------------------------------

    // FLEET §8's "events": a cutoff whose attempt was answered in time, or whose call has stopped,
    // is not one; nor is a send of a call that was cancelled (its wait abandoned, §4.5).
    bool isEvent(Kind kind, const Call& c, int n) const {
        if (kind == Limit) return c.state == Running && c.attempt == n && !c.resolved;
        if (kind == Send) return c.state == Running;
        return true;
    }

    void process(const Event& e) {
        const Kind kind = e.kind();
        const int n = e.attempt();
        const std::uint32_t call = e.call();
        Call& c = calls_[call];
        --c.pending;
        if (isEvent(kind, c, n)) {
            advanceTo(e.t);
            result_.totals.endMs = e.t;
            if (trace_) {
                const Request& q = requests_[c.request];
                trace_->events.push_back(FleetTraceEvent{e.t, static_cast<int>(kind), q.client, q.number, n});
            }
            switch (kind) {
                case Send: send(call, n, e.t); break;
                case Arrival: arrive(call, n, e.t, e.x); break;
                case Completion: complete(call, n, e.t, e.x); break;
                case Answer: answer(call, n, e.t, e.x, e.status()); break;
                case Limit: cutoff(call, n, e.t); break;
            }
        }
        release(call);
    }

    bool bottom(const Call& c) const { return c.layer + 1u == k_; }

    // Attempt n of a call, sent at t (for layer 1's attempt 1: the request's creation).
    void send(std::uint32_t slot, int n, double t) {
        const std::size_t layer = calls_[slot].layer;
        const std::uint32_t request = calls_[slot].request;
        const std::uint32_t client = requests_[request].client;
        if (layer == 0 && n == 1) {
            ++result_.totals.requests;
            ++bin(t).created;
            arrivals_.created(client, requests_[request].number, t, creation());
        }
        // §4.1: a call whose deadline is already past sends nothing (only an inherited one can be).
        if (n == 1 && calls_[slot].deadline < t) return endCall(slot, EndReason::Deadline, t);
        std::uint32_t period = 0;
        if (!gates_.admits(layer, client, t, period)) {
            // §9.3: the refused attempt is FLEET's circuit-open; its layer relays a 503 (§4.4).
            calls_[slot].last = Busy503;
            calls_[slot].lastRetryAfter = -1;
            return endCall(slot, EndReason::CircuitOpen, t);
        }
        Call& c = calls_[slot];
        c.attempt = static_cast<std::uint8_t>(n);
        c.resolved = false;
        c.period = period;
        const LayerRun& l = layers_[layer];
        const double timeoutAt = t + l.layer->policy.clientTimeoutMs;
        c.cutoff = std::min(timeoutAt, c.deadline);
        const int cutoffLane = c.cutoff == timeoutAt ? l.laneTimeout : -1;  // a deadline's cutoff: the heap
        const bool shadowed = cutoffShadowed(c);
        countSend(c, n, t);
        if (bottom(c)) {
            if (laneNetwork_ >= 0)  // a fixed network: every leg is the lane's delay
                scheduleIn(laneNetwork_, t + network_.a, Arrival, slot, n, c.cutoff);
            else
                schedule(t + leg(keyOut_, c, n), Arrival, slot, n, c.cutoff);
            if (!shadowed) scheduleIn(cutoffLane, c.cutoff, Limit, slot, n);
            return;
        }
        if (!shadowed) scheduleIn(cutoffLane, c.cutoff, Limit, slot, n);
        const std::uint32_t below = newCall(request, layer + 1, slot, t);  // may move calls_: `c` is not used after
        calls_[slot].child = below;
        calls_[slot].childGeneration = calls_[below].generation;
        scheduleIn(laneNow_, t, Send, below, 1);
    }

    // Whether the cutoff of c's current attempt can never be an event (isEvent), so that it need
    // not be queued: c's caller cancels the calls below it (propagate) and its attempt's cutoff
    // comes no later (at an equal time the caller's, of a lower layer, is processed first, §9.1).
    // By then c has ended, or that cutoff cancels it (runningChild: under propagate a running c
    // is always its caller's current child), or the caller was cancelled from above, the walk
    // cancelling c with it; so c's own cutoff finds it stopped. With three layers of one policy
    // (the opening run's stack) every call below the top is so: two of every attempt's ten events.
    bool cutoffShadowed(const Call& c) const {
        if (c.layer == 0) return false;
        const Call& caller = calls_[c.parent];
        return layers_[caller.layer].layer->cancel == Cancel::Propagate && c.cutoff >= caller.cutoff;
    }

    void countSend(const Call& c, int n, double t) {
        const std::size_t layer = c.layer;
        const std::uint32_t client = requests_[c.request].client;
        ServiceTotals::LayerRow& row = result_.totals.layers[layer];
        ServiceBin& b = bin(t);
        if (b.layerAttempts.size() < k_) b.layerAttempts.resize(k_);
        ++row.attempts;
        ++b.layerAttempts[layer];
        if (n > 1) ++row.retries;
        if (n == 1) gates_.firstSent(layer, client, t);
        if (!bottom(c)) return;
        ++result_.totals.attempts;
        if (n == 1) {
            ++result_.totals.firstAttempts;
            ++b.firstAttempts;
        } else {
            ++result_.totals.retries;
            ++b.retries;
        }
    }

    // ---- the server (FLEET §4, unchanged) -------------------------------------------------------

    bool workerFree() const { return !r_.server.workers || inService_ < *r_.server.workers; }

    void reject(std::uint32_t slot, int n, double t) {
        scheduleAfter(t, leg(keyBack_, calls_[slot], n), Answer, slot, n, 0, Busy503);
    }

    void arrive(std::uint32_t slot, int n, double t, double limit) {
        if (r_.trigger && r_.trigger->kind == TriggerKind::Outage && t >= r_.trigger->startMs &&
            t < r_.trigger->endMs) {
            ++result_.totals.outageRejected;
            ++bin(t).outageRejected;
            return reject(slot, n, t);
        }
        const Waiting w{limit, slot, static_cast<std::uint32_t>(n)};
        if (workerFree()) return startService(w, t);
        if (!r_.server.queueLimit || queue_.size() < *r_.server.queueLimit) {
            ++calls_[slot].pending;
            queue_.push_back(w);
            deepest_ = std::max<std::uint64_t>(deepest_, queue_.size());
            return;
        }
        ++result_.totals.shed;
        ++bin(t).shed;
        reject(slot, n, t);
    }

    void startService(const Waiting& w, double t) {
        double f = 1;
        if (r_.trigger && r_.trigger->kind == TriggerKind::Slowdown && t >= r_.trigger->startMs &&
            t < r_.trigger->endMs)
            f = r_.trigger->factor;
        const double s =
            (r_.server.serviceMs + r_.server.serviceMsPerInFlight * static_cast<double>(inService_ + 1)) * f;
        if ((r_.server.dropStale != DropStale::Never && t >= w.limitMs) ||
            (r_.server.dropStale == DropStale::Unfinishable && t + s > w.limitMs)) {
            ++result_.totals.cancelled;
            return;
        }
        ++result_.totals.served;
        ++bin(t).served;
        ++inService_;
        scheduleAfter(t, s, Completion, w.call, static_cast<int>(w.attempt), s);
    }

    void complete(std::uint32_t slot, int n, double t, double serviceMs) {
        --inService_;
        const Call& c = calls_[slot];
        Request& q = requests_[c.request];
        const double rate = r_.server.failureRate;
        const bool failed = rate > 0 && (rate >= 1 || streams::draw(streamKey(keyFail_, q, attemptId(c, n)), 0) < rate);
        // §9.1: a commit is a replay when an earlier commit of its request carried its key.
        if (!failed && r_.operation != Operation::Read) {
            if (c.key && std::find(q.keys.begin(), q.keys.end(), c.key) != q.keys.end()) {
                ++result_.totals.replays;
            } else {
                ++result_.totals.charges;
                if (q.charged) ++result_.totals.duplicateCharges;
                q.charged = true;
                if (c.key) q.keys.push_back(c.key);
            }
        }
        scheduleAfter(t, leg(keyBack_, c, n), Answer, slot, n, serviceMs, failed ? Error500 : Ok200);
        while (workerFree() && !queue_.empty()) {
            const Waiting next = r_.server.queueOrder == QueueOrder::Fifo ? queue_.popOldest() : queue_.popNewest();
            --calls_[next.call].pending;
            startService(next, t);
            release(next.call);
        }
    }

    // ---- a layer's loop (FLEET §4 per call, docs/layers.md §4) ----------------------------------

    void answer(std::uint32_t slot, int n, double t, double x, std::uint32_t status) {
        Call& c = calls_[slot];
        if (c.state != Running || c.attempt != n || c.resolved) {
            if (!bottom(c)) return;
            // Late: FLEET §4's, and an answer to a cancelled call's attempt (no one waits for it).
            ++result_.totals.late;
            ++bin(t).late;
            result_.totals.wastedServiceMs += x;
            return;
        }
        c.resolved = true;
        if (!bottom(c)) c.child = kNone;
        if (status == Ok200) return succeed(slot, t);
        double retryAfter = -1;
        if (bottom(c)) {
            if (status == Busy503 && r_.server.rejectRetryAfterMs) retryAfter = *r_.server.rejectRetryAfterMs;
        } else {
            retryAfter = x;
        }
        fail(slot, n, status, t, retryAfter);
    }

    void cutoff(std::uint32_t slot, int n, double t) {
        Call& c = calls_[slot];
        c.resolved = true;
        if (bottom(c)) {
            ++bin(t).timeouts;
        } else if (const std::uint32_t below = runningChild(c); below != kNone) {
            c.child = kNone;  // no longer this call's to wait for
            if (layers_[c.layer].layer->cancel == Cancel::Propagate)
                cancelBelow(below);
            else
                orphanBelow(below);
        }
        fail(slot, n, TimedOut, t, -1);
    }

    // The call that c's current attempt waits for, if it is still running (none at the bottom).
    std::uint32_t runningChild(const Call& c) const {
        if (bottom(c) || c.child == kNone) return kNone;
        const Call& below = calls_[c.child];
        return below.generation == c.childGeneration && below.state == Running ? c.child : kNone;
    }

    // §4.5: the call and every call beneath it that is waited for stop now (a call left earlier is
    // no one's to wait for, so the walk never reaches it).
    void cancelBelow(std::uint32_t slot) {
        while (slot != kNone) {
            Call& c = calls_[slot];
            c.state = Cancelled;
            ++result_.totals.layers[c.layer].cancelled;
            const std::uint32_t below = runningChild(c);
            release(slot);
            slot = below;
        }
    }
    // §4.5: the call is left, its result reaching no one; it and the calls beneath it are
    // orphaned, each counted once (the calls below an orphan are orphans already).
    void orphanBelow(std::uint32_t slot) {
        calls_[slot].left = true;
        while (slot != kNone && !calls_[slot].orphan) {
            Call& c = calls_[slot];
            c.orphan = true;
            ++result_.totals.layers[c.layer].orphaned;
            slot = runningChild(c);
        }
    }

    // What the gates read of an answer to call c's current attempt.
    static gates::Received received(const Call& c, double t, bool retryable) {
        return gates::Received{t, c.period, c.paidCost ? std::optional<double>(c.lastCost) : std::nullopt, retryable};
    }

    void succeed(std::uint32_t slot, double t) {
        const Call& c = calls_[slot];
        gates_.succeeded(c.layer, requests_[c.request].client, received(c, t, false));
        endCall(slot, EndReason::Success, t);
    }

    bool retried(const FleetPolicy& p, std::uint32_t status) const {
        if (status == GivenUp) return false;  // §4.4: no layer retries given-up
        return status == TimedOut ? p.retryTimeout : p.retry5xx;
    }

    // FLEET §4's rules after failure n, with this call's layer's policy and gates.
    void fail(std::uint32_t slot, int n, std::uint32_t status, double t, double retryAfterMs) {
        Call& c = calls_[slot];
        const Request& q = requests_[c.request];
        const std::size_t layer = c.layer;
        const LayerRun& l = layers_[layer];
        const FleetPolicy& p = l.layer->policy;
        c.last = static_cast<std::uint8_t>(status);
        c.lastRetryAfter = retryAfterMs;
        const bool retryable = retried(p, status);
        gates_.failed(layer, q.client, received(c, t, retryable));
        if (!retryable) return endCall(slot, EndReason::NotRetryable, t);
        if (n >= *p.maxRetries + 1) return endCall(slot, EndReason::AttemptLimit, t);
        double wait = 0;
        if (retryAfterMs >= 0 && p.honourRetryAfter) {
            wait = retryAfterMs;
        } else {
            double d = 0;
            if (p.jitter != Jitter::None) {
                // §9.1: the bottom layer's WAIT of its attempt id; an upper layer's LAYER_WAIT.
                const std::uint64_t id = attemptId(c, n);
                d = bottom(c) ? streams::draw(streamKey(keyWait_, q, id), 0)
                              : streams::draw(streamKey(keyLayerWait_, q, id * 8 + layer), 0);
            }
            wait = jitteredWait(l.backoff, l.ceilings[static_cast<std::size_t>(n)], c.previousMs, d);
            c.previousMs = wait;
        }
        if (t + wait >= c.deadline) return endCall(slot, EndReason::Deadline, t);
        if (const std::optional<EndReason> refused = askRetryGates(c, q.client, t, status == TimedOut))
            return endCall(slot, *refused, t);
        schedule(t + wait, Send, slot, n + 1);
    }

    // FLEET §4 rule 4 for a retry of this call's layer: the gates on that layer, in order.
    std::optional<EndReason> askRetryGates(Call& c, std::uint32_t client, double t, bool afterTimeout) {
        gates::RetryAsk ask{t, afterTimeout, std::nullopt};
        const std::optional<EndReason> refused = gates_.askRetry(c.layer, client, ask);
        if (ask.quotaPaid) {
            c.lastCost = *ask.quotaPaid;
            c.paidCost = true;
        }
        return refused;
    }

    // A call ends: layer 1's is its request's end; another's result reaches the attempt that
    // made it (§4.4) as an answer at t, unless its caller left it (§4.5: an orphan below a left
    // call still answers its own caller).
    void endCall(std::uint32_t slot, EndReason reason, double t) {
        Call& c = calls_[slot];
        c.state = Ended;
        if (c.layer == 0) return endRequest(c.request, reason, t);
        if (c.left) return;
        const FleetLayer& l = *layers_[c.layer].layer;
        std::uint32_t status = Ok200;
        double retryAfter = -1;
        if (reason != EndReason::Success) {
            status = l.giveUp == GiveUp::DoNotRetry ? static_cast<std::uint32_t>(GivenUp) : c.last;
            if (status != GivenUp) retryAfter = c.lastRetryAfter;
        }
        Call& p = calls_[c.parent];
        ++p.pending;
        const Request& q = requests_[c.request];
        events_.put(laneNow_,
                    makeEvent(t, Answer, q.client, q.number, p.layer + 1u, c.id, retryAfter, c.parent, status));
    }

    void endRequest(std::uint32_t request, EndReason reason, double t) {
        Request& q = requests_[request];
        q.ended = true;
        if (trace_) trace_->ends.push_back(FleetTraceEnd{t, q.client, q.number, reason});
        countEnd(result_.totals, bin(t), latencies_, reason, q.createdMs, t);
        arrivals_.ended(q.client, q.number, q.createdMs, t, reason, creation());  // may move requests_
    }

    // ---- the end ------------------------------------------------------------------------------

    void finish() {
        endUnfinished(
            requests_.size(), horizon_, result_.totals.endMs,
            [this](std::uint32_t id) { return requests_[id].inUse && !requests_[id].ended; },
            [this](double t) { advanceTo(t); },
            [this](std::uint32_t id) { endRequest(id, EndReason::Unfinished, horizon_); });
        bins_.closeAt(result_.totals.endMs, [this](std::size_t b) { writeState(b); });
        for (ServiceBin& b : result_.bins) b.layerAttempts.resize(k_);
        if (!latencies_.empty()) { result_.totals.latencyMs = latencyOf(latencies_); }
        if (r_.trigger) result_.recovery = recoveryOf(r_, result_.bins);
    }

    const FleetRequest& r_;
    FleetTrace* trace_;
    FleetWork* work_;
    bool reuse_;
    std::size_t k_ = 1;
    std::vector<LayerRun> layers_;
    streams::Distribution network_;
    double horizon_ = 0;
    std::uint64_t keyOut_ = 0, keyBack_ = 0, keyFail_ = 0, keyWait_ = 0, keyLayerWait_ = 0;
    std::vector<Call> calls_;  // by index: a reference is not held across a new call's push
    std::vector<std::uint32_t> freeCalls_;
    std::vector<Request> requests_;
    std::vector<std::uint32_t> freeRequests_;
    gates::GateSet gates_;
    WaitQueue queue_;
    std::uint64_t deepest_ = 0;
    std::uint64_t inService_ = 0;
    std::vector<double> latencies_;
    BinStates bins_{static_cast<double>(r_.binMs)};  // fleet_bins.hpp
    ArrivalGaps arrivals_{r_};                       // fleet_loop.hpp
    static constexpr int kLanes = 8;  // a ninth delay (five layers, a network, a slowdown) goes to the heap
    EventQueue<Event, EventLess, kLanes> events_;  // lane.hpp
    int laneNow_ = -1, laneNetwork_ = -1;
    ServiceResult result_;
};

}  // namespace

ServiceResult simulateLayeredService(const FleetRequest& request, FleetTrace* trace, FleetWork* work,
                                     RecordReuse reuse) {
    return LayeredRun(request, trace, work, reuse).run();
}

ServiceResult simulateLayeredService(const FleetRequest& request, FleetTrace* trace, FleetWork* work) {
    return simulateLayeredService(request, trace, work, RecordReuse::Reuse);
}

}  // namespace retrylab
