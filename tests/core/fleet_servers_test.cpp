// docs/servers.md's fleet (§8, issue 39): K servers behind a balancer, the host rule, faults, the
// key store read at the commit, and the rows per server. Every figure of §12.1–§12.4 as the page
// works it by hand; the closed forms of §12.5–§12.9 over runs long enough to say so (one case each,
// their times in the case's name); K = 1 as today; the relations; every bad input naming its field.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "fleet_support.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

Value arrayOf(std::initializer_list<Value> items) {
    Value a = Value::array();
    for (const Value& v : items) a.push(v);
    return a;
}
Value override0(const char* field, Value value) {
    Value o = Value::object();
    o.set("index", num(0));
    o.set(field, std::move(value));
    return o;
}
Value fault(const char* kind, std::initializer_list<Value> servers, double startMs, double endMs) {
    Value f = Value::object();
    f.set("kind", str(kind));
    f.set("servers", arrayOf(servers));
    f.set("startMs", num(startMs));
    f.set("endMs", num(endMs));
    return f;
}

// §12's "unless said": one client, one request at 0, no trigger, legs of 5 ms, FLEET's defaults,
// two servers, round robin, client-scoped.
Value twelve() {
    return request(
        {{"clients", num(1)}, {"arrivals", str("once")}, {"trigger", Value::null()}, {"servers.count", num(2)}});
}

FleetRequest typedOf(const Value& raw) {
    FleetParsed p = parseFleetRequest(raw);
    INFO(errorFields(toValue(p.errors)));
    REQUIRE(p.errors.empty());
    return *p.request;
}
ServiceResult run(const Value& raw, FleetTrace* trace = nullptr) { return simulateService(typedOf(raw), trace); }

double latency(const ServiceResult& r) {
    REQUIRE(r.totals.latencyMs);
    return r.totals.latencyMs->max;
}

std::string errorsOf(const Value& raw) { return errorFields(fleet(raw)); }

Value with5(Value retryOn) {
    Value q = twelve();
    setPath(q, "policy.retryOn", std::move(retryOn));
    return q;
}

}  // namespace

TEST_CASE(
    "§12.1 one bad host: round robin sends the retry to server 1, success at 220; random (seed 1) puts all "
    "three on the bad host, attempt-limit at 480; previous-hosts moves the retry, success at 220",
    "[servers-fleet]") {
    Value q = twelve();
    setPath(q, "servers.overrides", arrayOf({override0("failureRate", num(1))}));
    setPath(q, "policy.maxRetries", num(2));
    SECTION("round robin") {
        const ServiceResult r = run(q);
        CHECK(r.totals.succeeded == 1);
        CHECK(latency(r) == 220);
        REQUIRE(r.totals.servers.size() == 2);
        const ServerTotals& bad = r.totals.servers[0];
        const ServerTotals& good = r.totals.servers[1];
        CHECK(bad.attempts == 1);
        CHECK(bad.served == 1);
        CHECK(bad.failed == 1);
        CHECK(bad.succeeded == 0);
        CHECK(good.attempts == 1);
        CHECK(good.served == 1);
        CHECK(good.succeeded == 1);
        CHECK(good.okInTime == 1);
        CHECK(good.charges == 1);
        CHECK(bad.charges == 0);
    }
    SECTION("random, any host") {
        setPath(q, "balancer.kind", str("random"));
        const ServiceResult r = run(q);
        CHECK(r.totals.servers[0].attempts == 3);
        CHECK(r.totals.servers[1].attempts == 0);
        CHECK(failed(r, EndReason::AttemptLimit) == 1);
        CHECK(r.totals.endMs == 480);
    }
    SECTION("random, previous-hosts") {
        setPath(q, "balancer.kind", str("random"));
        setPath(q, "policy.retryHost", str("previous-hosts"));
        const ServiceResult r = run(q);
        CHECK(latency(r) == 220);
        CHECK(r.totals.servers[0].attempts == 1);
        CHECK(r.totals.servers[1].attempts == 1);
    }
}

TEST_CASE(
    "§12.2 crash vs partition: the refusal is back at 10 and the retry succeeds at 170, the fleet undisturbed; "
    "the partition's attempt waits out the timeout, success at 1,160, the fleet disrupted",
    "[servers-fleet]") {
    Value q = twelve();
    SECTION("crash") {
        setPath(q, "faults", arrayOf({fault("crash", {num(0)}, 0, 1000)}));
        const ServiceResult r = run(q);
        CHECK(latency(r) == 170);
        CHECK(r.totals.servers[0].refused == 1);
        CHECK(r.totals.refused == 1);
        CHECK(r.bins[0].servers[0].refused == 1);
        REQUIRE(r.recovery);
        CHECK(r.recovery->triggerEndMs == 1000);
        CHECK(!r.recovery->disrupted);
        CHECK(r.recovery->recoveredAtMs == 1000);
        REQUIRE(r.serverRecovery.size() == 2);
        CHECK(r.serverRecovery[0].disrupted);
        CHECK(r.serverRecovery[0].recoveredAtMs == 1000);
        CHECK(!r.serverRecovery[1].disrupted);
    }
    SECTION("partition") {
        setPath(q, "faults", arrayOf({fault("partition", {num(0)}, 0, 1000)}));
        const ServiceResult r = run(q);
        CHECK(latency(r) == 1160);
        CHECK(r.totals.servers[0].partitioned == 1);
        CHECK(r.totals.partitioned == 1);
        CHECK(r.bins[1].servers[1].attempts == 1);
        CHECK(r.bins[1].servers[1].okInTime == 1);
        REQUIRE(r.recovery);
        CHECK(r.recovery->disrupted);
        CHECK(r.recovery->recoveredAtMs == 1000);
        CHECK(r.serverRecovery[0].disrupted);
        CHECK(!r.serverRecovery[1].disrupted);
    }
}

TEST_CASE(
    "§12.3 a crash at 20 aborts the attempt in service (no charge, a reset back at 25); the retry on server 1 "
    "succeeds at 185",
    "[servers-fleet]") {
    Value q = twelve();
    setPath(q, "faults", arrayOf({fault("crash", {num(0)}, 20, 1000)}));
    FleetTrace trace;
    const ServiceResult r = run(q, &trace);
    CHECK(latency(r) == 185);
    const ServerTotals& s0 = r.totals.servers[0];
    CHECK(s0.attempts == 1);
    CHECK(s0.served == 1);
    CHECK(s0.aborted == 1);
    CHECK(s0.charges == 0);
    CHECK(s0.completions == 0);
    CHECK(r.totals.charges == 1);
    CHECK(r.totals.servers[1].charges == 1);
    CHECK(sendTimes(trace) == std::vector<double>{0, 125});
    // The crash is kind 0 at 20, before anything else then; the reset reaches the client at 25.
    bool crashAt20 = false, answerAt25 = false;
    for (const FleetTraceEvent& e : trace.events) {
        crashAt20 = crashAt20 || (e.kind == 0 && e.tMs == 20 && e.client == 0);
        answerAt25 = answerAt25 || (e.kind == 3 && e.tMs == 25);
    }
    CHECK(crashAt20);
    CHECK(answerAt25);
}

TEST_CASE(
    "§12.4 a late answer, a retry on the other replica, and the store: shared replays, per-server charges "
    "twice, replicated charges twice iff 205 + lag > 255",
    "[servers-fleet]") {
    Value q = twelve();
    setPath(q, "idempotencyKey", Value::boolean(true));
    setPath(q, "policy.clientTimeoutMs", num(100));
    setPath(q, "servers.overrides", arrayOf({override0("serviceMs", num(200))}));
    auto check = [](const ServiceResult& r, std::uint64_t charges) {
        CHECK(latency(r) == 260);
        CHECK(r.totals.late == 1);
        CHECK(r.totals.servers[0].late == 1);
        CHECK(r.totals.servers[0].wastedServiceMs == 200);
        CHECK(r.totals.servers[0].charges == 1);
        CHECK(r.totals.charges == charges);
        CHECK(r.totals.servers[1].charges == charges - 1);
        CHECK(r.totals.servers[1].duplicateCharges == charges - 1);
        CHECK(r.totals.servers[1].replays == 2 - charges);
        CHECK(r.totals.duplicateCharges == charges - 1);
    };
    SECTION("shared: a replay, 1 charge") { check(run(q), 1); }
    SECTION("per-server: charge #2") {
        setPath(q, "keyStore.scope", str("per-server"));
        check(run(q), 2);
    }
    SECTION("replicated, lag 0: shared exactly") {
        setPath(q, "keyStore.scope", str("replicated"));
        check(run(q), 1);
    }
    SECTION("replicated, lag 50: 255 ≤ 255, a replay (the boundary goes to the store)") {
        setPath(q, "keyStore.scope", str("replicated"));
        setPath(q, "keyStore.lagMs", num(50));
        check(run(q), 1);
    }
    SECTION("replicated, lag 50.5: 255.5 > 255, charge #2") {
        setPath(q, "keyStore.scope", str("replicated"));
        setPath(q, "keyStore.lagMs", num(50.5));
        check(run(q), 2);
    }
}

TEST_CASE("§4.1 round robin: client c's balancer starts at c mod K; a fleet-scoped one at 0 for every client",
          "[servers-fleet]") {
    Value q = request(
        {{"clients", num(3)}, {"arrivals", str("once")}, {"trigger", Value::null()}, {"servers.count", num(2)}});
    const ServiceResult perClient = run(q);
    // Clients 0, 1, 2 start at 0, 1, 0.
    CHECK(perClient.totals.servers[0].attempts == 2);
    CHECK(perClient.totals.servers[1].attempts == 1);
    setPath(q, "balancer.scope", str("fleet"));
    const ServiceResult fleetWide = run(q);
    // One balancer: the sends at 0 in client order pick 0, 1, 0.
    CHECK(fleetWide.totals.servers[0].attempts == 2);
    setPath(q, "servers.count", num(3));
    setPath(q, "balancer.scope", str("client"));
    const ServiceResult three = run(q);
    CHECK(three.totals.servers[0].attempts == 1);
    CHECK(three.totals.servers[1].attempts == 1);
    CHECK(three.totals.servers[2].attempts == 1);
}

TEST_CASE(
    "§4.3 least-outstanding sees its own sends: ten clients' first attempts at 0 through one fleet balancer "
    "over ten servers land one a server",
    "[servers-fleet]") {
    Value q = request({{"clients", num(10)},
                       {"arrivals", str("once")},
                       {"trigger", Value::null()},
                       {"servers.count", num(10)},
                       {"balancer.kind", str("least-outstanding")},
                       {"balancer.scope", str("fleet")}});
    const ServiceResult r = run(q);
    for (const ServerTotals& s : r.totals.servers) CHECK(s.attempts == 1);
    // Client-scoped, each balancer sees only its own: the ten picks are independent draws.
    setPath(q, "balancer.scope", str("client"));
    const ServiceResult own = run(q);
    std::uint64_t most = 0;
    for (const ServerTotals& s : own.totals.servers) most = std::max(most, s.attempts);
    CHECK(most > 1);
}

TEST_CASE(
    "§8.3 the rows sum to the totals; with a shared store and a key at most one charge a request; no fault "
    "adds an attempt to a request",
    "[servers-fleet]") {
    FleetRequest q = loadIndependent();
    q.idempotencyKey = true;
    q.durationMs = 10000;
    Value raw = rawFleet(q);
    setPath(raw, "servers.count", num(4));
    setPath(raw, "balancer.kind", str("two-choices"));
    setPath(raw, "policy.retryHost", str("previous-hosts"));
    setPath(raw, "faults", arrayOf({fault("crash", {num(1)}, 2000, 4000), fault("partition", {num(2)}, 3000, 9000)}));
    FleetTrace trace;
    const ServiceResult r = run(raw, &trace);
    for (const ServerTotals& s : r.totals.servers) CHECK(s.okInTime <= s.attempts);
    const std::vector<ServerTotals>& servers = r.totals.servers;
    CHECK(sumOf(servers, &ServerTotals::attempts) == r.totals.attempts);
    CHECK(sumOf(servers, &ServerTotals::charges) == r.totals.charges);
    CHECK(sumOf(servers, &ServerTotals::duplicateCharges) == r.totals.duplicateCharges);
    CHECK(sumOf(servers, &ServerTotals::late) == r.totals.late);
    CHECK(sumOf(servers, &ServerTotals::refused) == r.totals.refused);
    CHECK(sumOf(servers, &ServerTotals::aborted) == r.totals.aborted);
    CHECK(sumOf(servers, &ServerTotals::partitioned) == r.totals.partitioned);
    CHECK(sumOf(servers, &ServerTotals::refused) > 0);
    CHECK(sumOf(servers, &ServerTotals::partitioned) > 0);
    CHECK(r.totals.duplicateCharges == 0);  // a shared store: every later commit replays
    CHECK(r.totals.charges <= r.totals.succeeded + r.totals.late);
    // Per request, at most maxRetries + 1 sends.
    CHECK(mostSendsOfOneRequest(trace) <= *q.policy.maxRetries + 1);
    // The same with per-server keys charges some requests twice.
    setPath(raw, "keyStore.scope", str("per-server"));
    CHECK(run(raw).totals.duplicateCharges > 0);
}

TEST_CASE("§9 K = 1: servers {count: 1}, and every new field given at its default, run as today", "[servers-fleet]") {
    const char* kind = GENERATE(as<const char*>{}, "round-robin", "random", "least-outstanding", "two-choices");
    std::vector<FleetRequest> cases;
    cases.push_back(loadIndependent());
    FleetRequest keyed = loadIndependent();
    keyed.idempotencyKey = true;
    keyed.server.workers = 2u;
    keyed.server.queueLimit = 20u;
    keyed.trigger = Trigger{TriggerKind::Slowdown, 3000, 9000, 3};
    cases.push_back(keyed);
    FleetRequest gated = keyed;
    gated.gates.quota = QuotaGate{};
    gated.gates.breaker = BreakerGate{};
    gated.server.admission = Admission{};
    cases.push_back(gated);
    for (const FleetRequest& today : cases) {
        const Value plain = fleetToValue(Value::null(), today, simulateService(today));
        Value raw = rawFleet(today);
        setPath(raw, "servers.count", num(1));
        setPath(raw, "balancer.kind", str(kind));
        setPath(raw, "keyStore.scope", str("replicated"));
        setPath(raw, "keyStore.lagMs", num(1000));
        setPath(raw, "policy.retryHost", str("previous-hosts"));
        const FleetRequest one = typedOf(raw);
        Value v = fleetToValue(Value::null(), one, simulateService(one));
        // The rows of §8.3 aside, every figure is today's.
        Value::Object members = v.asObject();
        for (Value::Member& m : members) {
            if (m.key == "request") m.value = *plain.find("request");
            if (m.key == "totals") {
                Value::Object t;
                for (const Value::Member& x : m.value.asObject())
                    if (x.key != "servers" && x.key != "refused" && x.key != "partitioned" && x.key != "aborted" &&
                        x.key != "answersLost")
                        t.push_back(x);
                m.value = Value::object(std::move(t));
            }
            if (m.key == "timeline") {
                Value::Object tl = m.value.asObject();
                for (Value::Member& y : tl)
                    if (y.key == "bins") {
                        Value::Array bins;
                        for (const Value& b : y.value.asArray()) {
                            Value::Object o;
                            for (const Value::Member& z : b.asObject())
                                if (z.key != "servers") o.push_back(z);
                            bins.push_back(Value::object(std::move(o)));
                        }
                        y.value = Value::array(std::move(bins));
                    }
                m.value = Value::object(std::move(tl));
            }
            if (m.key == "recovery" && !m.value.isNull()) {
                Value::Object o;
                for (const Value::Member& z : m.value.asObject())
                    if (z.key != "servers") o.push_back(z);
                m.value = Value::object(std::move(o));
            }
        }
        CHECK(sameValue(Value::object(std::move(members)), plain));
    }
}

TEST_CASE("§2 every bad input of the servers' rows names its field", "[servers-fleet]") {
    const Value q = twelve();
    auto with = [&q](const char* path, Value v) {
        Value r = q;
        setPath(r, path, std::move(v));
        return r;
    };
    CHECK(errorsOf(with("servers.count", num(0))) == "servers.count");
    CHECK(errorsOf(with("servers.count", num(1001))) == "servers.count");
    CHECK(errorsOf(with("servers.count", num(2.5))) == "servers.count");
    CHECK(errorsOf(with("servers.overrides", arrayOf({override0("workers", num(0))}))) ==
          "servers.overrides[0].workers");
    CHECK(errorsOf(with("servers.overrides", arrayOf({override0("admission", Value::null())}))) ==
          "servers.overrides[0].admission");
    Value far = Value::object();
    far.set("index", num(2));
    far.set("failureRate", num(1));
    CHECK(errorsOf(with("servers.overrides", arrayOf({far}))) == "servers.overrides[0].index");
    CHECK(errorsOf(
              with("servers.overrides", arrayOf({override0("failureRate", num(1)), override0("serviceMs", num(1))}))) ==
          "servers.overrides[1].index");
    CHECK(errorsOf(with("servers.overrides", arrayOf({override0("serviceSigma", num(1))}))) ==
          "servers.overrides[0].serviceSigma");
    Value lognormal = override0("serviceDist", str("lognormal"));
    lognormal.set("serviceSigma", num(2));
    CHECK(ok(fleet(with("servers.overrides", arrayOf({lognormal})))));
    CHECK(errorsOf(with("server.serviceSigma", num(1))) == "server.serviceSigma");
    CHECK(errorsOf(with("server.serviceDist", str("gamma"))) == "server.serviceDist");
    Value sigma = with("server.serviceDist", str("lognormal"));
    setPath(sigma, "server.serviceSigma", num(4.5));
    CHECK(errorsOf(sigma) == "server.serviceSigma");
    CHECK(errorsOf(with("balancer.kind", str("least-connections"))) == "balancer.kind");
    CHECK(errorsOf(with("balancer.scope", str("zone"))) == "balancer.scope");
    CHECK(errorsOf(with("policy.retryHost", str("other"))) == "policy.retryHost");
    CHECK(errorsOf(with("policy.hostSelectionRetryMaxAttempts", num(101))) == "policy.hostSelectionRetryMaxAttempts");
    CHECK(errorsOf(with("faults", arrayOf({fault("crash", {num(2)}, 0, 10)}))) == "faults[0].servers[0]");
    CHECK(errorsOf(with("faults", arrayOf({fault("crash", {num(0)}, 10, 5)}))) == "faults[0].endMs");
    CHECK(errorsOf(with("faults", arrayOf({fault("reboot", {num(0)}, 0, 5)}))) == "faults[0].kind");
    CHECK(errorsOf(with("faults", arrayOf({fault("crash", {num(0), num(0)}, 0, 5)}))) == "faults[0].servers[1]");
    CHECK(errorsOf(with("faults", arrayOf({fault("crash", {}, 0, 5)}))) == "faults[0].servers");
    CHECK(errorsOf(with("faults", arrayOf({fault("crash", {num(0)}, 0, 100),
                                           fault("partition", {num(1), num(0)}, 50, 60)}))) == "faults[1].servers");
    CHECK(
        ok(fleet(with("faults", arrayOf({fault("crash", {num(0)}, 0, 100), fault("partition", {num(0)}, 100, 160)})))));
    CHECK(ok(fleet(with("faults", arrayOf({fault("crash", {num(0)}, 0, 100), fault("partition", {num(0)}, 50, 50)})))));
    Value all = Value::object();
    all.set("kind", str("crash"));
    all.set("servers", Value::null());
    all.set("startMs", num(0));
    all.set("endMs", num(100));
    CHECK(errorsOf(with("faults", arrayOf({all, fault("crash", {num(1)}, 99, 200)}))) == "faults[1].servers");
    Value trigger = with("trigger", request({{"kind", str("outage")}, {"startMs", num(0)}, {"endMs", num(10)}}));
    setPath(trigger, "trigger.servers", arrayOf({num(0), num(5)}));
    CHECK(errorsOf(trigger) == "trigger.servers[1]");
    CHECK(errorsOf(with("keyStore.lagMs", num(10))) == "keyStore.lagMs");
    CHECK(errorsOf(with("keyStore.scope", str("global"))) == "keyStore.scope");
    Value noServers = request({{"faults", arrayOf({fault("crash", {num(1)}, 0, 10)})}});
    CHECK(errorsOf(noServers) == "faults[0].servers[0]");
    // §10's bounds, before any work: per-server bin cells, and counts per client and server.
    Value cells = with("servers.count", num(1000));
    setPath(cells, "durationMs", num(600000));
    CHECK(errorsOf(cells) == "servers.count");
    Value counts = request({{"clients", num(10000)},
                            {"servers.count", num(101)},
                            {"balancer.kind", str("two-choices")},
                            {"durationMs", num(1000)}});
    CHECK(errorsOf(counts) == "servers.count");
    setPath(counts, "balancer.scope", str("fleet"));
    CHECK(errorsOf(counts) != "servers.count");
    // Not with a stack of layers (for now), nor with the occ workload.
    Value layers = with("policy.layers", arrayOf({request({{"maxRetries", num(1)}})}));
    CHECK(errorsOf(layers) == "servers");
    Value layered = request(
        {{"policy.layers", arrayOf({request({{"maxRetries", num(1)}})})}, {"keyStore.scope", str("per-server")}});
    CHECK(errorsOf(layered) == "keyStore");
    CHECK(errorsOf(request({{"workload", str("occ")}, {"balancer.kind", str("random")}})) == "balancer");
}

TEST_CASE("§2 the echo: the new fields only when given and not their default", "[servers-fleet]") {
    const Value plain = fleet(request({{"clients", num(1)}, {"arrivals", str("once")}}));
    Value defaults = request({{"clients", num(1)},
                              {"arrivals", str("once")},
                              {"balancer.kind", str("round-robin")},
                              {"keyStore.scope", str("shared")},
                              {"policy.retryHost", str("any")},
                              {"faults", Value::array()},
                              {"server.serviceDist", str("fixed")},
                              {"policy.hostSelectionRetryMaxAttempts", num(1)}});
    const Value same = fleet(defaults);
    REQUIRE(ok(same));
    CHECK(sameValue(*same.find("request"), *plain.find("request")));
    CHECK(!same.find("totals")->find("servers"));
    const Value two = fleet(request({{"clients", num(1)}, {"arrivals", str("once")}, {"servers", Value::object()}}));
    REQUIRE(ok(two));
    CHECK(two.find("request")->find("servers")->find("count")->asNumber() == 2);
    CHECK(two.find("totals")->find("servers")->asArray().size() == 2);
    CHECK(two.find("timeline")->find("bins")->asArray()[0].find("servers")->asArray().size() == 2);
}

// ---- §12.5–§12.9: closed forms over long runs (one case each; their native times in the name) ----

namespace {

// The long runs are run as retrysim --fleet --no-limits runs them: §12.6's 86,400,000 ms timeout
// keeps every request's record to the horizon in the cost bound's model (docs/servers.md §12.6).
ServiceResult runLong(const Value& raw) {
    FleetOptions options;
    options.costBound = false;
    FleetParsed p = parseFleetRequest(raw, options);
    INFO(errorFields(toValue(p.errors)));
    REQUIRE(p.errors.empty());
    return simulateService(*p.request);
}

// §12.5–§12.9's "no timeouts, no network": Poisson clients, legs of 0, a timeout of a day.
Value noTimeouts(double clients, double rate) {
    return request({{"clients", num(clients)},
                    {"ratePerClient", num(rate)},
                    {"arrivals", str("poisson")},
                    {"durationMs", num(600000)},
                    {"trigger", Value::null()},
                    {"network.dist", str("fixed")},
                    {"network.ms", num(0)},
                    {"policy.clientTimeoutMs", num(86400000)}});
}

// §12.6–§12.9's one server and no retries over noTimeouts(clients, rate): `workers` (null: no
// limit), the service time drawn from `dist` with median or mean `serviceMs` (and `sigma`, a
// log-normal's), run long.
ServiceResult oneServerRun(double clients, double rate, Value workers, const char* dist, double serviceMs,
                           std::optional<double> sigma = std::nullopt) {
    Value q = noTimeouts(clients, rate);
    setPath(q, "servers.count", num(1));
    setPath(q, "server.workers", std::move(workers));
    setPath(q, "server.serviceDist", str(dist));
    setPath(q, "server.serviceMs", num(serviceMs));
    if (sigma) setPath(q, "server.serviceSigma", num(*sigma));
    setPath(q, "policy.maxRetries", num(0));
    return runLong(q);
}

bool withinErrors(double share, double p, double n, double errors) {
    const double se = std::sqrt(p * (1 - p) / n);
    INFO("share " << share << ", p " << p << ", n " << n << ", standard error " << se);
    return std::fabs(share - p) <= errors * se;
}

}  // namespace

TEST_CASE(
    "§12.5 one bad host of four, uniform random, no timeouts, N = 2: (1/4)^2 of requests fail every attempt, "
    "(1/4)^3 with previous-hosts (A = 1), none with round robin and previous-hosts (about 4 s)",
    "[servers-fleet][long]") {
    Value q = noTimeouts(1000, 1);
    setPath(q, "server.workers", Value::null());
    setPath(q, "server.serviceMs", num(0));
    setPath(q, "policy.baseBackoffMs", num(0));
    setPath(q, "policy.maxRetries", num(1));
    setPath(q, "servers.count", num(4));
    setPath(q, "servers.overrides", arrayOf({override0("failureRate", num(1))}));
    setPath(q, "balancer.kind", str("random"));
    const ServiceResult any = runLong(q);
    const double n = static_cast<double>(any.totals.requests);
    CHECK(n > 590000);
    CHECK(withinErrors(static_cast<double>(failed(any, EndReason::AttemptLimit)) / n, 1.0 / 16, n, 4));
    setPath(q, "policy.retryHost", str("previous-hosts"));
    const ServiceResult previous = runLong(q);
    const double m = static_cast<double>(previous.totals.requests);
    CHECK(withinErrors(static_cast<double>(failed(previous, EndReason::AttemptLimit)) / m, 1.0 / 64, m, 4));
    // Round robin, either scope, with previous-hosts: a retry's pick 1 is never server 0 again.
    setPath(q, "durationMs", num(60000));
    setPath(q, "balancer.kind", str("round-robin"));
    for (const char* scope : {"client", "fleet"}) {
        setPath(q, "balancer.scope", str(scope));
        const ServiceResult rr = runLong(q);
        CHECK(rr.totals.requests > 50000);
        CHECK(rr.totals.succeeded == rr.totals.requests);
    }
}

TEST_CASE(
    "§12.6 M/M/1: exponential service of mean 0.25 ms, λ = 2 a ms: the mean time in system within 2 % of "
    "1/(μ − λ) = 0.5 ms (about 4 s)",
    "[servers-fleet][long]") {
    const ServiceResult r = oneServerRun(1000, 2, num(1), "exponential", 0.25);
    REQUIRE(r.totals.servers[0].meanResidenceMs);
    CHECK(r.totals.servers[0].completions > 1150000);
    CHECK(*r.totals.servers[0].meanResidenceMs == Approx(0.5).epsilon(0.02));
}

TEST_CASE(
    "§12.7 M/M/c: four workers, mean service 1.5 ms, λ = 2 a ms: the mean time in system within 2 % of "
    "Erlang C's 1.5 × 80/53 = 2.26415 ms (about 4 s)",
    "[servers-fleet][long]") {
    const ServiceResult r = oneServerRun(1000, 2, num(4), "exponential", 1.5);
    REQUIRE(r.totals.servers[0].meanResidenceMs);
    CHECK(*r.totals.servers[0].meanResidenceMs == Approx(1.5 * 80.0 / 53.0).epsilon(0.02));
}

TEST_CASE(
    "§12.8 the log-normal, median 50, σ 1: latency p50 within 0.7 % of 50, meanServiceMs within 0.7 % of "
    "50 e^0.5 = 82.436 (about 2 s)",
    "[servers-fleet][long]") {
    const ServiceResult r = oneServerRun(100, 10, Value::null(), "lognormal", 50, 1.0);
    REQUIRE(r.totals.latencyMs);
    CHECK(r.totals.latencyMs->p50 == Approx(50).epsilon(0.007));
    REQUIRE(r.totals.servers[0].meanServiceMs);
    CHECK(*r.totals.servers[0].meanServiceMs == Approx(50 * 1.6487212707001282).epsilon(0.007));
}

TEST_CASE("§12.9 exponential service of mean 50: meanServiceMs within 0.52 % of 50 (about 2 s)",
          "[servers-fleet][long]") {
    const ServiceResult r = oneServerRun(100, 10, Value::null(), "exponential", 50);
    REQUIRE(r.totals.servers[0].meanServiceMs);
    CHECK(*r.totals.servers[0].meanServiceMs == Approx(50).epsilon(0.0052));
}

TEST_CASE("§5 the classes refused and reset: 5xx covers both; each alone retries only its own", "[servers-fleet]") {
    auto classes = [](std::initializer_list<const char*> names) {
        Value list = Value::array();
        for (const char* n : names) list.push(str(n));
        return list;
    };
    Value refusal = twelve();
    setPath(refusal, "faults", arrayOf({fault("crash", {num(0)}, 0, 1000)}));
    Value reset = twelve();
    setPath(reset, "faults", arrayOf({fault("crash", {num(0)}, 20, 1000)}));
    setPath(refusal, "policy.retryOn", classes({"timeout"}));
    setPath(reset, "policy.retryOn", classes({"timeout"}));
    CHECK(failed(run(refusal), EndReason::NotRetryable) == 1);
    CHECK(run(refusal).totals.endMs == 10);
    CHECK(failed(run(reset), EndReason::NotRetryable) == 1);
    setPath(refusal, "policy.retryOn", classes({"refused"}));
    setPath(reset, "policy.retryOn", classes({"refused"}));
    CHECK(latency(run(refusal)) == 170);
    CHECK(failed(run(reset), EndReason::NotRetryable) == 1);
    setPath(refusal, "policy.retryOn", classes({"reset"}));
    setPath(reset, "policy.retryOn", classes({"reset"}));
    CHECK(failed(run(refusal), EndReason::NotRetryable) == 1);
    CHECK(latency(run(reset)) == 185);
    CHECK(errorsOf(with5(classes({"timeout", "5xx", "429", "refused", "reset", "timeout"}))) == "policy.retryOn");
}

TEST_CASE(
    "§8.4 with hedging each copy picks its host: least-outstanding sends copy 1 to server 0 (BALANCE(0, 0, 0) "
    "draw 0, 0.241…, of the tie) and copy 2, at the same instant, to server 1, the one with none outstanding",
    "[servers-fleet]") {
    Value q = twelve();
    setPath(q, "balancer.kind", str("least-outstanding"));
    setPath(q, "policy.maxRetries", num(0));
    setPath(q, "policy.hedging.maxAttempts", num(2));
    setPath(q, "policy.hedging.delayMs", num(0));
    const ServiceResult r = run(q);
    CHECK(latency(r) == 60);
    CHECK(r.totals.servers[0].attempts == 1);
    CHECK(r.totals.servers[1].attempts == 1);
    CHECK(r.totals.servers[0].okInTime == 1);
    CHECK(r.totals.servers[1].late == 1);
}
