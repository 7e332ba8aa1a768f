// Relations the fleet must satisfy whatever the numbers (FLEET.md §2, §4–§6), and the ties of
// §6 worked by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <tuple>
#include <vector>

#include "fleet_support.hpp"
#include "random.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

using AttemptId = SendId;  // client, request, attempt

std::set<AttemptId> sends(const FleetTrace& trace) {
    const std::vector<SendId> all = sendsOf(trace);
    return {all.begin(), all.end()};
}

void withEachGate(GateScope scope, const std::function<void(const char*, FleetRequest&)>& run) {
    {
        FleetRequest q = loadIndependent();
        q.gates.quota = QuotaGate{scope, 50, 5, 10, 1};
        run("quota", q);
    }
    {
        FleetRequest q = loadIndependent();
        q.gates.bucket = BucketGate{scope, 5, 0.1, 1};
        run("bucket", q);
    }
    {
        FleetRequest q = loadIndependent();
        q.gates.throttle = ThrottleGate{scope, 10, 0.1};
        run("throttle", q);
    }
    {
        FleetRequest q = loadIndependent();
        q.gates.budget = BudgetGate{scope, 20, 1, 10000};
        run("budget", q);
    }
    {
        FleetRequest q = loadIndependent();
        q.gates.breaker = BreakerGate{scope, 20, 10, 50, 1000, 5};
        run("breaker", q);
    }
}

// Every field of the result but the tokens (null for a client-scoped gate).
Value withoutTokens(Value v) {
    Value::Object members = v.asObject();
    for (Value::Member& m : members)
        if (m.key == "timeline") {
            Value::Object timeline = m.value.asObject();
            for (Value::Member& t : timeline)
                if (t.key == "bins") {
                    Value::Array bins = t.value.asArray();
                    for (Value& b : bins) {
                        Value::Object fields = b.asObject();
                        fields.erase(std::remove_if(fields.begin(), fields.end(),
                                                    [](const Value::Member& f) { return f.key == "tokens"; }),
                                     fields.end());
                        b = Value::object(std::move(fields));
                    }
                    t.value = Value::array(std::move(bins));
                }
            m.value = Value::object(std::move(timeline));
        }
    members.erase(
        std::remove_if(members.begin(), members.end(), [](const Value::Member& m) { return m.key == "request"; }),
        members.end());
    return Value::object(std::move(members));
}

}  // namespace

TEST_CASE("with open arrivals and a load-independent server, a gate never adds an attempt",
          "[fleet][relations][gates]") {
    FleetTrace free;
    const ServiceResult ungated = simulateService(loadIndependent(), &free);
    const std::set<AttemptId> all = sends(free);
    for (GateScope scope : {GateScope::Client, GateScope::Fleet}) {
        withEachGate(scope, [&](const char* name, FleetRequest& q) {
            INFO(name << (scope == GateScope::Fleet ? " (fleet)" : " (client)"));
            FleetTrace trace;
            const ServiceResult gated = simulateService(q, &trace);
            CHECK(gated.totals.requests == ungated.totals.requests);
            CHECK(gated.totals.attempts <= ungated.totals.attempts);
            const std::set<AttemptId> some = sends(trace);
            CHECK(std::includes(all.begin(), all.end(), some.begin(), some.end()));
            // and each gate here refuses something, so the relation is not empty
            CHECK(gated.totals.attempts < ungated.totals.attempts);
        });
    }
}

TEST_CASE("a fleet-scoped gate with one client equals the client-scoped one", "[fleet][relations][gates]") {
    withEachGate(GateScope::Fleet, [](const char* name, FleetRequest& fleetScoped) {
        INFO(name);
        fleetScoped.clients = 1;
        fleetScoped.ratePerClient = 50;
        const FleetRequest perClient = clientScoped(fleetScoped);
        const Value a = withoutTokens(fleetToValue(Value::null(), fleetScoped, simulateService(fleetScoped)));
        const Value b = withoutTokens(fleetToValue(Value::null(), perClient, simulateService(perClient)));
        CHECK(sameValue(a, b));
    });
}

TEST_CASE("with failure rate p, r retries and no capacity limit, success is within 2 points of 1 − p^(r+1)",
          "[fleet][relations]") {
    for (double p : {0.1, 0.3, 0.5, 0.8}) {
        for (int retries : {0, 1, 3}) {
            INFO("p " << p << ", maxRetries " << retries);
            FleetRequest q = quietFleet();
            q.clients = 100;
            q.ratePerClient = 10;
            q.durationMs = 10000;  // about 10,000 requests
            q.server.workers.reset();
            q.server.failureRate = p;
            q.policy.maxRetries = retries;
            const ServiceResult r = simulateService(q);
            REQUIRE(r.totals.requests > 9500);
            const double expected = 1 - std::pow(p, retries + 1);
            CHECK(std::fabs(static_cast<double>(r.totals.succeeded) / r.totals.requests - expected) <= 0.02);
        }
    }
}

namespace {

// A generated request: the engine's own PCG32 picks every field, the same natively and in
// WebAssembly.
FleetRequest generated(Pcg32& g) {
    auto pick = [&g](std::uint32_t n) { return g.next() % n; };
    FleetRequest q;
    q.seed = pick(1000);
    q.clients = 1 + pick(30);
    q.arrivals = static_cast<Arrivals>(pick(4));
    q.ratePerClient = 0.5 + pick(40) / 4.0;
    q.durationMs = 500 + pick(5000);
    if (pick(3) == 0) q.spike = Spike{static_cast<double>(pick(3000)), 3000.0 + pick(3000), 0.5 + pick(8)};
    q.network.dist = static_cast<NetworkDist>(pick(4));
    q.network.ms = pick(20);
    q.network.lo = pick(10);
    q.network.hi = q.network.lo + pick(30);
    q.network.mean = pick(30);
    q.network.sd = pick(10);
    if (pick(4) == 0)
        q.server.workers.reset();
    else
        q.server.workers = 1 + pick(12);
    if (pick(3) == 0) q.server.queueLimit = pick(20);
    q.server.queueOrder = static_cast<QueueOrder>(pick(2));
    q.server.serviceMs = pick(80);
    q.server.serviceMsPerInFlight = pick(3) == 0 ? pick(5) : 0;
    q.server.failureRate = pick(5) / 5.0;
    q.server.dropStale = static_cast<DropStale>(pick(3));
    if (pick(3) == 0) q.server.rejectRetryAfterMs = static_cast<double>(pick(500));
    switch (pick(3)) {
        case 0: q.trigger.reset(); break;
        case 1:
            q.trigger =
                Trigger{TriggerKind::Slowdown, static_cast<double>(pick(2000)), 2000.0 + pick(2000), 1.0 + pick(6)};
            break;
        default:
            q.trigger = Trigger{TriggerKind::Outage, static_cast<double>(pick(2000)), 2000.0 + pick(2000), 1};
            break;
    }
    q.policy.maxRetries = static_cast<int>(pick(5));
    q.policy.baseBackoffMs = pick(200);
    q.policy.jitter = static_cast<Jitter>(pick(4));
    if (pick(2)) q.policy.maxBackoffMs = static_cast<double>(pick(1000));
    q.policy.clientTimeoutMs = 20 + pick(400);
    if (pick(3) == 0) q.policy.deadlineMs = static_cast<double>(pick(2000));
    q.policy.retryTimeout = pick(4) != 0;
    q.policy.retry5xx = pick(4) != 0;
    const auto scope = [&]() { return pick(2) ? GateScope::Fleet : GateScope::Client; };
    if (pick(3) == 0) q.gates.quota = QuotaGate{scope(), 50.0 + pick(100), 5, 10, 1};
    if (pick(3) == 0) q.gates.bucket = BucketGate{scope(), 5, 0.1, 1};
    if (pick(3) == 0) q.gates.throttle = ThrottleGate{scope(), 10, 0.1};
    if (pick(3) == 0) q.gates.budget = BudgetGate{scope(), 20, 1.0 * pick(10), 1000.0 + pick(5000)};
    if (pick(3) == 0)
        q.gates.breaker = BreakerGate{scope(), 1 + pick(20), 1 + pick(20), 50, 200.0 * pick(5), 1 + pick(5)};
    q.operation = pick(4) == 0 ? Operation::Read : Operation::Charge;
    q.idempotencyKey = pick(2) != 0;
    q.binMs = 100 + pick(900);
    return q;
}

}  // namespace

TEST_CASE("on generated requests: load ≥ 1, charges ≥ succeeded writes, counts that add up, events in time order",
          "[fleet][relations][generated]") {
    Pcg32 g(14, 54);
    for (int i = 0; i < 300; ++i) {
        const FleetRequest q = generated(g);
        INFO("generated request " << i);
        FleetTrace trace;
        const ServiceResult r = simulateService(q, &trace);
        const ServiceTotals& t = r.totals;
        if (t.firstAttempts > 0) REQUIRE(static_cast<double>(t.attempts) / t.firstAttempts >= 1);
        if (q.operation == Operation::Charge) {
            REQUIRE(t.charges + t.replays >= t.succeeded);
            if (!q.idempotencyKey) REQUIRE(t.charges >= t.succeeded);
            if (q.idempotencyKey) REQUIRE(t.charges <= t.requests);
        } else {
            REQUIRE(t.charges == 0);
        }
        REQUIRE(t.attempts == t.firstAttempts + t.retries);
        std::uint64_t ended = t.succeeded;
        for (int reason = 1; reason < kEndReasons; ++reason) ended += t.failed[reason];
        REQUIRE(ended == t.requests);
        REQUIRE(t.served + t.cancelled + t.shed + t.outageRejected <= t.attempts);
        // Every request ends exactly once, at or after its last event.
        std::set<std::pair<std::uint32_t, std::uint32_t>> seen;
        for (const FleetTraceEnd& e : trace.ends) REQUIRE(seen.insert({e.client, e.request}).second);
        REQUIRE(seen.size() == t.requests);
        for (std::size_t k = 1; k < trace.events.size(); ++k) REQUIRE(trace.events[k - 1].tMs <= trace.events[k].tMs);
        if (!trace.events.empty()) REQUIRE(t.endMs >= trace.events.back().tMs);
        // The bins hold what the totals count.
        REQUIRE(sumOf(r.bins, &ServiceBin::created) == t.requests);
        REQUIRE(sumOf(r.bins, &ServiceBin::succeeded) == t.succeeded);
        REQUIRE(sumOf(r.bins, &ServiceBin::failed) == t.requests - t.succeeded);
        REQUIRE(sumOf(r.bins, &ServiceBin::firstAttempts) == t.firstAttempts);
        REQUIRE(sumOf(r.bins, &ServiceBin::retries) == t.retries);
        REQUIRE(sumOf(r.bins, &ServiceBin::served) == t.served);
        REQUIRE(sumOf(r.bins, &ServiceBin::late) == t.late);
        REQUIRE(!std::isnan(t.wastedServiceMs));
        REQUIRE(r.bins.size() == static_cast<std::size_t>(std::floor(t.endMs / q.binMs)) + 1);
        if (t.latencyMs) {
            REQUIRE(t.latencyMs->p50 <= t.latencyMs->p90);
            REQUIRE(t.latencyMs->p90 <= t.latencyMs->p99);
            REQUIRE(t.latencyMs->p99 <= t.latencyMs->max);
        }
        // The same request gives the same result.
        REQUIRE(sameValue(fleetToValue(Value::null(), q, r), fleetToValue(Value::null(), q, simulateService(q))));
    }
}

TEST_CASE("an answer exactly at the waiting limit is in time (§6: answers before waiting limits)", "[fleet][ties]") {
    FleetRequest q = oneClientOnce();
    q.policy.clientTimeoutMs = 60;  // the answer arrives at 5 + 50 + 5 = 60 = L
    const ServiceResult r = simulateService(q);
    CHECK(r.totals.succeeded == 1);
    CHECK(r.totals.late == 0);
    CHECK(r.bins[0].timeouts == 0);
    // A hair shorter and the limit passes first: a timeout, then a late answer.
    q.policy.clientTimeoutMs = 59.999;
    q.policy.maxRetries = 0;
    const ServiceResult early = simulateService(q);
    CHECK(early.bins[0].timeouts == 1);
    CHECK(early.totals.late == 1);
}

TEST_CASE("a worker freed at t serves the queue before an attempt arriving at t (§6: completions first)",
          "[fleet][ties]") {
    // One worker, a queue of one. Client 0 is served 0–50, client 1 waits, client 2 is shed at 0
    // and told to come back in 50 ms: at 50 the completion frees the worker for client 1 first,
    // so client 2 joins the queue and is served 100–150.
    FleetRequest q = quietFleet();
    q.clients = 3;
    q.arrivals = Arrivals::Once;
    q.network.ms = 0;
    q.server.workers = 1u;
    q.server.queueLimit = 1u;
    q.server.rejectRetryAfterMs = 50.0;
    FleetTrace trace;
    const ServiceResult r = simulateService(q, &trace);
    std::vector<std::pair<std::uint32_t, double>> completions;
    for (const FleetTraceEvent& e : trace.events)
        if (e.kind == 1) completions.push_back({e.client, e.tMs});
    CHECK(completions == std::vector<std::pair<std::uint32_t, double>>{{0, 50}, {1, 100}, {2, 150}});
    CHECK(r.totals.shed == 1);
    CHECK(r.totals.succeeded == 3);
}

namespace {

// Two clients at 0, one worker, no network: client 0 is served 0–50; client 1 waits in the
// queue and reaches the worker at 50, when client 0's service completes (§4).
FleetRequest oneWorkerTwoClients(double clientTimeoutMs, DropStale drop) {
    FleetRequest q = quietFleet();
    q.clients = 2;
    q.arrivals = Arrivals::Once;
    q.network.ms = 0;
    q.server.workers = 1u;
    q.server.dropStale = drop;
    q.policy.maxRetries = 0;
    q.policy.clientTimeoutMs = clientTimeoutMs;
    return q;
}

}  // namespace

TEST_CASE("dropStale expired: an attempt reaching a worker exactly at its waiting limit is dropped (t ≥ L)",
          "[fleet][ties][dropStale]") {
    // L = 0 + 50 = 50 = t: dropped unserved; client 1 times out at 50, out of attempts.
    const ServiceResult atLimit = simulateService(oneWorkerTwoClients(50, DropStale::Expired));
    CHECK(atLimit.totals.cancelled == 1);
    CHECK(atLimit.totals.served == 1);
    CHECK(atLimit.totals.late == 0);
    CHECK(atLimit.totals.succeeded == 1);
    CHECK(atLimit.totals.failed[static_cast<int>(EndReason::AttemptLimit)] == 1);
    // L = 51 > t = 50: served 50–100, its answer at 100 comes after the client left at 51.
    const ServiceResult before = simulateService(oneWorkerTwoClients(51, DropStale::Expired));
    CHECK(before.totals.cancelled == 0);
    CHECK(before.totals.served == 2);
    CHECK(before.totals.late == 1);
    CHECK(before.totals.wastedServiceMs == 50);
}

TEST_CASE("dropStale unfinishable: a service that would end exactly at the waiting limit is served (t + S > L drops)",
          "[fleet][ties][dropStale]") {
    // t + S = 50 + 50 = 100 = L: served 50–100, answered at 100 = L, in time.
    const ServiceResult atLimit = simulateService(oneWorkerTwoClients(100, DropStale::Unfinishable));
    CHECK(atLimit.totals.cancelled == 0);
    CHECK(atLimit.totals.succeeded == 2);
    REQUIRE(atLimit.totals.latencyMs);
    CHECK(atLimit.totals.latencyMs->max == 100);
    // L = 99: 100 > 99, dropped at 50; client 1 times out at 99.
    const ServiceResult past = simulateService(oneWorkerTwoClients(99, DropStale::Unfinishable));
    CHECK(past.totals.cancelled == 1);
    CHECK(past.totals.served == 1);
    CHECK(past.totals.succeeded == 1);
    // The same attempt under "expired" (50 < 99) is served and its answer is late.
    CHECK(simulateService(oneWorkerTwoClients(99, DropStale::Expired)).totals.late == 1);
}

TEST_CASE("attempts that join the queue at the same instant join it in key order; LIFO serves the newest",
          "[fleet][ties]") {
    FleetRequest q = quietFleet();
    q.clients = 4;
    q.arrivals = Arrivals::Once;
    q.network.ms = 0;
    q.server.workers = 1u;
    q.policy.clientTimeoutMs = 10000;
    auto order = [](const FleetRequest& request) {
        FleetTrace trace;
        simulateService(request, &trace);
        std::vector<std::uint32_t> served;
        for (const FleetTraceEvent& e : trace.events)
            if (e.kind == 1) served.push_back(e.client);
        return served;
    };
    CHECK(order(q) == std::vector<std::uint32_t>{0, 1, 2, 3});
    q.server.queueOrder = QueueOrder::Lifo;
    CHECK(order(q) == std::vector<std::uint32_t>{0, 3, 2, 1});
}

TEST_CASE("the horizon: events after 2 × durationMs + 60 s are not processed; open requests end unfinished there",
          "[fleet][horizon]") {
    FleetRequest q = oneClientOnce();
    q.durationMs = 1000;  // H = 62,000
    q.server.serviceMs = 100000;
    q.policy.clientTimeoutMs = 86400000;
    const ServiceResult r = simulateService(q);
    CHECK(r.totals.failed[static_cast<int>(EndReason::Unfinished)] == 1);
    CHECK(r.totals.endMs == 62000);
    CHECK(r.bins.size() == 63);
    CHECK(r.bins[62].failed == 1);
    CHECK(r.bins[61].inService == 1);  // the state repeats through empty bins
}

TEST_CASE("a deadline ends a request whose next wait would reach it", "[fleet][deadline]") {
    FleetRequest q = oneClientOnce();
    q.server.failureRate = 1;
    q.policy.deadlineMs = 160.0;  // failure at 60, wait 100: 60 + 100 ≥ 0 + 160
    const ServiceResult r = simulateService(q);
    CHECK(r.totals.failed[static_cast<int>(EndReason::Deadline)] == 1);
    CHECK(r.totals.attempts == 1);
    q.policy.deadlineMs = 160.001;
    CHECK(simulateService(q).totals.attempts == 2);
}

TEST_CASE("a count-based breaker opens at the failure share, refuses sends, and half-opens after openMs",
          "[fleet][gates][breaker]") {
    // Every attempt fails; one client, once arrivals are not enough: 40 rps for 5 s.
    FleetRequest q = quietFleet();
    q.clients = 1;
    q.ratePerClient = 40;
    q.durationMs = 5000;
    q.server.failureRate = 1;
    q.policy.maxRetries = 0;
    q.gates.breaker = BreakerGate{GateScope::Client, 10, 10, 50, 1000, 2};
    const ServiceResult r = simulateService(q);
    const auto refused = r.totals.failed[static_cast<int>(EndReason::CircuitOpen)];
    CHECK(refused > 0);
    CHECK(r.totals.requests == r.totals.attempts + refused);
    // Without the breaker every request is sent.
    q.gates.breaker.reset();
    CHECK(simulateService(q).totals.failed[static_cast<int>(EndReason::CircuitOpen)] == 0);
}

TEST_CASE("occ: every run writes once per client, failures are the other writes, the mean is the runs' mean",
          "[fleet][occ]") {
    FleetRequest q = occDefaults();
    q.clients = 30;
    q.runs = 7;
    const OccResult r = simulateOcc(q);
    REQUIRE(r.runs.size() == 7);
    double writes = 0;
    for (const OccRun& run : r.runs) {
        CHECK(run.writes - run.failures == 30);
        writes += run.writes;
    }
    CHECK(r.mean.writes == writes / 7);
    // Run r uses seed + r.
    CHECK(simulateOccRun(q, q.seed + 3).makespanMs == r.runs[3].makespanMs);
    // One client never contends: one write, makespan the sum of its four legs.
    q.clients = 1;
    q.network = Network{};
    q.network.ms = 5;
    CHECK(simulateOccRun(q, 1).makespanMs == 20);
    CHECK(simulateOccRun(q, 1).writes == 1);
}

TEST_CASE("occ ties: at equal times the row takes clients in order, each client's read before its write",
          "[fleet][occ][ties]") {
    // Every leg 0: all reads and writes at 0. Client 0 reads and writes, then client 1 reads the
    // new version and writes, ...: every write succeeds.
    FleetRequest q = occDefaults();
    q.clients = 10;
    q.network = Network{};
    q.network.ms = 0;
    const OccRun run = simulateOccRun(q, 1);
    CHECK(run.writes == 10);
    CHECK(run.failures == 0);
    // With a 1 ms read answer, all ten read version 0 first: one success, nine failures, and
    // so on until all have written.
    q.network.ms = 1;
    const OccRun contended = simulateOccRun(q, 1);
    CHECK(contended.failures >= 9);
}

TEST_CASE("occ with a retry limit stops a client after maxRetries + 1 writes", "[fleet][occ]") {
    FleetRequest q = occDefaults();
    q.clients = 50;
    q.policy.maxRetries = 0;
    q.policy.baseBackoffMs = 0;
    const OccRun run = simulateOccRun(q, 1);
    CHECK(run.writes == 50);
    CHECK(run.failures > 0);
}

TEST_CASE(
    "a late answer known at its completion is counted without an event: as the traced run counts it, as the run's last "
    "event, and not past the horizon",
    "[fleet][late][horizon]") {
    // One attempt, a waiting limit of 30 ms: the limit passes at 30 (the request ends, no
    // retries), the service completes at 5 + 50 = 55 and its answer arrives at 60, late. Known
    // late at 55, it is counted in its own bin and it is the run's last event.
    FleetRequest q = oneClientOnce();
    q.policy.clientTimeoutMs = 30;
    q.policy.maxRetries = 0;
    q.binMs = 10;
    // The run without a trace (late answers counted at completion) reads as the traced run.
    const auto asTraced = [](const FleetRequest& request) {
        FleetTrace trace;
        const ServiceResult traced = simulateService(request, &trace);
        const ServiceResult run = simulateService(request);
        CHECK(sameValue(fleetToValue(Value::null(), request, run), fleetToValue(Value::null(), request, traced)));
        return run;
    };
    const ServiceResult r = asTraced(q);
    CHECK(r.totals.late == 1);
    CHECK(r.totals.wastedServiceMs == 50);
    CHECK(r.totals.endMs == 60);
    REQUIRE(r.bins.size() == 7);  // [0, 10) … [60, 70)
    CHECK(r.bins[6].late == 1);
    CHECK(r.bins[3].timeouts == 1);
    // The horizon (2 × 1,000 + 60,000 = 62,000 ms): the service completes at 5 + 61,992 = 61,997,
    // inside it; the answer would arrive at 62,002, past it, so it is never counted.
    q.durationMs = 1000;
    q.binMs = 1000;
    q.server.serviceMs = 61992;
    const ServiceResult past = asTraced(q);
    CHECK(past.totals.late == 0);
    CHECK(past.totals.wastedServiceMs == 0);
    CHECK(past.totals.endMs == 61997);
    CHECK(past.bins.size() == 62);
}

// The loop keeps events made "now + d" for a recurring d in rings (lanes) and the rest in a heap
// (fleet_service.cpp): which holds an event must not change the order of §6, ties included.
// A fixed network's legs go to a lane; uniform(ms, ms) draws the same legs (ms + 0 × draw) and,
// as no lane is made for a drawn network, they go through the heap. So the two results are equal
// but for the request's echo. Answers made at one instant by a completion and by a rejection
// reach a lane out of key order, which the lane must put right.
TEST_CASE(
    "lanes and the heap order events alike: a fixed network equals uniform(ms, ms), whose legs go through the heap",
    "[fleet][relations][ties]") {
    auto withoutRequest = [](const Value& v) {
        Value::Object members = v.asObject();
        members.erase(
            std::remove_if(members.begin(), members.end(), [](const Value::Member& m) { return m.key == "request"; }),
            members.end());
        return Value::object(std::move(members));
    };
    auto check = [&](FleetRequest q) {
        q.network.dist = NetworkDist::Fixed;
        const ServiceResult inLanes = simulateService(q);
        FleetRequest drawn = q;
        drawn.network.dist = NetworkDist::Uniform;
        drawn.network.lo = drawn.network.hi = q.network.ms;
        const ServiceResult inHeap = simulateService(drawn);
        REQUIRE(inLanes.totals.attempts == inHeap.totals.attempts);
        REQUIRE(sameValue(withoutRequest(fleetToValue(Value::null(), q, inLanes)),
                          withoutRequest(fleetToValue(Value::null(), drawn, inHeap))));
    };
    SECTION("the opening fleet run") { check(FleetRequest{}); }
    SECTION("generated requests") {
        Pcg32 g(18, 6);
        for (int i = 0; i < 200; ++i) {
            INFO("generated request " << i);
            check(generated(g));
        }
    }
    SECTION("one worker, an outage's rejections and completions at the same instants") {
        FleetRequest q = quietFleet();
        q.clients = 30;
        q.ratePerClient = 20;
        q.durationMs = 3000;
        q.arrivals = Arrivals::Uniform;
        q.network.ms = 10;
        q.server.workers = 1;
        q.server.queueLimit = 2;
        q.server.serviceMs = 10;
        q.trigger = Trigger{TriggerKind::Outage, 1000, 2000, 1};
        q.policy.baseBackoffMs = 10;
        q.policy.clientTimeoutMs = 30;
        check(q);
    }
}
