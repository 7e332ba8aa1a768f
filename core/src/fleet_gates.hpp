// FLEET.md §5's retry gates (quota, bucket, throttle, budget, breaker) and docs/engine.md §7.1's
// rules for them: one type per gate with its hooks, and the set of them that both the one-layer
// run (fleet_service.cpp) and the stack's run (fleet_layers.cpp, docs/layers.md §9.3: a gate on
// one layer) drive. A gate is added here, once: its configuration's row, its state in GateOwner,
// its hooks, and its place in GateSet's list.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "retrylab/fleet.hpp"

namespace retrylab {
namespace gates {

// Times in a sliding window, oldest first (the budget's retries and first attempts).
class TimeWindow {
public:
    void push(double t) { times_.push_back(t); }
    // Forgets the times x with x ≤ after (the window keeps x > after) and counts the rest.
    std::size_t countAfter(double after) {
        while (head_ < times_.size() && !(times_[head_] > after)) ++head_;
        if (head_ > 4096 && head_ * 2 > times_.size()) {
            times_.erase(times_.begin(), times_.begin() + static_cast<std::ptrdiff_t>(head_));
            head_ = 0;
        }
        return times_.size() - head_;
    }

private:
    std::vector<double> times_;
    std::size_t head_ = 0;
};

// §5's count-based breaker, one per owner (a client, or the fleet).
struct Breaker {
    enum class State { Closed, Open, HalfOpen };
    State state = State::Closed;
    std::uint32_t period = 0;  // a closed period or one half-open period
    double openedAt = 0;
    std::vector<std::uint8_t> ring;  // the closed window's outcomes, 1 a failure; grows as needed
    std::size_t head = 0;
    std::uint64_t failures = 0;
    std::uint32_t halfSent = 0, halfIn = 0, halfFailures = 0;
};

// What the gates hold for one owner (a client, or the fleet: each gate's scope says which).
struct GateOwner {
    double quota = 0, bucket = 0, throttle = 0;
    TimeWindow budgetRetries, budgetFirsts;
    Breaker breaker;
};

// A retry asking the gates (FLEET §4 rule 4): when, after what, and the quota's cost it paid.
struct RetryAsk {
    double t = 0;
    bool afterTimeout = false;
    std::optional<double> quotaPaid;  // set when the quota took its cost
};

// An answer the layer received: when, the breaker period its attempt was sent in, the quota's
// cost its call last paid (none if it paid none), and whether rule 1 retries its class.
struct Received {
    double t = 0;
    std::uint32_t period = 0;
    std::optional<double> lastCost;
    bool retryable = false;
};

// Every hook does nothing unless a gate's type says otherwise (static dispatch: a gate type hides
// the hooks it uses).
struct NoHooks {
    template <class G>
    static void fill(const G&, GateOwner&) {}
    template <class G>
    static bool admits(const G&, GateOwner&, double, std::uint32_t&) {
        return true;
    }
    template <class G>
    static void firstSent(const G&, GateOwner&, double) {}
    template <class G>
    static bool refuses(const G&, GateOwner&, const RetryAsk&) {
        return false;
    }
    template <class G>
    static void pay(const G&, GateOwner&, RetryAsk&) {}
    template <class G>
    static void succeeded(const G&, GateOwner&, const Received&) {}
    template <class G>
    static void failed(const G&, GateOwner&, const Received&) {}
    static std::optional<double> tokens(const GateOwner&) { return std::nullopt; }
};

// The quota (aws-sdk-go-v2's retry quota): a retry costs retryCost (timeoutCost after a timeout);
// a success gives back the last cost, or the increment if the call paid none (§7.1's
// CostAndIncrement: both).
struct Quota : NoHooks {
    static const std::optional<QuotaGate>& config(const Gates& g) { return g.quota; }
    static const std::optional<int>& layer(const Gates& g) { return g.layer.quota; }
    static constexpr EndReason refusal = EndReason::GateQuota;
    static double cost(const QuotaGate& g, const RetryAsk& a) { return a.afterTimeout ? g.timeoutCost : g.retryCost; }
    static void fill(const QuotaGate& g, GateOwner& o) { o.quota = g.capacity; }
    static bool refuses(const QuotaGate& g, GateOwner& o, const RetryAsk& a) { return o.quota < cost(g, a); }
    static void pay(const QuotaGate& g, GateOwner& o, RetryAsk& a) {
        a.quotaPaid = cost(g, a);
        o.quota -= *a.quotaPaid;
    }
    static void succeeded(const QuotaGate& g, GateOwner& o, const Received& r) {
        double level = o.quota + (r.lastCost ? *r.lastCost : g.successIncrement);
        if (r.lastCost && g.refund == QuotaRefund::CostAndIncrement) level = level + g.successIncrement;
        o.quota = std::min(g.capacity, level);
    }
    static std::optional<double> tokens(const GateOwner& o) { return o.quota; }
};

// The token bucket (Brooker's): a deposit at each first attempt sent (or each success), a retry
// takes `cost` when the level allows it.
struct Bucket : NoHooks {
    static const std::optional<BucketGate>& config(const Gates& g) { return g.bucket; }
    static const std::optional<int>& layer(const Gates& g) { return g.layer.bucket; }
    static constexpr EndReason refusal = EndReason::GateBucket;
    static void deposit(const BucketGate& g, GateOwner& o) { o.bucket = std::min(g.capacity, o.bucket + g.deposit); }
    static void fill(const BucketGate& g, GateOwner& o) { o.bucket = g.capacity; }
    static void firstSent(const BucketGate& g, GateOwner& o, double) {
        if (g.depositOn == BucketDeposit::FirstAttempt) deposit(g, o);
    }
    static bool refuses(const BucketGate& g, GateOwner& o, const RetryAsk&) {
        return !(g.allowWhen == BucketAllow::AtLeastCost ? o.bucket >= g.cost : o.bucket > g.cost);
    }
    static void pay(const BucketGate& g, GateOwner& o, RetryAsk&) { o.bucket -= g.cost; }
    static void succeeded(const BucketGate& g, GateOwner& o, const Received&) {
        if (g.depositOn == BucketDeposit::Success) deposit(g, o);
    }
    static std::optional<double> tokens(const GateOwner& o) { return o.bucket; }
};

// gRPC's retry throttle (A6): a failure takes a token (every failure, or with countFailures
// "retryable" one rule 1 retries), a success gives tokenRatio; a retry needs more than half.
struct Throttle : NoHooks {
    static const std::optional<ThrottleGate>& config(const Gates& g) { return g.throttle; }
    static const std::optional<int>& layer(const Gates& g) { return g.layer.throttle; }
    static constexpr EndReason refusal = EndReason::GateThrottle;
    static void fill(const ThrottleGate& g, GateOwner& o) { o.throttle = g.maxTokens; }
    static bool refuses(const ThrottleGate& g, GateOwner& o, const RetryAsk&) {
        return !(o.throttle > g.maxTokens / 2);
    }
    static void succeeded(const ThrottleGate& g, GateOwner& o, const Received&) {
        o.throttle = std::min(g.maxTokens, o.throttle + g.tokenRatio);
    }
    static void failed(const ThrottleGate& g, GateOwner& o, const Received& r) {
        if (g.countFailures == ThrottleCount::All || r.retryable) o.throttle = std::max(0.0, o.throttle - 1);
    }
    static std::optional<double> tokens(const GateOwner& o) { return o.throttle; }
};

// Finagle's retry budget: retries in the last ttlMs below percent of the first attempts plus
// minPerSecond's allowance.
struct Budget : NoHooks {
    static const std::optional<BudgetGate>& config(const Gates& g) { return g.budget; }
    static const std::optional<int>& layer(const Gates& g) { return g.layer.budget; }
    static constexpr EndReason refusal = EndReason::GateBudget;
    static void firstSent(const BudgetGate&, GateOwner& o, double t) { o.budgetFirsts.push(t); }
    static bool refuses(const BudgetGate& g, GateOwner& o, const RetryAsk& a) {
        const double after = a.t - g.ttlMs;
        const auto retries = static_cast<double>(o.budgetRetries.countAfter(after));
        const auto firsts = static_cast<double>(o.budgetFirsts.countAfter(after));
        return !(100 * retries < g.percent * firsts + g.minPerSecond * g.ttlMs / 10);
    }
    static void pay(const BudgetGate&, GateOwner& o, RetryAsk& a) { o.budgetRetries.push(a.t); }
};

// The count-based circuit breaker: closed over a ring of the last `window` outcomes, open for
// openMs, then half-open for halfOpenCalls. An outcome counts only in the period its attempt was
// sent in.
struct BreakerRule : NoHooks {
    static const std::optional<BreakerGate>& config(const Gates& g) { return g.breaker; }
    static const std::optional<int>& layer(const Gates& g) { return g.layer.breaker; }
    static constexpr EndReason refusal = EndReason::CircuitOpen;
    static bool admits(const BreakerGate& g, GateOwner& o, double t, std::uint32_t& period) {
        Breaker& b = o.breaker;
        if (b.state == Breaker::State::Open) {
            if (!(t >= b.openedAt + g.openMs)) return false;
            b.state = Breaker::State::HalfOpen;
            ++b.period;
            b.halfSent = b.halfIn = b.halfFailures = 0;
        }
        if (b.state == Breaker::State::HalfOpen) {
            if (b.halfSent >= g.halfOpenCalls) return false;
            ++b.halfSent;
        }
        period = b.period;
        return true;
    }
    static void succeeded(const BreakerGate& g, GateOwner& o, const Received& r) { record(g, o.breaker, r, false); }
    static void failed(const BreakerGate& g, GateOwner& o, const Received& r) { record(g, o.breaker, r, true); }

private:
    // A new period with an empty window: open (from t) or closed.
    static void restart(Breaker& b, bool open, double t) {
        b.state = open ? Breaker::State::Open : Breaker::State::Closed;
        if (open) b.openedAt = t;
        ++b.period;
        b.ring.clear();
        b.head = 0;
        b.failures = 0;
    }
    static void record(const BreakerGate& g, Breaker& b, const Received& r, bool failure) {
        if (r.period != b.period) return;
        if (b.state == Breaker::State::Closed) {
            if (b.ring.size() < g.window) {
                b.ring.push_back(failure);
            } else {
                b.failures -= b.ring[b.head];
                b.ring[b.head] = failure;
                b.head = (b.head + 1) % b.ring.size();
            }
            b.failures += failure;
            const auto count = static_cast<double>(b.ring.size());
            if (b.ring.size() >= g.minCalls && static_cast<double>(b.failures) * 100 >= g.failurePercent * count)
                restart(b, true, r.t);
            return;
        }
        if (b.state != Breaker::State::HalfOpen) return;
        ++b.halfIn;
        b.halfFailures += failure;
        if (b.halfIn < g.halfOpenCalls) return;
        restart(b, static_cast<double>(b.halfFailures) * 100 >= g.failurePercent * g.halfOpenCalls, r.t);
    }
};

template <class... Gate>
struct GateList {};

// The gates in FLEET §4 rule 4's order (a retry asks quota, bucket, throttle, budget; the first
// refusal ends the call), the breaker last; FLEET §8's `tokens` is the first fleet-scoped level.
using AllGates = GateList<Quota, Bucket, Throttle, Budget, BreakerRule>;

// The request's gates over `layers` layers (1 for FLEET's one-layer run), each acting on its own
// layer (docs/layers.md §9.3: none is the bottom), with their owners' state.
class GateSet {
public:
    GateSet(const Gates& g, std::uint32_t clients, std::size_t layers) : g_(g) {
        bool perClient = false;
        std::size_t i = 0;
        forEach(AllGates{}, [&](auto gate) {
            using G = decltype(gate);
            const auto& c = G::config(g);
            acts_[i++] = G::layer(g) ? static_cast<std::size_t>(*G::layer(g) - 1) : layers - 1;
            if (c && c->scope == GateScope::Client) perClient = true;
        });
        owners_.resize(perClient ? clients + 1 : 1);
        for (GateOwner& o : owners_)
            forEach(AllGates{}, [&](auto gate) {
                using G = decltype(gate);
                if (const auto& c = G::config(g)) G::fill(*c, o);
            });
    }

    // Before a send on `layer`: the breaker (false: refused, circuit-open); `period` is the
    // breaker period the attempt is sent in (0 with none).
    bool admits(std::size_t layer, std::uint32_t client, double t, std::uint32_t& period) {
        bool admitted = true;
        on(layer, client, [&](auto gate, const auto& c, GateOwner& o) {
            admitted = admitted && decltype(gate)::admits(c, o, t, period);
        });
        return admitted;
    }
    // A call's first attempt sent on `layer`: the bucket's deposit, the budget's first attempt.
    void firstSent(std::size_t layer, std::uint32_t client, double t) {
        on(layer, client, [&](auto gate, const auto& c, GateOwner& o) { decltype(gate)::firstSent(c, o, t); });
    }
    // FLEET §4 rule 4 for a retry on `layer` (and a hedged copy): the first refusal's reason; or,
    // when none refuses, each gate's cost paid (`ask.quotaPaid` says the quota's) and nothing.
    std::optional<EndReason> askRetry(std::size_t layer, std::uint32_t client, RetryAsk& ask) {
        std::optional<EndReason> refused;
        on(layer, client, [&](auto gate, const auto& c, GateOwner& o) {
            using G = decltype(gate);
            if (!refused && G::refuses(c, o, ask)) refused = G::refusal;
        });
        if (refused) return refused;
        on(layer, client, [&](auto gate, const auto& c, GateOwner& o) { decltype(gate)::pay(c, o, ask); });
        return std::nullopt;
    }
    // A success the layer received; a failure it received (a timeout at its cutoff included).
    void succeeded(std::size_t layer, std::uint32_t client, const Received& r) {
        on(layer, client, [&](auto gate, const auto& c, GateOwner& o) { decltype(gate)::succeeded(c, o, r); });
    }
    void failed(std::size_t layer, std::uint32_t client, const Received& r) {
        on(layer, client, [&](auto gate, const auto& c, GateOwner& o) { decltype(gate)::failed(c, o, r); });
    }
    // FLEET §8's `tokens`: the first fleet-scoped gate with a level (quota, bucket, throttle).
    std::optional<double> fleetTokens() const {
        std::optional<double> out;
        forEach(AllGates{}, [&](auto gate) {
            using G = decltype(gate);
            const auto& c = G::config(g_);
            if (!out && c && c->scope == GateScope::Fleet) out = G::tokens(owners_[0]);
        });
        return out;
    }

private:
    template <class... G, class F>
    static void forEach(GateList<G...>, F&& f) {
        (f(G{}), ...);
    }
    // f(gate, its configuration, its owner) for each gate configured on `layer`, in AllGates' order.
    template <class F>
    void on(std::size_t layer, std::uint32_t client, F&& f) {
        std::size_t i = 0;
        forEach(AllGates{}, [&](auto gate) {
            using G = decltype(gate);
            const auto& c = G::config(g_);
            if (c && acts_[i] == layer) f(gate, *c, owners_[c->scope == GateScope::Fleet ? 0 : client + 1]);
            ++i;
        });
    }

    const Gates& g_;
    std::size_t acts_[5] = {};
    std::vector<GateOwner> owners_;
};

}  // namespace gates
}  // namespace retrylab
