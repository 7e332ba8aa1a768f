// FLEET.md §3: every field validated, every error named with its dotted path; the echo fills
// every default; the cross-field rules and the work bounds are checked before anything runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>
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
    CHECK(sameValue(echo, parseFleetRequest(rawFleet(FleetRequest{})).echo));  // the struct's defaults are the table's
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
        {"workload", str("batch")},
        {"seed", num(-1)},
        {"seed", num(9007199254740992.0)},
        {"seed", num(1.5)},
        {"clients", num(0)},
        {"clients", num(10001)},
        {"clients", str("100")},
        {"arrivals", str("bursty")},
        {"ratePerClient", num(0)},
        {"ratePerClient", num(1001)},
        {"durationMs", num(0)},
        {"durationMs", num(600001)},
        {"spike", num(1)},
        {"spike.startMs", num(-1)},
        {"spike.endMs", num(86400001)},
        {"spike.factor", num(0.001)},
        {"network", Value::null()},
        {"network.dist", str("pareto")},
        {"network.ms", num(60001)},
        {"network.ms", num(-1)},
        {"server", Value::null()},
        {"server.workers", num(0)},
        {"server.workers", num(100001)},
        {"server.workers", num(2.5)},
        {"server.queueLimit", num(-1)},
        {"server.queueLimit", num(10000001)},
        {"server.queueOrder", str("random")},
        {"server.serviceMs", num(600001)},
        {"server.serviceMsPerInFlight", num(60001)},
        {"server.failureRate", num(1.5)},
        {"server.dropStale", str("always")},
        {"server.rejectRetryAfterMs", num(-5)},
        {"trigger", str("slowdown")},
        {"trigger.kind", str("spike")},
        {"trigger.startMs", num(-1)},
        {"trigger.endMs", num(86400001)},
        {"trigger.factor", num(0.5)},
        {"trigger.factor", num(1001)},
        {"policy", Value::null()},
        {"policy.maxRetries", num(101)},
        {"policy.maxRetries", num(-1)},
        {"policy.maxRetries", Value::null()},
        {"policy.baseBackoffMs", num(-1)},
        {"policy.backoffMultiplier", num(0.5)},
        {"policy.backoffMultiplier", num(11)},
        {"policy.maxBackoffMs", num(86400001)},
        {"policy.jitter", str("random")},
        {"policy.clientTimeoutMs", num(0)},
        {"policy.deadlineMs", num(-1)},
        {"policy.retryOn", str("timeout")},
        {"policy.honourRetryAfter", num(1)},
        {"gates", Value::null()},
        {"gates.quota", num(5)},
        {"gates.quota.scope", str("region")},
        {"gates.quota.capacity", num(-1)},
        {"gates.quota.retryCost", num(1e10)},
        {"gates.quota.timeoutCost", str("10")},
        {"gates.quota.successIncrement", num(-1)},
        {"gates.bucket.capacity", num(-1)},
        {"gates.bucket.deposit", num(-0.1)},
        {"gates.bucket.cost", num(1e10)},
        {"gates.bucket.scope", num(1)},
        {"gates.throttle.maxTokens", num(0.5)},
        {"gates.throttle.maxTokens", num(1001)},
        {"gates.throttle.tokenRatio", num(0)},
        {"gates.throttle.tokenRatio", num(2)},
        {"gates.budget.percent", num(101)},
        {"gates.budget.minPerSecond", num(-1)},
        {"gates.budget.ttlMs", num(0)},
        {"gates.breaker.window", num(0)},
        {"gates.breaker.window", num(1.5)},
        {"gates.breaker.minCalls", num(10000001)},
        {"gates.breaker.failurePercent", num(101)},
        {"gates.breaker.openMs", num(-1)},
        {"gates.breaker.halfOpenCalls", num(0)},
        {"operation", str("create")},
        {"idempotencyKey", str("yes")},
        {"binMs", num(0)},
        {"binMs", num(1.5)},
        {"runs", num(0)},
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
    CHECK(fieldsFor(request({{"server.failureRate", num(std::numeric_limits<double>::quiet_NaN())}})) ==
          "server.failureRate");
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
    CHECK(
        fieldsFor(request(
            {{"spike.startMs", num(1)}, {"spike.endMs", num(2)}, {"spike.factor", num(2)}, {"spike.width", num(2)}})) ==
        "spike.width");
    // A field of another variant is unknown to this one.
    CHECK(fieldsFor(request({{"network.ms", num(5)}, {"network.sd", num(1)}})) == "network.sd");
    CHECK(fieldsFor(request({{"trigger.kind", str("outage")},
                             {"trigger.startMs", num(1)},
                             {"trigger.endMs", num(2)},
                             {"trigger.factor", num(2)}})) == "trigger.factor");
}

TEST_CASE("variants fill from their defaults only when their discriminator is the default's or absent",
          "[fleet][validation]") {
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

TEST_CASE("cross-field rules: lo ≤ hi, startMs ≤ endMs, durationMs ≤ 10,000 bins, distinct classes",
          "[fleet][validation]") {
    CHECK(fieldsFor(request({{"network.dist", str("uniform")}, {"network.lo", num(5)}, {"network.hi", num(4)}})) ==
          "network.hi");
    CHECK(ok(fleet(request({{"network.dist", str("uniform")}, {"network.lo", num(5)}, {"network.hi", num(5)}}))));
    CHECK(fieldsFor(request({{"spike.startMs", num(5)}, {"spike.endMs", num(4)}, {"spike.factor", num(2)}})) ==
          "spike.endMs");
    CHECK(fieldsFor(request({{"trigger.startMs", num(30000)}})) == "trigger.endMs");
    CHECK(fieldsFor(request({{"durationMs", num(10001)}, {"binMs", num(1)}})) == "durationMs");
    CHECK(ok(fleet(request({{"durationMs", num(10000)}, {"binMs", num(1)}}))));
    Value twice = Value::array({str("5xx"), str("5xx")});
    CHECK(fieldsFor(request({{"policy.retryOn", twice}})) == "policy.retryOn[1]");
    // "429" is a class since docs/throttling.md §3 (the server's admission limit); "4xx" is none.
    CHECK(fieldsFor(request({{"policy.retryOn", Value::array({str("4xx")})}})) == "policy.retryOn[0]");
}

TEST_CASE("maxRetries null is the occ workload's no-limit, and then maxBackoffMs must not be null",
          "[fleet][validation][occ]") {
    CHECK(fieldsFor(request({{"policy.maxRetries", Value::null()}})) == "policy.maxRetries");
    Value result = fleet(request({{"workload", str("occ")}, {"clients", num(5)}, {"runs", num(2)}}));
    REQUIRE(ok(result));
    CHECK(result.find("request")->find("policy")->find("maxRetries")->isNull());
    CHECK(result.find("request")->find("policy")->find("maxBackoffMs")->asNumber() == 2000);
    CHECK(result.find("request")->find("network")->find("dist")->asString() == "normal");
    CHECK(result.find("runs")->asArray().size() == 2);
    CHECK(fieldsFor(request({{"workload", str("occ")}, {"policy.maxBackoffMs", Value::null()}})) ==
          "policy.maxBackoffMs");
    CHECK(ok(fleet(request({{"workload", str("occ")},
                            {"clients", num(3)},
                            {"runs", num(1)},
                            {"policy.maxRetries", num(2)},
                            {"policy.maxBackoffMs", Value::null()}}))));
}

TEST_CASE("the work bounds are checked before anything runs", "[fleet][validation][bounds]") {
    // 10,000 × 1 × 600 s × 4 attempts = 24,000,000 > 20,000,000: on durationMs.
    CHECK(fieldsFor(request({{"clients", num(10000)}, {"durationMs", num(600000)}, {"binMs", num(1000)}})) ==
          "durationMs");
    // The spike's factor counts when above 1.
    CHECK(fieldsFor(request({{"clients", num(10000)},
                             {"durationMs", num(100000)},
                             {"spike.startMs", num(0)},
                             {"spike.endMs", num(1)},
                             {"spike.factor", num(10)}})) == "durationMs");
    // Once is not bounded this way: 10,000 clients × 101 attempts is fine.
    CHECK(fieldsFor(request({{"clients", num(10000)},
                             {"durationMs", num(600000)},
                             {"arrivals", str("once")},
                             {"trigger", Value::null()},
                             {"policy.maxRetries", num(0)}})) == "");
    // occ: at most 1,000 clients, and clients × runs ≤ 200,000, on clients.
    CHECK(fieldsFor(request({{"workload", str("occ")}, {"clients", num(1001)}})) == "clients");
    CHECK(fieldsFor(request({{"workload", str("occ")}, {"clients", num(1000)}, {"runs", num(201)}})) == "clients");
}

TEST_CASE("whole numbers may be written 10.0, and every error of a request is reported at once",
          "[fleet][validation]") {
    const Value result = fleet(request(
        {{"clients", num(3.0)}, {"server.workers", num(2.0)}, {"trigger", Value::null()}, {"durationMs", num(2000)}}));
    REQUIRE(ok(result));
    CHECK(result.find("request")->find("clients")->asNumber() == 3);
    CHECK(fieldsFor(request({{"clients", num(0)}, {"server.workers", num(0)}, {"gates.quota.capacity", num(-1)}})) ==
          "clients,server.workers,gates.quota.capacity");
}

TEST_CASE("the fleet's two tables: every §3 field a row with its group and description, defaults as the echo of {}",
          "[fleet][validation][schema]") {
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
        CHECK(names == std::vector<std::string>{"workload",   "seed",           "clients",  "arrivals", "ratePerClient",
                                                "durationMs", "spike",          "network",  "server",   "servers",
                                                "balancer",   "trigger",        "faults",   "policy",   "gates",
                                                "operation",  "idempotencyKey", "keyStore", "binMs",    "runs"});
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

TEST_CASE("a typed request written as a raw request (the tests' rawFleet) reads back as itself and runs as itself",
          "[fleet][validation]") {
    // Requests varied in every part of the request.
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
        const Value raw = rawFleet(requests[i]);
        const FleetParsed parsed = parseFleetRequest(raw);
        REQUIRE(parsed.errors.empty());
        CHECK(sameValue(parseFleetRequest(rawFleet(*parsed.request)).echo, parsed.echo));
        const Value result = fleet(raw);
        REQUIRE(ok(result));
        if (requests[i].workload == FleetWorkload::Service)
            CHECK(sameValue(*result.find("totals"),
                            *fleetToValue(Value::null(), requests[i], simulateService(requests[i])).find("totals")));
        else
            CHECK(sameValue(*result.find("mean"),
                            *fleetToValue(Value::null(), requests[i], simulateOcc(requests[i])).find("mean")));
    }
}

namespace {

// A dotted path into a request; "0" is a list's first item (policy.layers[0]).
using Path = std::vector<std::string>;

std::string dotted(const Path& p) {
    std::string out;
    for (const std::string& s : p) out += (out.empty() ? "" : s == "0" ? "" : ".") + (s == "0" ? "[0]" : s);
    return out;
}

const Value* at(const Value& v, const Path& p, std::size_t i = 0) {
    if (i == p.size()) return &v;
    if (p[i] == "0")
        return v.kind() == Value::Kind::Array && !v.asArray().empty() ? at(v.asArray()[0], p, i + 1) : nullptr;
    const Value* m = v.kind() == Value::Kind::Object ? v.find(p[i]) : nullptr;
    return m ? at(*m, p, i + 1) : nullptr;
}

// `v` with the member at `p` set to `x`, or removed when x is empty; the objects on the way made.
Value edited(const Value& v, const Path& p, const std::optional<Value>& x, std::size_t i = 0) {
    if (i == p.size()) return *x;
    if (p[i] == "0") {
        const Value item = v.kind() == Value::Kind::Array && !v.asArray().empty() ? v.asArray()[0] : Value::object();
        Value list = Value::array();
        list.push(edited(item, p, x, i + 1));
        return list;
    }
    const bool last = i + 1 == p.size();
    Value out = Value::object();
    bool found = false;
    if (v.kind() == Value::Kind::Object)
        for (const Value::Member& m : v.asObject()) {
            if (m.key != p[i]) {
                out.set(m.key, m.value);
                continue;
            }
            found = true;
            if (x || !last) out.set(m.key, edited(m.value, p, x, i + 1));
        }
    if (!found && x) out.set(p[i], edited(Value::object(), p, x, i + 1));
    return out;
}

// A valid value of a leaf row that is not its default (the table's literal), chosen near it so
// that the rules across fields still hold (startMs ≤ endMs at both, whole seconds stay whole).
Value changed(const Field& f) {
    const Literal& d = f.defaultValue;
    switch (f.type) {
        case FieldType::Boolean: return Value::boolean(!(d.kind == Literal::Kind::Boolean && d.flag));
        case FieldType::Choice:
            for (const Choice& c : f.choices)
                if (d.kind != Literal::Kind::String || c.name != d.text) return Value::string(c.name);
            break;
        case FieldType::String: return Value::string(std::string(std::max<std::size_t>(f.minLength, 1), 'x'));
        case FieldType::List: {  // of choices: the last alone, or the first when that is the default
            Value one = Value::array();
            if (f.item.front().type == FieldType::Number) {  // of numbers (server indices): the lowest alone
                one.push(Value::number(f.item.front().lo));
                return one;
            }
            one.push(Value::string(f.item.front().choices.back().name));
            if (d.kind == Literal::Kind::List && d.matches(one)) {
                one = Value::array();
                one.push(Value::string(f.item.front().choices.front().name));
            }
            return one;
        }
        case FieldType::Number: {
            std::vector<double> tries;
            if (d.kind == Literal::Kind::Number)
                tries = {2 * d.x, d.x + 1, f.lo, f.hi};
            else
                tries = {f.lo};
            for (double x : tries)
                if (x >= f.lo && x <= f.hi && !(f.whole && std::floor(x) != x) &&
                    !(d.kind == Literal::Kind::Number && x == d.x))
                    return Value::number(x);
            break;
        }
        default: break;
    }
    FAIL("no value other than the default for " << f.name);
    return Value::null();
}

bool holdsAtDefault(const Presence& rule, const std::vector<Field>& siblings) {
    for (const Field& s : siblings)
        if (s.name == rule.field) return sameValue(s.defaultValue.toValue(), rule.value.toValue());
    return false;
}

// Walks a table's rows, each given a value that is not its default, given its default, and left
// out, each run through fleet(): the result's `request` must hold what the table says of it. No
// row is named here: a row added to the table is walked as it stands.
struct EchoWalk {
    const FieldTable& table;
    std::string tableName;
    Value base;  // short and cheap: every request of the walk starts from it
    int checked = 0;
    std::set<std::string> sparseObjects;  // objects (filled by default) echoed only when not at their default

    // What a path needs of the rest of the request (FLEET.md §3's rules across fields;
    // docs/throttling.md §6 and §8: A6's hedging needs maxRetries 0, §8's a deadline).
    std::vector<std::pair<Path, Value>> needsOf(const Path& p) const {
        if (p.size() >= 2 && p[0] == "policy" && p[1] == "hedging")
            return {{{"policy", "maxRetries"}, num(0)}, {{"policy", "deadlineMs"}, num(1000)}};
        // docs/servers.md §2: an override's serviceSigma only where its server's serviceDist is
        // "lognormal" (a rule across the override and the server object, not the table's).
        if (p == Path{"keyStore", "lagMs"})
            return {{{"keyStore", "scope"}, str("replicated")}};  // a lag: replicated only
        if (p.size() == 4 && p[0] == "servers" && p[1] == "overrides" && p[3] == "serviceSigma")
            return {{{"servers", "overrides", p[2], "serviceDist"}, str("lognormal")}};
        return {};
    }

    // The echo fleet() gives for `raw`, which must be accepted; or nothing, when the request is
    // refused for the walked field itself and `refusable` (a null that a rule across fields forbids).
    std::optional<Value> echoOf(const Value& raw, const Path& p, bool refusable = false) {
        const Value result = fleet(raw);
        if (refusable && errorFields(result) == dotted(p)) return std::nullopt;
        INFO(tableName << " " << dotted(p) << ": " << errorFields(result));
        REQUIRE(ok(result));
        const Value& echo = *result.find("request");
        CHECK(sameValue(parseFleetRequest(echo).echo, echo));  // the echo reads back as itself
        ++checked;
        return echo;
    }

    // An object's members as given around a walked one: those it needs (required, or required
    // by a sibling at its default), so that `{}` plus them is accepted.
    Value minimal(const Field& object) const {
        Value v = Value::object();
        for (const Field& m : object.members)
            if (m.required || (!m.requiredWhen.field.empty() && holdsAtDefault(m.requiredWhen, object.members)))
                v.set(m.name, changed(m));
        return v;
    }

    void rows(const std::vector<Field>& fields, const Path& parent, const Value& context) {
        for (const Field& f : fields) {
            Path p = parent;
            p.push_back(f.name);
            row(f, fields, p, context);
        }
    }

    void row(const Field& f, const std::vector<Field>& siblings, const Path& p, Value context) {
        INFO(tableName << " " << dotted(p));
        for (const auto& [path, value] : needsOf(p)) context = edited(context, path, value);
        if (f.nullable && f.defaultValue.kind != Literal::Kind::Null) {  // null given: echoed as null
            if (auto echo = echoOf(edited(context, p, Value::null()), p, true)) {
                REQUIRE(at(*echo, p));
                CHECK(at(*echo, p)->isNull());
            }
        }
        if (f.type == FieldType::Object) {
            const Value given = minimal(f);
            const Value inside = edited(context, p, given);
            const std::optional<Value> echo = echoOf(inside, p);
            const bool sparseFilled = f.sparseMember && f.defaultValue.kind != Literal::Kind::Null;
            if (sparseFilled) sparseObjects.insert(dotted(p));
            if (sparseFilled && given.asObject().empty()) {
                CHECK(at(*echo, p) == nullptr);  // a sparse object given at its default: not echoed
            } else {
                REQUIRE(at(*echo, p));
                CHECK(at(*echo, p)->kind() == Value::Kind::Object);
            }
            if (f.nullable && f.defaultValue.kind == Literal::Kind::Null) absentOrNull(f, p, context);
            rows(f.members, p, inside);
            return;
        }
        if (f.type == FieldType::List && f.item.front().type == FieldType::Object) {
            Path first = p;
            first.push_back("0");
            const Value list = edited(context, first, minimal(f.item.front()));
            REQUIRE(echoOf(list, p));
            if (f.nullable && f.defaultValue.kind == Literal::Kind::Null) absentOrNull(f, p, context);
            rows(f.item.front().members, first, list);
            return;
        }
        if (f.type == FieldType::Variant) return variant(f, p, context);
        if (!f.onlyWhen.field.empty()) {  // a row only with a sibling's value: that value given
            Path sibling(p.begin(), p.end() - 1);
            sibling.push_back(f.onlyWhen.field);
            context = edited(context, sibling, f.onlyWhen.value.toValue());
        }
        leaf(f, siblings, p, context);
    }

    // A nullable row whose default is null, left out or given null: null in the echo, or absent
    // when the row is sparse.
    void absentOrNull(const Field& f, const Path& p, const Value& context) {
        for (const std::optional<Value>& given : {std::optional<Value>(), std::optional<Value>(Value::null())}) {
            const Value echo = *echoOf(edited(context, p, given), p);
            if (f.sparseMember || f.sparseEcho) {
                CHECK(at(echo, p) == nullptr);
            } else {
                REQUIRE(at(echo, p));
                CHECK(at(echo, p)->isNull());
            }
        }
    }

    void variant(const Field& f, const Path& p, const Value& context) {
        for (const Variant& option : f.variants) {
            INFO("variant " << option.name);
            Value given = Value::object();
            given.set(f.discriminator, Value::string(option.name));
            for (const Field& m : option.members) given.set(m.name, changed(m));
            const Value echo = *echoOf(edited(context, p, given), p);
            for (const Value::Member& m : given.asObject()) {
                Path q = p;
                q.push_back(m.key);
                REQUIRE(at(echo, q));
                CHECK(sameValue(*at(echo, q), m.value));
            }
        }
        // The default variant's members, left out, are echoed with their defaults.
        Value only = Value::object();
        only.set(f.discriminator, Value::string(f.variants.front().name));
        const Value echo = *echoOf(edited(context, p, only), p);
        for (const Field& m : f.variants.front().members) {
            Path q = p;
            q.push_back(m.name);
            if (m.sparseMember) {  // a sparse member at its default is not echoed
                CHECK(at(echo, q) == nullptr);
                continue;
            }
            REQUIRE(at(echo, q));
            CHECK(sameValue(*at(echo, q), defaultValueOf(m)));
        }
    }

    void leaf(const Field& f, const std::vector<Field>& siblings, const Path& p, const Value& context) {
        // Given a value that is not its default: echoed as given.
        const Value value = changed(f);
        Value raw = edited(context, p, value);
        for (const Field& s : siblings)  // a sibling that is only for another value of this one goes
            if (s.onlyWhen.field == f.name && !s.onlyWhen.value.matches(value)) {
                Path q = p;
                q.back() = s.name;
                raw = edited(raw, q, std::nullopt);
            }
        const Value echo = *echoOf(raw, p);
        REQUIRE(at(echo, p));
        CHECK(sameValue(*at(echo, p), value));
        if (f.defaultValue.kind == Literal::Kind::None) return;  // a layer's copy of a policy row: the policy's
        // Given its default, and left out: echoed with its default, or absent when the row is sparse.
        for (const std::optional<Value>& given :
             {std::optional<Value>(f.defaultValue.toValue()), std::optional<Value>()}) {
            const Value e = *echoOf(edited(context, p, given), p);
            const Path parent(p.begin(), p.end() - 1);
            if (f.sparseMember || (sparseObjects.count(dotted(parent)) && at(e, parent) == nullptr)) {
                CHECK(at(e, p) == nullptr);
            } else {
                REQUIRE(at(e, p));
                CHECK(sameValue(*at(e, p), defaultValueOf(f)));
            }
        }
    }
};

}  // namespace

// Given a value that is not its default, a row echoes that value; given its default or left out,
// the default, or nothing when the row is sparse.
TEST_CASE("every row of the fleet tables is echoed as the table says, by no code of its own",
          "[fleet][validation][echo]") {
    EchoWalk service{fleetFields(), "service", request({{"clients", num(2)}, {"durationMs", num(1000)}})};
    service.rows(service.table.fields, {}, service.base);
    EchoWalk occ{occFleetFields(), "occ", request({{"workload", str("occ")}, {"clients", num(2)}, {"runs", num(2)}})};
    // docs/layers.md §9.6: a stack of layers runs the service workload only; the occ table's
    // layer rows are the service table's, walked there.
    std::vector<Field> occRows;
    for (const Field& f : occ.table.fields) occRows.push_back(f);
    // docs/servers.md §8.4: nor does it take the many-servers rows (an error, servers-excluded);
    // they too are walked in the service table.
    auto drop = [](std::vector<Field>& rows, std::initializer_list<const char*> names) {
        rows.erase(std::remove_if(rows.begin(), rows.end(),
                                  [&](const Field& m) {
                                      return std::any_of(names.begin(), names.end(),
                                                         [&](const char* n) { return m.name == n; });
                                  }),
                   rows.end());
    };
    drop(occRows, {"servers", "balancer", "faults", "keyStore"});
    for (Field& f : occRows) {
        if (f.name == "policy") drop(f.members, {"layers", "retryHost", "hostSelectionRetryMaxAttempts"});
        if (f.name == "server") drop(f.members, {"serviceDist", "serviceSigma"});
        if (f.name == "trigger")
            for (Variant& v : f.variants) drop(v.members, {"servers"});
    }
    occ.rows(occRows, {}, occ.base);
    INFO(service.checked << " service requests, " << occ.checked << " occ requests");
    CHECK(service.checked >= 300);  // the walk reached the rows (312 requests when written)
    CHECK(occ.checked >= 250);      // (284 when written)
}
