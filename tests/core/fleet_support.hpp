// Builders shared by the fleet's tests: requests as the typed struct, and raw requests as
// Values addressed by dotted paths (for the validation tests).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
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
inline std::uint64_t failed(const ServiceResult& r, EndReason reason) { return r.totals.failed[static_cast<int>(reason)]; }

// The times of a trace's sends (FLEET §6's kind 5), in order.
inline std::vector<double> sendTimes(const FleetTrace& trace) {
    std::vector<double> out;
    for (const FleetTraceEvent& e : trace.events)
        if (e.kind == 5) out.push_back(e.tMs);
    return out;
}

}  // namespace retrylab::test
