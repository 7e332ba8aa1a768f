// FLEET.md §3: every field validated, every error named with its dotted path; the echo fills
// every default; the cross-field rules and the work bounds are checked before anything runs.
#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

#include "fleet_support.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

struct Bad {
    const char* path;  // where the bad value goes, and the field the error must name
    Value value;
};

std::string fieldsFor(const Value& raw) { return errorFields(fleet(raw)); }

}  // namespace

TEST_CASE("the empty request is the opening fleet run, every field echoed with its default", "[fleet][validation]") {
    const Value result = fleet(Value::object());
    REQUIRE(ok(result));
    const Value& echo = *result.find("request");
    CHECK(sameValue(echo, fleetRequestToValue(FleetRequest{})));
    CHECK(echo.find("clients")->asNumber() == 100);
    CHECK(echo.find("network")->find("dist")->asString() == "fixed");
    CHECK(echo.find("network")->find("ms")->asNumber() == 5);
    CHECK(echo.find("server")->find("workers")->asNumber() == 10);
    CHECK(echo.find("server")->find("queueLimit")->isNull());
    CHECK(echo.find("trigger")->find("factor")->asNumber() == 4);
    CHECK(echo.find("policy")->find("retryOn")->asArray().size() == 2);
    CHECK(echo.find("gates")->find("quota")->isNull());
    CHECK(result.find("recovery")->find("metastable")->asBool());
}

TEST_CASE("a bad value in any field is an error naming that field's dotted path", "[fleet][validation]") {
    const std::vector<Bad> bad = {
        {"workload", str("batch")},          {"seed", num(-1)},
        {"seed", num(9007199254740992.0)},    {"seed", num(1.5)},
        {"clients", num(0)},                  {"clients", num(10001)},
        {"clients", str("100")},              {"arrivals", str("bursty")},
        {"ratePerClient", num(0)},            {"ratePerClient", num(1001)},
        {"durationMs", num(0)},               {"durationMs", num(600001)},
        {"spike", num(1)},                    {"spike.startMs", num(-1)},
        {"spike.endMs", num(86400001)},       {"spike.factor", num(0.001)},
        {"network", Value::null()},           {"network.dist", str("pareto")},
        {"network.ms", num(60001)},           {"network.ms", num(-1)},
        {"server", Value::null()},            {"server.workers", num(0)},
        {"server.workers", num(100001)},      {"server.workers", num(2.5)},
        {"server.queueLimit", num(-1)},       {"server.queueLimit", num(10000001)},
        {"server.queueOrder", str("random")}, {"server.serviceMs", num(600001)},
        {"server.serviceMsPerInFlight", num(60001)}, {"server.failureRate", num(1.5)},
        {"server.dropStale", str("always")},  {"server.rejectRetryAfterMs", num(-5)},
        {"trigger", str("slowdown")},         {"trigger.kind", str("spike")},
        {"trigger.startMs", num(-1)},         {"trigger.endMs", num(86400001)},
        {"trigger.factor", num(0.5)},         {"trigger.factor", num(1001)},
        {"policy", Value::null()},            {"policy.maxRetries", num(101)},
        {"policy.maxRetries", num(-1)},       {"policy.maxRetries", Value::null()},
        {"policy.baseBackoffMs", num(-1)},    {"policy.backoffMultiplier", num(0.5)},
        {"policy.backoffMultiplier", num(11)}, {"policy.maxBackoffMs", num(86400001)},
        {"policy.jitter", str("random")},     {"policy.clientTimeoutMs", num(0)},
        {"policy.deadlineMs", num(-1)},       {"policy.retryOn", str("timeout")},
        {"policy.honourRetryAfter", num(1)},  {"gates", Value::null()},
        {"gates.quota", num(5)},              {"gates.quota.scope", str("region")},
        {"gates.quota.capacity", num(-1)},    {"gates.quota.retryCost", num(1e10)},
        {"gates.quota.timeoutCost", str("10")}, {"gates.quota.successIncrement", num(-1)},
        {"gates.bucket.capacity", num(-1)},   {"gates.bucket.deposit", num(-0.1)},
        {"gates.bucket.cost", num(1e10)},     {"gates.bucket.scope", num(1)},
        {"gates.throttle.maxTokens", num(0.5)}, {"gates.throttle.maxTokens", num(1001)},
        {"gates.throttle.tokenRatio", num(0)}, {"gates.throttle.tokenRatio", num(2)},
        {"gates.budget.percent", num(101)},   {"gates.budget.minPerSecond", num(-1)},
        {"gates.budget.ttlMs", num(0)},       {"gates.breaker.window", num(0)},
        {"gates.breaker.window", num(1.5)},   {"gates.breaker.minCalls", num(10000001)},
        {"gates.breaker.failurePercent", num(101)}, {"gates.breaker.openMs", num(-1)},
        {"gates.breaker.halfOpenCalls", num(0)}, {"operation", str("create")},
        {"idempotencyKey", str("yes")},       {"binMs", num(0)},
        {"binMs", num(1.5)},                  {"runs", num(0)},
        {"runs", num(1001)},
    };
    for (const Bad& b : bad) {
        INFO(b.path);
        Value raw = Value::object();
        if (std::string(b.path).rfind("spike.", 0) == 0)  // a spike needs all three fields
            raw = request({{"spike.startMs", num(0)}, {"spike.endMs", num(1)}, {"spike.factor", num(2)}});
        setPath(raw, b.path, b.value);
        const Value result = fleet(raw);
        REQUIRE_FALSE(ok(result));
        CHECK(errorFields(result) == b.path);
        // The message names the field too, so it reads on its own.
        CHECK(result.find("errors")->asArray()[0].find("message")->asString().find(b.path) != std::string::npos);
    }
}

TEST_CASE("numbers that are not finite, and values with no JSON form, are errors", "[fleet][validation]") {
    CHECK(fieldsFor(request({{"ratePerClient", num(std::numeric_limits<double>::infinity())}})) == "ratePerClient");
    CHECK(fieldsFor(request({{"server.failureRate", num(std::numeric_limits<double>::quiet_NaN())}})) == "server.failureRate");
    CHECK(fieldsFor(request({{"clients", Value::unsupported("a function")}})) == "clients");
    CHECK(fieldsFor(Value::array()) == "");
    CHECK_FALSE(ok(fleet(Value::array())));
}

TEST_CASE("unknown fields at any level are errors", "[fleet][validation]") {
    CHECK(fieldsFor(request({{"client", num(5)}})) == "client");
    CHECK(fieldsFor(request({{"server.worker", num(5)}})) == "server.worker");
    CHECK(fieldsFor(request({{"policy.maxRetry", num(5)}})) == "policy.maxRetry");
    CHECK(fieldsFor(request({{"gates.quota.cost", num(5)}})) == "gates.quota.cost");
    CHECK(fieldsFor(request({{"gates.limiter", Value::object()}})) == "gates.limiter");
    CHECK(fieldsFor(request({{"spike.startMs", num(1)}, {"spike.endMs", num(2)}, {"spike.factor", num(2)}, {"spike.width", num(2)}})) ==
          "spike.width");
    // A field of another variant is unknown to this one.
    CHECK(fieldsFor(request({{"network.ms", num(5)}, {"network.sd", num(1)}})) == "network.sd");
    CHECK(fieldsFor(request({{"trigger.kind", str("outage")}, {"trigger.startMs", num(1)}, {"trigger.endMs", num(2)},
                             {"trigger.factor", num(2)}})) == "trigger.factor");
}

TEST_CASE("variants fill from their defaults only when their discriminator is the default's or absent", "[fleet][validation]") {
    // Absent or fixed: a partial network takes the default's 5 ms.
    Value result = fleet(request({{"network.dist", str("fixed")}}));
    REQUIRE(ok(result));
    CHECK(result.find("request")->find("network")->find("ms")->asNumber() == 5);
    // Another dist needs its own parameters, each named.
    CHECK(fieldsFor(request({{"network.dist", str("uniform")}})) == "network.lo,network.hi");
    CHECK(fieldsFor(request({{"network.dist", str("normal")}, {"network.mean", num(3)}})) == "network.sd");
    // A trigger given only in part is the default slowdown with that part changed.
    result = fleet(request({{"trigger.startMs", num(5000)}}));
    REQUIRE(ok(result));
    CHECK(result.find("request")->find("trigger")->find("endMs")->asNumber() == 20000);
    CHECK(fieldsFor(request({{"trigger.kind", str("outage")}})) == "trigger.startMs,trigger.endMs");
    // A spike needs all three fields.
    CHECK(fieldsFor(request({{"spike.startMs", num(1)}})) == "spike.endMs,spike.factor");
    // Null turns a trigger, a spike and each gate off; a gate given as {} takes every default.
    result = fleet(request({{"trigger", Value::null()}, {"spike", Value::null()}, {"gates.bucket", Value::object()}}));
    REQUIRE(ok(result));
    CHECK(result.find("recovery")->isNull());
    CHECK(result.find("request")->find("gates")->find("bucket")->find("capacity")->asNumber() == 5);
    CHECK(result.find("request")->find("gates")->find("bucket")->find("scope")->asString() == "client");
}

TEST_CASE("cross-field rules: lo ≤ hi, startMs ≤ endMs, durationMs ≤ 10,000 bins, distinct classes", "[fleet][validation]") {
    CHECK(fieldsFor(request({{"network.dist", str("uniform")}, {"network.lo", num(5)}, {"network.hi", num(4)}})) == "network.hi");
    CHECK(ok(fleet(request({{"network.dist", str("uniform")}, {"network.lo", num(5)}, {"network.hi", num(5)}}))));
    CHECK(fieldsFor(request({{"spike.startMs", num(5)}, {"spike.endMs", num(4)}, {"spike.factor", num(2)}})) == "spike.endMs");
    CHECK(fieldsFor(request({{"trigger.startMs", num(30000)}})) == "trigger.endMs");
    CHECK(fieldsFor(request({{"durationMs", num(10001)}, {"binMs", num(1)}})) == "durationMs");
    CHECK(ok(fleet(request({{"durationMs", num(10000)}, {"binMs", num(1)}}))));
    Value twice = Value::array({str("5xx"), str("5xx")});
    CHECK(fieldsFor(request({{"policy.retryOn", twice}})) == "policy.retryOn[1]");
    // "429" is a class since docs/throttling.md §3 (the server's admission limit); "4xx" is none.
    CHECK(fieldsFor(request({{"policy.retryOn", Value::array({str("4xx")})}})) == "policy.retryOn[0]");
}

TEST_CASE("maxRetries null is the occ workload's no-limit, and then maxBackoffMs must not be null", "[fleet][validation][occ]") {
    CHECK(fieldsFor(request({{"policy.maxRetries", Value::null()}})) == "policy.maxRetries");
    Value result = fleet(request({{"workload", str("occ")}, {"clients", num(5)}, {"runs", num(2)}}));
    REQUIRE(ok(result));
    CHECK(result.find("request")->find("policy")->find("maxRetries")->isNull());
    CHECK(result.find("request")->find("policy")->find("maxBackoffMs")->asNumber() == 2000);
    CHECK(result.find("request")->find("network")->find("dist")->asString() == "normal");
    CHECK(result.find("runs")->asArray().size() == 2);
    CHECK(fieldsFor(request({{"workload", str("occ")}, {"policy.maxBackoffMs", Value::null()}})) == "policy.maxBackoffMs");
    CHECK(ok(fleet(request({{"workload", str("occ")}, {"clients", num(3)}, {"runs", num(1)}, {"policy.maxRetries", num(2)},
                            {"policy.maxBackoffMs", Value::null()}}))));
}

TEST_CASE("the work bounds are checked before anything runs", "[fleet][validation][bounds]") {
    // 10,000 × 1 × 600 s × 4 attempts = 24,000,000 > 20,000,000: on durationMs.
    CHECK(fieldsFor(request({{"clients", num(10000)}, {"durationMs", num(600000)}, {"binMs", num(1000)}})) == "durationMs");
    // The spike's factor counts when above 1.
    CHECK(fieldsFor(request({{"clients", num(10000)}, {"durationMs", num(100000)},
                             {"spike.startMs", num(0)}, {"spike.endMs", num(1)}, {"spike.factor", num(10)}})) == "durationMs");
    // Once is not bounded this way: 10,000 clients × 101 attempts is fine.
    CHECK(fieldsFor(request({{"clients", num(10000)}, {"durationMs", num(600000)}, {"arrivals", str("once")}, {"trigger", Value::null()},
                             {"policy.maxRetries", num(0)}})) == "");
    // occ: at most 1,000 clients, and clients × runs ≤ 200,000, on clients.
    CHECK(fieldsFor(request({{"workload", str("occ")}, {"clients", num(1001)}})) == "clients");
    CHECK(fieldsFor(request({{"workload", str("occ")}, {"clients", num(1000)}, {"runs", num(201)}})) == "clients");
}

TEST_CASE("whole numbers may be written 10.0, and every error of a request is reported at once", "[fleet][validation]") {
    const Value result = fleet(request({{"clients", num(3.0)}, {"server.workers", num(2.0)}, {"trigger", Value::null()},
                                        {"durationMs", num(2000)}}));
    REQUIRE(ok(result));
    CHECK(result.find("request")->find("clients")->asNumber() == 3);
    CHECK(fieldsFor(request({{"clients", num(0)}, {"server.workers", num(0)}, {"gates.quota.capacity", num(-1)}})) ==
          "clients,server.workers,gates.quota.capacity");
}

TEST_CASE("the fleet's two tables: every §3 field a row with its group and description, defaults as the echo of {}", "[fleet][validation][schema]") {
    const Value schema = fleetSchema();
    for (const char* table : {"fleet", "occ"}) {
        INFO(table);
        const Value::Array& rows = schema.find(table)->asArray();
        std::vector<std::string> names;
        for (const Value& row : rows) {
            names.push_back(row.find("name")->asString());
            CHECK_FALSE(row.find("description")->asString().empty());
            CHECK_FALSE(row.find("group")->asString().empty());
        }
        // servers, balancer, faults and keyStore: docs/servers.md §2 (issue 39).
        CHECK(names == std::vector<std::string>{"workload", "seed", "clients", "arrivals", "ratePerClient", "durationMs",
                                                "spike", "network", "server", "servers", "balancer", "trigger", "faults",
                                                "policy", "gates", "operation", "idempotencyKey", "keyStore", "binMs",
                                                "runs"});
    }
    // The occ table differs in the defaults of network and policy only (§7).
    FleetRequest occ = occDefaults();
    CHECK(occ.network.dist == NetworkDist::Normal);
    CHECK(occ.network.mean == 10);
    CHECK(occ.network.sd == 2);
    CHECK_FALSE(occ.policy.maxRetries);
    CHECK(occ.policy.baseBackoffMs == 10);
    CHECK(*occ.policy.maxBackoffMs == 2000);
    CHECK(occ.policy.jitter == Jitter::Full);
    CHECK(occ.runs == 100);
}

TEST_CASE("a typed request's echo is what the table makes of it, and reads back as the same request", "[fleet][validation]") {
    // Requests varied in every part the echo writes.
    std::vector<FleetRequest> requests(6);
    requests[1].spike = Spike{100, 200, 3};
    requests[1].network = Network{NetworkDist::Uniform, 0, 3, 9, 0, 0};
    requests[1].server.workers.reset();
    requests[1].server.queueLimit = 7u;
    requests[2].trigger = Trigger{TriggerKind::Outage, 5, 10, 1};
    requests[2].policy.retryOn = {"5xx"};
    requests[2].policy.retryTimeout = false;
    requests[2].gates.quota = QuotaGate{GateScope::Fleet, 1, 2, 3, 4};
    requests[2].gates.breaker = BreakerGate{};
    requests[3].trigger.reset();
    requests[3].gates.bucket = BucketGate{};
    requests[3].gates.throttle = ThrottleGate{};
    requests[3].gates.budget = BudgetGate{GateScope::Fleet, 10, 0, 5000};
    requests[3].operation = Operation::Read;
    requests[3].idempotencyKey = true;
    requests[4] = occDefaults();
    requests[4].clients = 20;
    requests[5].network = Network{NetworkDist::Exponential, 0, 0, 0, 7, 0};
    requests[5].policy.jitter = Jitter::Decorrelated;
    requests[5].policy.maxBackoffMs = 500.0;
    requests[5].policy.deadlineMs = 900.0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        INFO("request " << i);
        const Value echo = fleetRequestToValue(requests[i]);
        const FleetParsed parsed = parseFleetRequest(echo);
        REQUIRE(parsed.errors.empty());
        CHECK(sameValue(parsed.echo, echo));
        CHECK(sameValue(fleetRequestToValue(*parsed.request), echo));
    }
}
