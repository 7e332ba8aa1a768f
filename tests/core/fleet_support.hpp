// Builders shared by the fleet's tests: requests as the typed struct, and raw requests as
// Values addressed by dotted paths (for the validation tests).
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "retrylab/fleet.hpp"

namespace retrylab::test {

// FLEET.md §9's "unless said": no trigger, every leg 5 ms, other fields at their defaults.
inline FleetRequest quietFleet() {
    FleetRequest r;
    r.trigger.reset();
    r.network = Network{};
    return r;
}

// One client making one request at time 0 (§9 items 1–3).
inline FleetRequest oneClientOnce() {
    FleetRequest r = quietFleet();
    r.clients = 1;
    r.arrivals = Arrivals::Once;
    return r;
}

// `retryOn: ["timeout"]`, as the request's parser sets it.
inline void retryTimeoutsOnly(FleetPolicy& p) {
    p.retryTimeout = true;
    p.retry5xx = false;
    p.retryOn = {"timeout"};
}

// Open arrivals and a server whose latency does not depend on load: no worker limit, no
// growth with concurrency, no slowdown; failures from the coin (500s), an outage for 503s,
// and timeouts (the relation tests of fleet_relations_test.cpp and fleet_gate_rules_test.cpp).
inline FleetRequest loadIndependent() {
    FleetRequest q = quietFleet();
    q.clients = 20;
    q.ratePerClient = 5;
    q.durationMs = 20000;
    q.server.workers.reset();
    q.server.failureRate = 0.3;
    q.trigger = Trigger{TriggerKind::Outage, 5000, 8000, 1};
    q.network.dist = NetworkDist::Exponential;
    q.network.mean = 20;
    q.policy.clientTimeoutMs = 150;
    q.policy.maxRetries = 5;
    q.policy.jitter = Jitter::Full;
    return q;
}

// The same request with every gate it has kept per client (GateScope::Client): with one
// client it must run as the fleet-scoped one does.
inline FleetRequest clientScoped(FleetRequest q) {
    if (q.gates.quota) q.gates.quota->scope = GateScope::Client;
    if (q.gates.bucket) q.gates.bucket->scope = GateScope::Client;
    if (q.gates.throttle) q.gates.throttle->scope = GateScope::Client;
    if (q.gates.budget) q.gates.budget->scope = GateScope::Client;
    if (q.gates.breaker) q.gates.breaker->scope = GateScope::Client;
    return q;
}

// The sum of one count over a result's rows (its bins, its servers): what the totals must say.
template <class Row, class Count>
Count sumOf(const std::vector<Row>& rows, Count Row::*count) {
    Count total{};
    for (const Row& row : rows) total += row.*count;
    return total;
}

// A fleet trace's sends (§6's kind-5 events), each (client, request, attempt), in the trace's
// order: the one place the tests and the fuzzers' checks (fuzz/checks.cpp) read them.
using SendId = std::tuple<std::uint32_t, std::uint32_t, int>;
inline std::vector<SendId> sendsOf(const FleetTrace& trace) {
    std::vector<SendId> out;
    for (const FleetTraceEvent& e : trace.events)
        if (e.kind == 5) out.emplace_back(e.client, e.request, e.attempt);
    return out;
}

// The most sends one request (client, request) made.
inline int mostSendsOfOneRequest(const FleetTrace& trace) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> sends;
    int most = 0;
    for (const auto& [client, request, attempt] : sendsOf(trace)) most = std::max(most, ++sends[{client, request}]);
    return most;
}

inline Value num(double x) { return Value::number(x); }
inline Value str(const char* s) { return Value::string(s); }

// Sets `value` at a dotted path of an object, making the objects on the way.
inline void setPath(Value& object, const std::string& path, Value value) {
    const std::size_t dot = path.find('.');
    const std::string head = path.substr(0, dot);
    Value::Object members = object.kind() == Value::Kind::Object ? object.asObject() : Value::Object{};
    Value child = Value::object();
    bool found = false;
    for (Value::Member& m : members)
        if (m.key == head) {
            if (dot == std::string::npos) {
                m.value = std::move(value);
            } else {
                setPath(m.value, path.substr(dot + 1), std::move(value));
            }
            found = true;
        }
    if (!found) {
        if (dot == std::string::npos) {
            members.push_back({head, std::move(value)});
        } else {
            setPath(child, path.substr(dot + 1), std::move(value));
            members.push_back({head, std::move(child)});
        }
    }
    object = Value::object(std::move(members));
}

inline Value request(std::initializer_list<std::pair<const char*, Value>> fields) {
    Value v = Value::object();
    for (const auto& f : fields) setPath(v, f.first, f.second);
    return v;
}

// A typed request written as the raw request a binding would pass (every field; choice names
// from the table's rows): the fleet's rawInputs (support.hpp), for the tests that build a typed
// request and then run it through fleet(). Not the echo, which is the table's (parseFleetRequest):
// a test holds the two together ("a typed request written as a raw request reads back ...").
inline Value rawFleet(const FleetRequest& r) {
    const FieldTable& t = fleetFields();
    auto named = [](const Field& row, auto choice) { return str(row.nameOf(static_cast<int>(choice))); };
    auto orNull = [](const auto& x) { return x ? num(static_cast<double>(*x)) : Value::null(); };
    auto strings = [](const std::vector<std::string>& xs) {
        Value out = Value::array();
        for (const std::string& x : xs) out.push(Value::string(x));
        return out;
    };
    auto object = [](std::initializer_list<std::pair<const char*, Value>> members) {
        Value v = Value::object();
        for (const auto& m : members) v.set(m.first, m.second);
        return v;
    };
    const Field& server = t.field("server");
    const Field& policy = t.field("policy");
    const Field& gates = t.field("gates");
    auto scope = [&](GateScope s) { return named(*gates.member("quota")->member("scope"), s); };
    auto policyValue = [&](const FleetPolicy& p) {
        return object({{"maxRetries", orNull(p.maxRetries)},
                       {"baseBackoffMs", num(p.baseBackoffMs)},
                       {"backoffMultiplier", num(p.backoffMultiplier)},
                       {"maxBackoffMs", orNull(p.maxBackoffMs)},
                       {"jitter", named(*policy.member("jitter"), p.jitter)},
                       {"clientTimeoutMs", num(p.clientTimeoutMs)},
                       {"deadlineMs", orNull(p.deadlineMs)},
                       {"retryOn", strings(p.retryOn)},
                       {"honourRetryAfter", Value::boolean(p.honourRetryAfter)}});
    };
    auto gate = [](std::optional<int> layer, Value v) {
        if (layer) v.set("layer", num(*layer));
        return v;
    };
    Value v = object({{"workload", named(t.field("workload"), r.workload)},
                      {"seed", num(static_cast<double>(r.seed))},
                      {"clients", num(r.clients)},
                      {"arrivals", named(t.field("arrivals"), r.arrivals)},
                      {"ratePerClient", num(r.ratePerClient)},
                      {"durationMs", num(r.durationMs)}});
    v.set("spike", r.spike ? object({{"startMs", num(r.spike->startMs)},
                                     {"endMs", num(r.spike->endMs)},
                                     {"factor", num(r.spike->factor)}})
                           : Value::null());
    const Network& n = r.network;
    const char* dist = t.field("network").variants[static_cast<std::size_t>(n.dist)].name.c_str();
    v.set("network", n.dist == NetworkDist::Fixed ? object({{"dist", str(dist)}, {"ms", num(n.ms)}})
                     : n.dist == NetworkDist::Uniform
                         ? object({{"dist", str(dist)}, {"lo", num(n.lo)}, {"hi", num(n.hi)}})
                     : n.dist == NetworkDist::Exponential
                         ? object({{"dist", str(dist)}, {"mean", num(n.mean)}})
                         : object({{"dist", str(dist)}, {"mean", num(n.mean)}, {"sd", num(n.sd)}}));
    Value s = object({{"workers", orNull(r.server.workers)},
                      {"queueLimit", orNull(r.server.queueLimit)},
                      {"queueOrder", named(*server.member("queueOrder"), r.server.queueOrder)},
                      {"serviceMs", num(r.server.serviceMs)},
                      {"serviceMsPerInFlight", num(r.server.serviceMsPerInFlight)},
                      {"failureRate", num(r.server.failureRate)},
                      {"dropStale", named(*server.member("dropStale"), r.server.dropStale)},
                      {"rejectRetryAfterMs", orNull(r.server.rejectRetryAfterMs)}});
    if (const auto& a = r.server.admission)
        s.set("admission", object({{"scope", scope(a->scope)},
                                   {"ratePerSecond", num(a->ratePerSecond)},
                                   {"burst", num(a->burst)},
                                   {"answerMs", num(a->answerMs)},
                                   {"retryAfterMs", orNull(a->retryAfterMs)}}));
    v.set("server", std::move(s));
    if (!r.trigger)
        v.set("trigger", Value::null());
    else if (r.trigger->kind == TriggerKind::Outage)
        v.set(
            "trigger",
            object({{"kind", str("outage")}, {"startMs", num(r.trigger->startMs)}, {"endMs", num(r.trigger->endMs)}}));
    else
        v.set("trigger", object({{"kind", str("slowdown")},
                                 {"startMs", num(r.trigger->startMs)},
                                 {"endMs", num(r.trigger->endMs)},
                                 {"factor", num(r.trigger->factor)}}));
    Value p = policyValue(r.policy);
    if (const auto& h = r.policy.hedging) {
        const Field& kind = *policy.member("hedging")->member("kind");
        p.set("hedging", h->kind == HedgeKind::PerTryTimeout ? object({{"kind", named(kind, h->kind)}})
                                                             : object({{"kind", named(kind, h->kind)},
                                                                       {"maxAttempts", num(h->maxAttempts)},
                                                                       {"delayMs", num(h->delayMs)},
                                                                       {"nonFatal", strings(h->nonFatal)}}));
    }
    if (!r.policy.layers.empty()) {
        const Field& row = policy.member("layers")->item.front();
        Value layers = Value::array();
        for (const FleetLayer& l : r.policy.layers) {
            Value layer = policyValue(l.policy);
            layer.set("name", Value::string(l.name));
            layer.set("key", named(*row.member("key"), l.key));
            layer.set("giveUp", named(*row.member("giveUp"), l.giveUp));
            layer.set("cancel", named(*row.member("cancel"), l.cancel));
            layer.set("inheritDeadline", Value::boolean(l.inheritDeadline));
            layer.set("deadlineMarginMs", num(l.deadlineMarginMs));
            layers.push(std::move(layer));
        }
        p.set("layers", std::move(layers));
    }
    v.set("policy", std::move(p));
    const Gates& g = r.gates;
    auto rule = [&](const char* gateName, const char* name, auto choice) {
        return named(*gates.member(gateName)->member(name), choice);
    };
    Value gs = Value::object();
    gs.set("quota", !g.quota ? Value::null()
                             : gate(g.layer.quota, object({{"scope", scope(g.quota->scope)},
                                                           {"capacity", num(g.quota->capacity)},
                                                           {"retryCost", num(g.quota->retryCost)},
                                                           {"timeoutCost", num(g.quota->timeoutCost)},
                                                           {"successIncrement", num(g.quota->successIncrement)},
                                                           {"refund", rule("quota", "refund", g.quota->refund)}})));
    gs.set("bucket",
           !g.bucket ? Value::null()
                     : gate(g.layer.bucket, object({{"scope", scope(g.bucket->scope)},
                                                    {"capacity", num(g.bucket->capacity)},
                                                    {"deposit", num(g.bucket->deposit)},
                                                    {"cost", num(g.bucket->cost)},
                                                    {"depositOn", rule("bucket", "depositOn", g.bucket->depositOn)},
                                                    {"allowWhen", rule("bucket", "allowWhen", g.bucket->allowWhen)}})));
    gs.set("throttle",
           !g.throttle
               ? Value::null()
               : gate(g.layer.throttle,
                      object({{"scope", scope(g.throttle->scope)},
                              {"maxTokens", num(g.throttle->maxTokens)},
                              {"tokenRatio", num(g.throttle->tokenRatio)},
                              {"countFailures", rule("throttle", "countFailures", g.throttle->countFailures)}})));
    gs.set("budget", !g.budget ? Value::null()
                               : gate(g.layer.budget, object({{"scope", scope(g.budget->scope)},
                                                              {"percent", num(g.budget->percent)},
                                                              {"minPerSecond", num(g.budget->minPerSecond)},
                                                              {"ttlMs", num(g.budget->ttlMs)}})));
    gs.set("breaker", !g.breaker ? Value::null()
                                 : gate(g.layer.breaker, object({{"scope", scope(g.breaker->scope)},
                                                                 {"window", num(g.breaker->window)},
                                                                 {"minCalls", num(g.breaker->minCalls)},
                                                                 {"failurePercent", num(g.breaker->failurePercent)},
                                                                 {"openMs", num(g.breaker->openMs)},
                                                                 {"halfOpenCalls", num(g.breaker->halfOpenCalls)}})));
    if (g.adaptive) gs.set("adaptive", object({{"scope", scope(g.adaptive->scope)}}));
    if (g.local)
        gs.set("local", object({{"scope", scope(g.local->scope)},
                                {"windowMs", num(g.local->windowMs)},
                                {"bins", num(g.local->bins)},
                                {"ratio", num(g.local->ratio)},
                                {"padding", num(g.local->padding)}}));
    if (const auto& a = g.admissionControl)
        gs.set("admissionControl", object({{"scope", scope(a->scope)},
                                           {"windowMs", num(a->windowMs)},
                                           {"srThreshold", num(a->srThreshold)},
                                           {"aggression", num(a->aggression)},
                                           {"rpsThreshold", num(a->rpsThreshold)},
                                           {"maxRejectionProbability", num(a->maxRejectionProbability)}}));
    v.set("gates", std::move(gs));
    v.set("operation", named(t.field("operation"), r.operation));
    v.set("idempotencyKey", Value::boolean(r.idempotencyKey));
    v.set("binMs", num(r.binMs));
    v.set("runs", num(r.runs));
    return v;
}

// The fields named by the errors of a fleet() result, in order.
inline std::string errorFields(const Value& result) {
    std::string out;
    if (const Value* errors = result.find("errors"))
        for (const Value& e : errors->asArray()) out += (out.empty() ? "" : ",") + e.find("field")->asString();
    return out;
}

inline bool ok(const Value& result) {
    const Value* v = result.find("ok");
    return v && v->kind() == Value::Kind::Bool && v->asBool();
}

// A request's count of one end reason.
inline std::uint64_t failed(const ServiceResult& r, EndReason reason) {
    return r.totals.failed[static_cast<int>(reason)];
}

// The times of a trace's sends (FLEET §6's kind 5), in order.
inline std::vector<double> sendTimes(const FleetTrace& trace) {
    std::vector<double> out;
    for (const FleetTraceEvent& e : trace.events)
        if (e.kind == 5) out.push_back(e.tMs);
    return out;
}

}  // namespace retrylab::test
