// docs/layers.md §9: the stack of layers in the fleet. Every expected number is §9.5's, worked by
// hand from the rules (the page gives the working); none was read off the engine. The relations
// (one layer is FLEET.md's run, the mean attempts per request) hold on every input they name.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "fleet_layers.hpp"
#include "fleet_support.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

// The object with `key` set to `value` (Value::set adds a member; this replaces one).
Value with(const Value& object, const char* key, Value value) {
    Value out = Value::object();
    for (const Value::Member& m : object.asObject())
        if (m.key != key) out.set(m.key, m.value);
    out.set(key, std::move(value));
    return out;
}

Value layerOf(std::initializer_list<std::pair<const char*, Value>> members) {
    Value v = Value::object();
    for (const auto& m : members) v.set(m.first, m.second);
    return v;
}

// §9.5's "unless said": one client, once, no trigger, legs of 5 ms, service of 50 ms, every
// attempt failing; the layers given (each with baseBackoffMs 0 and no timeouts) and their retries.
Value failingStack(std::vector<Value> layers) {
    Value list = Value::array();
    for (Value& l : layers) {
        l.set("baseBackoffMs", Value::number(0));
        l.set("clientTimeoutMs", Value::number(60000));
        list.push(std::move(l));
    }
    Value server = Value::object();
    server.set("serviceMs", Value::number(50));
    server.set("failureRate", Value::number(1));
    Value network = Value::object();
    network.set("dist", Value::string("fixed"));
    network.set("ms", Value::number(5));
    Value policy = Value::object();
    policy.set("layers", std::move(list));
    Value r = Value::object();
    r.set("clients", Value::number(1));
    r.set("arrivals", Value::string("once"));
    r.set("trigger", Value::null());
    r.set("network", std::move(network));
    r.set("server", std::move(server));
    r.set("policy", std::move(policy));
    return r;
}

std::vector<Value> retriesEach(std::initializer_list<int> retries) {
    std::vector<Value> out;
    for (int m : retries) out.push_back(layerOf({{"maxRetries", Value::number(m)}}));
    return out;
}

Value runFleet(const Value& request) {
    Value r = fleet(request);
    const Value* errors = r.find("errors");
    INFO("errors: " << (errors && errors->asArray().size() ? errors->asArray()[0].find("message")->asString() : ""));
    REQUIRE(r.find("ok")->asBool());
    return r;
}

const Value& totals(const Value& r) { return *r.find("totals"); }
double total(const Value& r, const char* name) { return totals(r).find(name)->asNumber(); }
double failed(const Value& r, const char* reason) { return totals(r).find("failed")->find(reason)->asNumber(); }
std::vector<double> layerColumn(const Value& r, const char* name) {
    std::vector<double> out;
    for (const Value& row : totals(r).find("layers")->asArray()) out.push_back(row.find(name)->asNumber());
    return out;
}

// The times the bottom attempts reach the server (FLEET §6 kind 2: only bottom attempts arrive).
std::vector<double> arrivals(const Value& request) {
    const FleetParsed parsed = parseFleetRequest(request);
    REQUIRE(parsed.request);
    FleetTrace trace;
    simulateService(*parsed.request, &trace);
    std::vector<double> out;
    for (const FleetTraceEvent& e : trace.events)
        if (e.kind == 2) out.push_back(e.tMs);
    return out;
}

Value withGate(Value request, const char* gate, Value config) {
    Value gates = Value::object();
    gates.set(gate, std::move(config));
    return with(request, "gates", std::move(gates));
}

Value quota(std::optional<int> layer) {
    Value q = Value::object();
    q.set("capacity", Value::number(10));
    q.set("retryCost", Value::number(5));
    if (layer) q.set("layer", Value::number(*layer));
    return q;
}

}  // namespace

TEST_CASE(
    "layers fleet §9.5: three layers of four attempts make 64 bottom attempts, 60 ms apart, the last answer at "
    "3,840 ms",
    "[layers-fleet]") {
    const Value request = failingStack(retriesEach({3, 3, 3}));
    const Value r = runFleet(request);
    CHECK(total(r, "attempts") == 64);
    CHECK(total(r, "firstAttempts") == 16);  // one per bottom call
    CHECK(total(r, "retries") == 48);
    CHECK(total(r, "attemptsPerRequest") == 64);
    CHECK(failed(r, "attempt-limit") == 1);
    CHECK(total(r, "endMs") == 3840);
    CHECK(layerColumn(r, "calls") == std::vector<double>{1, 4, 16});
    CHECK(layerColumn(r, "attempts") == std::vector<double>{4, 16, 64});
    CHECK(layerColumn(r, "retries") == std::vector<double>{3, 12, 48});
    std::vector<double> expected;
    for (int m = 1; m <= 64; ++m) expected.push_back(60.0 * (m - 1) + 5);  // sent at 60 × (m − 1), 5 ms out
    CHECK(arrivals(request) == expected);
    // Every bin's layerAttempts: each layer's attempts sent in it.
    const Value& bins = *r.find("timeline")->find("bins");
    double bottom = 0, top = 0;
    for (const Value& b : bins.asArray()) {
        const Value::Array& each = b.find("layerAttempts")->asArray();
        REQUIRE(each.size() == 3);
        CHECK(each[2].asNumber() == b.find("firstAttempts")->asNumber() + b.find("retries")->asNumber());
        bottom += each[2].asNumber();
        top += each[0].asNumber();
    }
    CHECK(bottom == 64);
    CHECK(top == 4);
    // Bin 0 holds the sends at 0 … 960 (m = 1 … 17): bottom attempts 17; layer 1's attempts 1
    // (at 0) and 2 (at 960, when its first call's 16 bottom attempts are done); layer 2's at 0,
    // 240, 480, 720 and 960: 5.
    const Value::Array& first = bins.asArray()[0].find("layerAttempts")->asArray();
    CHECK(first[0].asNumber() == 2);
    CHECK(first[1].asNumber() == 5);
    CHECK(first[2].asNumber() == 17);
}

TEST_CASE("layers fleet §9.5: five layers of three attempts make 3^5 = 243 bottom attempts", "[layers-fleet]") {
    const Value r = runFleet(failingStack(retriesEach({2, 2, 2, 2, 2})));
    CHECK(total(r, "attempts") == 243);
    CHECK(total(r, "attemptsPerRequest") == 243);
    CHECK(total(r, "endMs") == 243 * 60);
    CHECK(layerColumn(r, "calls") == std::vector<double>{1, 3, 9, 27, 81});
}

TEST_CASE("layers fleet §9.5: a do-not-retry give-up at the bottom stops every layer above: 4 bottom attempts",
          "[layers-fleet]") {
    std::vector<Value> layers = retriesEach({3, 3, 3});
    layers[2].set("giveUp", Value::string("do-not-retry"));
    const Value r = runFleet(failingStack(std::move(layers)));
    CHECK(total(r, "attempts") == 4);
    CHECK(total(r, "attemptsPerRequest") == 4);
    CHECK(failed(r, "not-retryable") == 1);
    CHECK(failed(r, "attempt-limit") == 0);
    CHECK(total(r, "endMs") == 240);
    CHECK(layerColumn(r, "attempts") == std::vector<double>{1, 1, 4});
}

TEST_CASE("layers fleet §9.5: a quota gate acts on the retries of its own layer only", "[layers-fleet]") {
    const Value stack = failingStack(retriesEach({3, 3, 3}));
    SECTION("on the bottom (layer null): 3 + 15 × 1 = 18 bottom attempts, the request at its own attempt limit") {
        const Value r = runFleet(withGate(stack, "quota", quota(std::nullopt)));
        CHECK(total(r, "attempts") == 18);
        CHECK(layerColumn(r, "attempts") == std::vector<double>{4, 16, 18});
        CHECK(layerColumn(r, "retries") == std::vector<double>{3, 12, 2});
        CHECK(failed(r, "attempt-limit") == 1);
        CHECK(failed(r, "gate-quota") == 0);
    }
    SECTION("on layer 2: 12 + 3 × 4 = 24 bottom attempts") {
        const Value r = runFleet(withGate(stack, "quota", quota(2)));
        CHECK(total(r, "attempts") == 24);
        CHECK(layerColumn(r, "attempts") == std::vector<double>{4, 6, 24});
        CHECK(failed(r, "attempt-limit") == 1);
    }
    SECTION("on layer 1: 3 × 16 = 48 bottom attempts, the request refused by the gate") {
        const Value r = runFleet(withGate(stack, "quota", quota(1)));
        CHECK(total(r, "attempts") == 48);
        CHECK(layerColumn(r, "attempts") == std::vector<double>{3, 12, 48});
        CHECK(failed(r, "gate-quota") == 1);
    }
}

namespace {

// §9.5's orphan figure: answers take 800 ms (5 + 790 + 5), every one a 500; an agent that waits
// 1,000 ms per attempt over an SDK that waits 3,000 and backs off from `sdkBackoffMs`.
Value agentOverSdk(const char* cancel, double sdkBackoffMs) {
    Value agent = layerOf(
        {{"name", Value::string("agent")}, {"maxRetries", Value::number(1)}, {"cancel", Value::string(cancel)}});
    Value sdk = layerOf({{"name", Value::string("SDK")}, {"maxRetries", Value::number(2)}});
    Value request = failingStack({agent, sdk});
    Value layers = Value::array();
    Value a = with(with(agent, "baseBackoffMs", Value::number(0)), "clientTimeoutMs", Value::number(1000));
    Value b = with(with(sdk, "baseBackoffMs", Value::number(sdkBackoffMs)), "clientTimeoutMs", Value::number(3000));
    layers.push(std::move(a));
    layers.push(std::move(b));
    Value policy = Value::object();
    policy.set("layers", std::move(layers));
    Value server = Value::object();
    server.set("serviceMs", Value::number(790));
    server.set("failureRate", Value::number(1));
    return with(with(request, "policy", std::move(policy)), "server", std::move(server));
}

}  // namespace

TEST_CASE(
    "layers fleet §9.5: orphaned calls run on after the request has ended; cancelled ones stop, their answers "
    "late",
    "[layers-fleet]") {
    SECTION("orphan: 6 bottom attempts, the request attempt-limit at 2,000, the orphans' last answer at 4,900") {
        const Value r = runFleet(agentOverSdk("orphan", 500));
        CHECK(total(r, "attempts") == 6);
        CHECK(failed(r, "attempt-limit") == 1);
        CHECK(total(r, "endMs") == 4900);
        CHECK(total(r, "late") == 0);
        CHECK(layerColumn(r, "calls") == std::vector<double>{1, 2});
        CHECK(layerColumn(r, "attempts") == std::vector<double>{2, 6});
        CHECK(layerColumn(r, "orphaned") == std::vector<double>{0, 2});
        CHECK(layerColumn(r, "cancelled") == std::vector<double>{0, 0});
    }
    SECTION("propagate: the waits to 1,300 and 2,300 abandoned: 2 bottom attempts, endMs 2,000") {
        const Value r = runFleet(agentOverSdk("propagate", 500));
        CHECK(total(r, "attempts") == 2);
        CHECK(failed(r, "attempt-limit") == 1);
        CHECK(total(r, "endMs") == 2000);
        CHECK(layerColumn(r, "cancelled") == std::vector<double>{0, 2});
        CHECK(layerColumn(r, "orphaned") == std::vector<double>{0, 0});
    }
    SECTION("propagate, the SDK retrying at once: attempts 1.2 and 2.2 in flight when cancelled, answered late") {
        const Value r = runFleet(agentOverSdk("propagate", 0));
        CHECK(total(r, "attempts") == 4);
        CHECK(total(r, "late") == 2);
        CHECK(total(r, "wastedServiceMs") == 1580);
        CHECK(total(r, "endMs") == 2600);
    }
}

namespace {

// §9.5's orphan that keeps retrying: every bottom answer a 500 at s + 60; an agent that leaves its
// call after `agentTimeoutMs` over an SDK that waits `sdkTimeoutMs` per attempt over an HTTP library.
Value orphanRetrying(double agentTimeoutMs, double sdkTimeoutMs) {
    Value request = failingStack({layerOf({{"name", Value::string("agent")}, {"maxRetries", Value::number(0)}}),
                                  layerOf({{"name", Value::string("SDK")}, {"maxRetries", Value::number(2)}}),
                                  layerOf({{"name", Value::string("HTTP")}, {"maxRetries", Value::number(1)}})});
    Value layers = Value::array();
    const Value& given = *request.find("policy")->find("layers");
    layers.push(with(with(given.asArray()[0], "clientTimeoutMs", Value::number(agentTimeoutMs)), "cancel",
                     Value::string("orphan")));
    layers.push(with(given.asArray()[1], "clientTimeoutMs", Value::number(sdkTimeoutMs)));
    layers.push(given.asArray()[2]);
    Value policy = Value::object();
    policy.set("layers", std::move(layers));
    return with(request, "policy", std::move(policy));
}

}  // namespace

TEST_CASE("layers fleet §9.5: an orphan keeps retrying on its own calls' results; only its own result is dropped",
          "[layers-fleet]") {
    const Value r = runFleet(orphanRetrying(100, 1000));
    CHECK(total(r, "attempts") == 6);
    CHECK(failed(r, "attempt-limit") == 1);
    CHECK(total(r, "endMs") == 360);
    CHECK(total(r, "late") == 0);
    CHECK(layerColumn(r, "calls") == std::vector<double>{1, 1, 3});
    CHECK(layerColumn(r, "attempts") == std::vector<double>{1, 3, 6});
    CHECK(layerColumn(r, "retries") == std::vector<double>{0, 2, 3});
    CHECK(layerColumn(r, "orphaned") == std::vector<double>{0, 1, 3});
    CHECK(layerColumn(r, "cancelled") == std::vector<double>{0, 0, 0});
    CHECK(arrivals(orphanRetrying(100, 1000)) == std::vector<double>{5, 65, 125, 185, 245, 305});
}

TEST_CASE("layers fleet §9.5: an orphan's own cutoffs cancel its calls below by its own layer's cancel",
          "[layers-fleet]") {
    const Value r = runFleet(orphanRetrying(50, 90));
    CHECK(total(r, "attempts") == 6);
    CHECK(failed(r, "attempt-limit") == 1);
    CHECK(total(r, "late") == 3);
    CHECK(total(r, "wastedServiceMs") == 150);
    CHECK(total(r, "endMs") == 300);
    CHECK(layerColumn(r, "cancelled") == std::vector<double>{0, 0, 3});
    CHECK(layerColumn(r, "orphaned") == std::vector<double>{0, 1, 3});
    CHECK(arrivals(orphanRetrying(50, 90)) == std::vector<double>{5, 65, 95, 155, 185, 245});
}

TEST_CASE(
    "layers fleet §9.5: mean bottom attempts per request within 2 % of (1 − p^ΠN) / (1 − p) over 10,000 "
    "requests",
    "[layers-fleet]") {
    for (double p : {0.5, 0.9, 0.99}) {
        Value request = failingStack(retriesEach({3, 1, 2}));  // ΠN = 4 × 2 × 3 = 24
        request = with(request, "clients", Value::number(10000));
        Value server = Value::object();
        server.set("workers", Value::null());
        server.set("serviceMs", Value::number(50));
        server.set("failureRate", Value::number(p));
        request = with(request, "server", std::move(server));
        const Value r = runFleet(request);
        const double expected = (1 - std::pow(p, 24)) / (1 - p);
        INFO("p = " << p << ", expected " << expected << ", got " << total(r, "attemptsPerRequest"));
        CHECK(total(r, "requests") == 10000);
        CHECK(std::fabs(total(r, "attemptsPerRequest") - expected) <= 0.02 * expected);
        CHECK(total(r, "late") == 0);
        CHECK(total(r, "succeeded") + failed(r, "attempt-limit") == 10000);
    }
}

namespace {

// FLEET.md's request with the policy's own one layer made explicit (policy.layers [{}]).
FleetRequest oneLayer(FleetRequest r) {
    FleetLayer l;
    l.name = "layer 1";
    l.policy = r.policy;
    l.key = r.idempotencyKey ? LayerKey::Mint : LayerKey::None;
    r.policy.layers = {l};
    return r;
}

void sameRun(const ServiceResult& a, const ServiceResult& b) {
    const ServiceTotals &x = a.totals, &y = b.totals;
    CHECK(x.requests == y.requests);
    CHECK(x.succeeded == y.succeeded);
    for (int i = 0; i < kEndReasons; ++i) CHECK(x.failed[i] == y.failed[i]);
    CHECK(x.attempts == y.attempts);
    CHECK(x.firstAttempts == y.firstAttempts);
    CHECK(x.retries == y.retries);
    CHECK(x.served == y.served);
    CHECK(x.cancelled == y.cancelled);
    CHECK(x.shed == y.shed);
    CHECK(x.outageRejected == y.outageRejected);
    CHECK(x.late == y.late);
    CHECK(x.wastedServiceMs == y.wastedServiceMs);
    CHECK(x.charges == y.charges);
    CHECK(x.replays == y.replays);
    CHECK(x.duplicateCharges == y.duplicateCharges);
    CHECK(x.endMs == y.endMs);
    CHECK(x.latencyMs.has_value() == y.latencyMs.has_value());
    if (x.latencyMs && y.latencyMs) {
        CHECK(x.latencyMs->p50 == y.latencyMs->p50);
        CHECK(x.latencyMs->p99 == y.latencyMs->p99);
        CHECK(x.latencyMs->max == y.latencyMs->max);
    }
    REQUIRE(a.bins.size() == b.bins.size());
    for (std::size_t i = 0; i < a.bins.size(); ++i) {
        const ServiceBin &p = a.bins[i], &q = b.bins[i];
        INFO("bin " << i);
        CHECK(p.created == q.created);
        CHECK(p.firstAttempts == q.firstAttempts);
        CHECK(p.retries == q.retries);
        CHECK(p.succeeded == q.succeeded);
        CHECK(p.failed == q.failed);
        CHECK(p.timeouts == q.timeouts);
        CHECK(p.shed == q.shed);
        CHECK(p.outageRejected == q.outageRejected);
        CHECK(p.served == q.served);
        CHECK(p.late == q.late);
        CHECK(p.queue == q.queue);
        CHECK(p.inService == q.inService);
        CHECK(p.tokens == q.tokens);
    }
    CHECK(a.recovery.has_value() == b.recovery.has_value());
    if (a.recovery && b.recovery) {
        CHECK(a.recovery->recoveredAtMs == b.recovery->recoveredAtMs);
        CHECK(a.recovery->metastable == b.recovery->metastable);
    }
}

}  // namespace

TEST_CASE("layers fleet: one layer is FLEET.md's run on generated requests, every gate and arrival", "[layers-fleet]") {
    std::uint64_t state = 33;
    auto next = [&state](std::uint64_t n) {  // a small deterministic generator for the choices
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
    };
    for (int i = 0; i < 40; ++i) {
        FleetRequest r = quietFleet();
        r.seed = next(1000);
        r.clients = static_cast<std::uint32_t>(1 + next(30));
        r.arrivals = static_cast<Arrivals>(next(4));
        r.ratePerClient = 1 + static_cast<double>(next(20));
        r.durationMs = 2000 + static_cast<double>(next(8000));
        r.server.workers = static_cast<std::uint32_t>(1 + next(8));
        if (next(3) == 0) r.server.queueLimit = static_cast<std::uint32_t>(next(20));
        r.server.queueOrder = next(2) ? QueueOrder::Lifo : QueueOrder::Fifo;
        r.server.failureRate = static_cast<double>(next(5)) / 10;
        r.server.dropStale = static_cast<DropStale>(next(3));
        if (next(2)) r.server.rejectRetryAfterMs = static_cast<double>(next(300));
        if (next(2)) r.trigger = Trigger{next(2) ? TriggerKind::Outage : TriggerKind::Slowdown, 1000, 3000, 3};
        r.network.dist = static_cast<NetworkDist>(next(4));
        r.network.ms = 5;
        r.network.lo = 1;
        r.network.hi = 30;
        r.network.mean = 10;
        r.network.sd = 3;
        r.policy.maxRetries = static_cast<int>(next(5));
        r.policy.jitter = static_cast<Jitter>(next(4));
        r.policy.clientTimeoutMs = 50 + static_cast<double>(next(400));
        if (next(2)) r.policy.deadlineMs = 200 + static_cast<double>(next(2000));
        r.idempotencyKey = next(2);
        if (next(2)) r.gates.quota = QuotaGate{next(2) ? GateScope::Fleet : GateScope::Client, 20, 5, 10, 1};
        if (next(2)) r.gates.bucket = BucketGate{next(2) ? GateScope::Fleet : GateScope::Client, 5, 0.1, 1};
        if (next(2)) r.gates.throttle = ThrottleGate{next(2) ? GateScope::Fleet : GateScope::Client, 10, 0.1};
        if (next(2)) r.gates.budget = BudgetGate{next(2) ? GateScope::Fleet : GateScope::Client, 20, 2, 1000};
        if (next(2)) r.gates.breaker = BreakerGate{next(2) ? GateScope::Fleet : GateScope::Client, 20, 10, 50, 500, 3};
        r.binMs = 250;
        INFO("request " << i);
        const ServiceResult plain = simulateService(r);
        const ServiceResult layered = simulateService(oneLayer(r));
        sameRun(plain, layered);
        CHECK(layered.totals.layers.size() == 1);
        CHECK(layered.totals.layers[0].attempts == layered.totals.attempts);
    }
}

namespace {

// The stack's own members (§9.2) alike too.
void sameStack(const ServiceResult& a, const ServiceResult& b) {
    sameRun(a, b);
    REQUIRE(a.totals.layers.size() == b.totals.layers.size());
    for (std::size_t i = 0; i < a.totals.layers.size(); ++i) {
        const ServiceTotals::LayerRow &x = a.totals.layers[i], &y = b.totals.layers[i];
        INFO("layer " << i + 1);
        CHECK(x.calls == y.calls);
        CHECK(x.attempts == y.attempts);
        CHECK(x.retries == y.retries);
        CHECK(x.cancelled == y.cancelled);
        CHECK(x.orphaned == y.orphaned);
    }
    for (std::size_t i = 0; i < a.bins.size() && i < b.bins.size(); ++i)
        CHECK(a.bins[i].layerAttempts == b.bins[i].layerAttempts);
}

}  // namespace

// §4.5 and §9: a call's record is the engine's bookkeeping; when it is released and its slot
// given to another call must change nothing. Stacks of 2–4 layers, orphaning and cancelling
// layers mixed, timeouts short enough that orphans retry while their calls below end, gates on
// any layer: each run with released records reused and with every record new.
TEST_CASE("layers fleet: no result depends on when a call's record is released", "[layers-fleet]") {
    std::uint64_t state = 4533;
    auto next = [&state](std::uint64_t n) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return (state >> 33) % n;
    };
    for (int i = 0; i < 60; ++i) {
        FleetRequest r = quietFleet();
        r.seed = next(1000);
        r.clients = static_cast<std::uint32_t>(1 + next(12));
        r.arrivals = static_cast<Arrivals>(next(4));
        r.ratePerClient = 2 + static_cast<double>(next(10));
        r.durationMs = 1000 + static_cast<double>(next(3000));
        r.server.workers = static_cast<std::uint32_t>(1 + next(6));
        r.server.serviceMs = 10 + static_cast<double>(next(60));
        r.server.failureRate = static_cast<double>(next(8)) / 10;
        r.network.dist = static_cast<NetworkDist>(next(4));
        r.network.ms = 5;
        r.network.lo = 1;
        r.network.hi = 30;
        r.network.mean = 10;
        r.network.sd = 3;
        r.idempotencyKey = next(2);
        const std::size_t k = 2 + next(3);
        for (std::size_t j = 0; j < k; ++j) {
            FleetLayer l;
            l.name = "layer " + std::to_string(j + 1);
            l.policy = r.policy;
            l.policy.maxRetries = static_cast<int>(next(3));
            l.policy.baseBackoffMs = static_cast<double>(next(3) * 20);
            l.policy.jitter = static_cast<Jitter>(next(4));
            // Cutoffs about as long as one bottom attempt or a few, so upper layers leave calls
            // that are still running and those calls' own calls below end while they run on.
            l.policy.clientTimeoutMs = 30 + static_cast<double>(next(300));
            if (next(4) == 0) l.policy.deadlineMs = 300 + static_cast<double>(next(1500));
            l.key = j == 0 ? (r.idempotencyKey ? LayerKey::Mint : LayerKey::None) : static_cast<LayerKey>(next(3));
            l.giveUp = next(4) == 0 ? GiveUp::DoNotRetry : GiveUp::LastFailure;
            l.cancel = next(3) == 0 ? Cancel::Propagate : Cancel::Orphan;
            l.inheritDeadline = next(3) == 0;
            l.deadlineMarginMs = static_cast<double>(next(3) * 10);
            r.policy.layers.push_back(l);
        }
        auto gateLayer = [&]() -> std::optional<int> {
            const std::uint64_t at = next(k + 1);
            return at == 0 ? std::nullopt : std::optional<int>(static_cast<int>(at));
        };
        if (next(3) == 0) r.gates.quota = QuotaGate{next(2) ? GateScope::Fleet : GateScope::Client, 20, 5, 10, 1};
        if (next(3) == 0) r.gates.bucket = BucketGate{next(2) ? GateScope::Fleet : GateScope::Client, 5, 0.1, 1};
        if (next(3) == 0) r.gates.throttle = ThrottleGate{next(2) ? GateScope::Fleet : GateScope::Client, 10, 0.1};
        if (next(3) == 0) r.gates.budget = BudgetGate{next(2) ? GateScope::Fleet : GateScope::Client, 20, 2, 1000};
        if (next(3) == 0)
            r.gates.breaker = BreakerGate{next(2) ? GateScope::Fleet : GateScope::Client, 20, 10, 50, 500, 3};
        r.gates.layer.quota = gateLayer();
        r.gates.layer.bucket = gateLayer();
        r.gates.layer.throttle = gateLayer();
        r.gates.layer.budget = gateLayer();
        r.gates.layer.breaker = gateLayer();
        r.binMs = 100;
        INFO("request " << i);
        sameStack(simulateLayeredService(r, nullptr, nullptr, RecordReuse::Reuse),
                  simulateLayeredService(r, nullptr, nullptr, RecordReuse::Fresh));
    }
}

TEST_CASE("layers fleet: policy.layers is a row of the fleet table, echoed only when given", "[layers-fleet]") {
    Value plain = Value::object();
    plain.set("clients", Value::number(3));
    const Value r = runFleet(plain);
    CHECK(r.find("request")->find("policy")->find("layers") == nullptr);
    CHECK(r.find("totals")->find("layers") == nullptr);
    CHECK(r.find("totals")->find("attemptsPerRequest") == nullptr);
    CHECK(r.find("timeline")->find("bins")->asArray()[0].find("layerAttempts") == nullptr);

    const Value stack = with(failingStack({layerOf({{"name", Value::string("agent")}}), layerOf({})}), "idempotencyKey",
                             Value::boolean(true));
    const Value s = runFleet(stack);
    const Value::Array& echoed = s.find("request")->find("policy")->find("layers")->asArray();
    REQUIRE(echoed.size() == 2);
    CHECK(echoed[0].find("name")->asString() == "agent");
    CHECK(echoed[1].find("name")->asString() == "layer 2");
    CHECK(echoed[0].find("key")->asString() == "mint");
    CHECK(echoed[1].find("key")->asString() == "pass");
    CHECK(echoed[1].find("maxRetries")->asNumber() == 3);  // the policy's
    CHECK(echoed[1].find("giveUp")->asString() == "last-failure");
    CHECK(totals(s).find("layers")->asArray()[0].find("name")->asString() == "agent");
    // The typed layers, written as a raw request, read back as the parser's echo.
    const FleetParsed parsed = parseFleetRequest(stack);
    REQUIRE(parsed.request);
    CHECK(sameValue(parseFleetRequest(rawFleet(*parsed.request)).echo, parsed.echo));
}

TEST_CASE("layers fleet: bad stacks are errors that name the field, checked before any work", "[layers-fleet]") {
    auto firstError = [](const Value& request) {
        const Value r = fleet(request);
        REQUIRE_FALSE(r.find("ok")->asBool());
        return r.find("errors")->asArray()[0];
    };
    SECTION("§9.4: a once fleet over the product bound") {
        Value request = failingStack(retriesEach({100, 100, 100, 100}));  // 101^4 ≈ 1.04 × 10^8
        const Value e = firstError(request);
        CHECK(e.find("field")->asString() == "policy.layers");
        CHECK(e.find("code")->asString() == "too-much-work");
    }
    SECTION("§9.4: open arrivals over the product bound, on durationMs as FLEET's") {
        Value request = failingStack(retriesEach({9, 9, 9}));  // 1,000 a request
        request = with(request, "arrivals", Value::string("poisson"));
        request = with(request, "clients", Value::number(1000));  // 60,000 requests × 1,000
        const Value e = firstError(request);
        CHECK(e.find("field")->asString() == "durationMs");
        CHECK(e.find("code")->asString() == "too-much-work");
    }
    SECTION("§9.3: a gate on a layer the stack does not have") {
        Value request = withGate(failingStack(retriesEach({1, 1})), "quota", quota(3));
        const Value e = firstError(request);
        CHECK(e.find("field")->asString() == "gates.quota.layer");
        Value plain = withGate(Value::object(), "breaker", layerOf({{"layer", Value::number(2)}}));
        CHECK(firstError(plain).find("field")->asString() == "gates.breaker.layer");
    }
    SECTION("§9.6: a one-layer model beside a stack") {
        Value request = failingStack(retriesEach({1}));
        Value gates = Value::object();
        gates.set("adaptive", Value::object());
        request = with(request, "gates", std::move(gates));
        const Value e = firstError(request);
        CHECK(e.find("field")->asString() == "policy.layers");
        CHECK(e.find("code")->asString() == "layers-excluded");
    }
    SECTION("a layer's maxRetries may not be null") {
        Value request = failingStack({layerOf({{"maxRetries", Value::null()}})});
        CHECK(firstError(request).find("field")->asString() == "policy.layers[0].maxRetries");
    }
}
