// FLEET.md §1 and §8: the fleet request's echo and result as Values, and fleet(), the whole
// contract.
#include <algorithm>
#include <cmath>

#include "retrylab/fleet.hpp"

namespace retrylab {

namespace {

Value num(double x) { return Value::number(x); }
Value count(std::uint64_t x) { return Value::number(static_cast<double>(x)); }
Value orNull(const std::optional<double>& x) { return x ? Value::number(*x) : Value::null(); }
Value str(const char* s) { return Value::string(s); }

const char* scopeName(GateScope s) { return s == GateScope::Fleet ? "fleet" : "client"; }
// A gate's rule choice (docs/engine.md §7.1), named by its row and echoed as the row says: only
// when it is not the default (Field::sparseMember).
void sparseChoice(Value& gate, const char* gateName, const char* name, int value) {
    const Field& row = *fleetFields().field("gates").member(gateName)->member(name);
    const char* chosen = row.nameOf(value);
    if (row.sparseMember && row.defaultValue.text == chosen) return;
    gate.set(name, Value::string(chosen));
}
const char* jitterName(Jitter j) {
    switch (j) {
        case Jitter::None: return "none";
        case Jitter::Full: return "full";
        case Jitter::Equal: return "equal";
        case Jitter::Decorrelated: return "decorrelated";
        case Jitter::Proportional: return "proportional";
    }
    return "none";
}

Value networkValue(const Network& n) {
    Value v = Value::object();
    switch (n.dist) {
        case NetworkDist::Fixed: v.set("dist", str("fixed")); v.set("ms", num(n.ms)); break;
        case NetworkDist::Uniform: v.set("dist", str("uniform")); v.set("lo", num(n.lo)); v.set("hi", num(n.hi)); break;
        case NetworkDist::Exponential: v.set("dist", str("exponential")); v.set("mean", num(n.mean)); break;
        case NetworkDist::Normal: v.set("dist", str("normal")); v.set("mean", num(n.mean)); v.set("sd", num(n.sd)); break;
    }
    return v;
}

}  // namespace

const char* endReasonName(EndReason reason) {
    switch (reason) {
        case EndReason::Success: return "success";
        case EndReason::NotRetryable: return "not-retryable";
        case EndReason::AttemptLimit: return "attempt-limit";
        case EndReason::Deadline: return "deadline";
        case EndReason::GateQuota: return "gate-quota";
        case EndReason::GateBucket: return "gate-bucket";
        case EndReason::GateThrottle: return "gate-throttle";
        case EndReason::GateBudget: return "gate-budget";
        case EndReason::CircuitOpen: return "circuit-open";
        case EndReason::Unfinished: return "unfinished";
        case EndReason::LocalThrottle: return "local-throttle";
    }
    return "unfinished";
}

// FLEET.md §3's policy members, as the echo writes them (the request's, or a layer's).
Value policyValue(const FleetPolicy& policy) {
    Value p = Value::object();
    p.set("maxRetries", policy.maxRetries ? num(*policy.maxRetries) : Value::null());
    p.set("baseBackoffMs", num(policy.baseBackoffMs));
    p.set("backoffMultiplier", num(policy.backoffMultiplier));
    p.set("maxBackoffMs", orNull(policy.maxBackoffMs));
    p.set("jitter", str(jitterName(policy.jitter)));
    p.set("clientTimeoutMs", num(policy.clientTimeoutMs));
    p.set("deadlineMs", orNull(policy.deadlineMs));
    Value classes = Value::array();
    for (const std::string& c : policy.retryOn) classes.push(Value::string(c));
    p.set("retryOn", std::move(classes));
    p.set("honourRetryAfter", Value::boolean(policy.honourRetryAfter));
    return p;
}

// docs/layers.md §9: one layer as the echo writes it, every field filled in (the table's order).
Value layerValue(const FleetLayer& l) {
    const Field& row = fleetFields().field("policy").member("layers")->item.front();
    Value v = Value::object();
    v.set("name", Value::string(l.name));
    const Value policy = policyValue(l.policy);
    for (const Value::Member& m : policy.asObject()) v.set(m.key, m.value);
    v.set("key", Value::string(row.member("key")->nameOf(static_cast<int>(l.key))));
    v.set("giveUp", Value::string(row.member("giveUp")->nameOf(static_cast<int>(l.giveUp))));
    v.set("cancel", Value::string(row.member("cancel")->nameOf(static_cast<int>(l.cancel))));
    v.set("inheritDeadline", Value::boolean(l.inheritDeadline));
    v.set("deadlineMarginMs", num(l.deadlineMarginMs));
    return v;
}
// docs/layers.md §9.3: a gate's layer, echoed only when given (null is the bottom).
void gateLayer(Value& gate, const std::optional<int>& layer) {
    if (layer) gate.set("layer", num(*layer));
}

Value fleetRequestToValue(const FleetRequest& r) {
    Value v = Value::object();
    v.set("workload", str(r.workload == FleetWorkload::Occ ? "occ" : "service"));
    v.set("seed", num(static_cast<double>(r.seed)));
    v.set("clients", count(r.clients));
    const char* arrivals[] = {"poisson", "uniform", "serial", "once"};
    v.set("arrivals", str(arrivals[static_cast<int>(r.arrivals)]));
    v.set("ratePerClient", num(r.ratePerClient));
    v.set("durationMs", num(r.durationMs));
    if (r.spike) {
        Value s = Value::object();
        s.set("startMs", num(r.spike->startMs));
        s.set("endMs", num(r.spike->endMs));
        s.set("factor", num(r.spike->factor));
        v.set("spike", std::move(s));
    } else {
        v.set("spike", Value::null());
    }
    v.set("network", networkValue(r.network));
    Value s = Value::object();
    s.set("workers", r.server.workers ? count(*r.server.workers) : Value::null());
    s.set("queueLimit", r.server.queueLimit ? count(*r.server.queueLimit) : Value::null());
    s.set("queueOrder", str(r.server.queueOrder == QueueOrder::Lifo ? "lifo" : "fifo"));
    s.set("serviceMs", num(r.server.serviceMs));
    s.set("serviceMsPerInFlight", num(r.server.serviceMsPerInFlight));
    s.set("failureRate", num(r.server.failureRate));
    const char* drops[] = {"never", "expired", "unfinishable"};
    s.set("dropStale", str(drops[static_cast<int>(r.server.dropStale)]));
    s.set("rejectRetryAfterMs", orNull(r.server.rejectRetryAfterMs));
    if (r.server.admission) {  // sparse (docs/throttling.md §3): absent when null
        Value a = Value::object();
        a.set("scope", str(scopeName(r.server.admission->scope)));
        a.set("ratePerSecond", num(r.server.admission->ratePerSecond));
        a.set("burst", num(r.server.admission->burst));
        a.set("answerMs", num(r.server.admission->answerMs));
        a.set("retryAfterMs", orNull(r.server.admission->retryAfterMs));
        s.set("admission", std::move(a));
    }
    v.set("server", std::move(s));
    if (r.trigger) {
        Value t = Value::object();
        t.set("kind", str(r.trigger->kind == TriggerKind::Outage ? "outage" : "slowdown"));
        t.set("startMs", num(r.trigger->startMs));
        t.set("endMs", num(r.trigger->endMs));
        if (r.trigger->kind == TriggerKind::Slowdown) t.set("factor", num(r.trigger->factor));
        v.set("trigger", std::move(t));
    } else {
        v.set("trigger", Value::null());
    }
    Value p = policyValue(r.policy);
    if (r.policy.hedging && r.policy.hedging->kind == HedgeKind::PerTryTimeout) {  // docs/throttling.md §8
        Value h = Value::object();
        h.set("kind", str("per-try-timeout"));
        p.set("hedging", std::move(h));
    } else if (r.policy.hedging) {  // sparse (docs/throttling.md §6): absent when null; kind "a6" not echoed
        Value h = Value::object();
        h.set("maxAttempts", num(r.policy.hedging->maxAttempts));
        h.set("delayMs", num(r.policy.hedging->delayMs));
        Value nonFatal = Value::array();
        for (const std::string& c : r.policy.hedging->nonFatal) nonFatal.push(Value::string(c));
        h.set("nonFatal", std::move(nonFatal));
        p.set("hedging", std::move(h));
    }
    if (!r.policy.layers.empty()) {  // sparse (docs/layers.md §9): absent when null
        Value layers = Value::array();
        for (const FleetLayer& l : r.policy.layers) layers.push(layerValue(l));
        p.set("layers", std::move(layers));
    }
    v.set("policy", std::move(p));
    Value g = Value::object();
    if (r.gates.quota) {
        Value q = Value::object();
        q.set("scope", str(scopeName(r.gates.quota->scope)));
        q.set("capacity", num(r.gates.quota->capacity));
        q.set("retryCost", num(r.gates.quota->retryCost));
        q.set("timeoutCost", num(r.gates.quota->timeoutCost));
        q.set("successIncrement", num(r.gates.quota->successIncrement));
        sparseChoice(q, "quota", "refund", static_cast<int>(r.gates.quota->refund));
        gateLayer(q, r.gates.layer.quota);
        g.set("quota", std::move(q));
    } else {
        g.set("quota", Value::null());
    }
    if (r.gates.bucket) {
        Value b = Value::object();
        b.set("scope", str(scopeName(r.gates.bucket->scope)));
        b.set("capacity", num(r.gates.bucket->capacity));
        b.set("deposit", num(r.gates.bucket->deposit));
        b.set("cost", num(r.gates.bucket->cost));
        sparseChoice(b, "bucket", "depositOn", static_cast<int>(r.gates.bucket->depositOn));
        sparseChoice(b, "bucket", "allowWhen", static_cast<int>(r.gates.bucket->allowWhen));
        gateLayer(b, r.gates.layer.bucket);
        g.set("bucket", std::move(b));
    } else {
        g.set("bucket", Value::null());
    }
    if (r.gates.throttle) {
        Value t = Value::object();
        t.set("scope", str(scopeName(r.gates.throttle->scope)));
        t.set("maxTokens", num(r.gates.throttle->maxTokens));
        t.set("tokenRatio", num(r.gates.throttle->tokenRatio));
        sparseChoice(t, "throttle", "countFailures", static_cast<int>(r.gates.throttle->countFailures));
        gateLayer(t, r.gates.layer.throttle);
        g.set("throttle", std::move(t));
    } else {
        g.set("throttle", Value::null());
    }
    if (r.gates.budget) {
        Value b = Value::object();
        b.set("scope", str(scopeName(r.gates.budget->scope)));
        b.set("percent", num(r.gates.budget->percent));
        b.set("minPerSecond", num(r.gates.budget->minPerSecond));
        b.set("ttlMs", num(r.gates.budget->ttlMs));
        gateLayer(b, r.gates.layer.budget);
        g.set("budget", std::move(b));
    } else {
        g.set("budget", Value::null());
    }
    if (r.gates.breaker) {
        Value b = Value::object();
        b.set("scope", str(scopeName(r.gates.breaker->scope)));
        b.set("window", count(r.gates.breaker->window));
        b.set("minCalls", count(r.gates.breaker->minCalls));
        b.set("failurePercent", num(r.gates.breaker->failurePercent));
        b.set("openMs", num(r.gates.breaker->openMs));
        b.set("halfOpenCalls", count(r.gates.breaker->halfOpenCalls));
        gateLayer(b, r.gates.layer.breaker);
        g.set("breaker", std::move(b));
    } else {
        g.set("breaker", Value::null());
    }
    if (r.gates.adaptive) {  // sparse (docs/throttling.md §4–§5): absent when null
        Value a = Value::object();
        a.set("scope", str(scopeName(r.gates.adaptive->scope)));
        g.set("adaptive", std::move(a));
    }
    if (r.gates.local) {
        Value l = Value::object();
        l.set("scope", str(scopeName(r.gates.local->scope)));
        l.set("windowMs", num(r.gates.local->windowMs));
        l.set("bins", count(r.gates.local->bins));
        l.set("ratio", num(r.gates.local->ratio));
        l.set("padding", num(r.gates.local->padding));
        g.set("local", std::move(l));
    }
    if (r.gates.admissionControl) {  // sparse (docs/throttling.md §7): absent when null
        const AdmissionControlGate& ac = *r.gates.admissionControl;
        Value a = Value::object();
        a.set("scope", str(scopeName(ac.scope)));
        a.set("windowMs", num(ac.windowMs));
        a.set("srThreshold", num(ac.srThreshold));
        a.set("aggression", num(ac.aggression));
        a.set("rpsThreshold", num(ac.rpsThreshold));
        a.set("maxRejectionProbability", num(ac.maxRejectionProbability));
        g.set("admissionControl", std::move(a));
    }
    v.set("gates", std::move(g));
    v.set("operation", str(r.operation == Operation::Read ? "read" : "charge"));
    v.set("idempotencyKey", Value::boolean(r.idempotencyKey));
    v.set("binMs", count(r.binMs));
    v.set("runs", count(r.runs));
    return v;
}

namespace {
// docs/servers.md §8.3's rows, in its order.
Value serverTotalsValue(const ServerTotals& s) {
    Value v = Value::object();
    v.set("attempts", count(s.attempts));
    v.set("served", count(s.served));
    v.set("succeeded", count(s.succeeded));
    v.set("failed", count(s.failed));
    v.set("shed", count(s.shed));
    v.set("outageRejected", count(s.outageRejected));
    v.set("cancelled", count(s.cancelled));
    v.set("refused", count(s.refused));
    v.set("partitioned", count(s.partitioned));
    v.set("aborted", count(s.aborted));
    v.set("answersLost", count(s.answersLost));
    v.set("late", count(s.late));
    v.set("okInTime", count(s.okInTime));
    v.set("wastedServiceMs", num(s.wastedServiceMs));
    v.set("charges", count(s.charges));
    v.set("replays", count(s.replays));
    v.set("duplicateCharges", count(s.duplicateCharges));
    v.set("meanServiceMs", orNull(s.meanServiceMs));
    v.set("meanResidenceMs", orNull(s.meanResidenceMs));
    return v;
}
Value serverBinValue(const ServerBin& s) {
    Value v = Value::object();
    v.set("attempts", count(s.attempts));
    v.set("okInTime", count(s.okInTime));
    v.set("late", count(s.late));
    v.set("served", count(s.served));
    v.set("shed", count(s.shed));
    v.set("outageRejected", count(s.outageRejected));
    v.set("refused", count(s.refused));
    v.set("partitioned", count(s.partitioned));
    v.set("aborted", count(s.aborted));
    v.set("queue", count(s.queue));
    v.set("inService", count(s.inService));
    return v;
}
}  // namespace

Value fleetToValue(const FleetRequest& request, const ServiceResult& result) {
    const ServiceTotals& t = result.totals;
    Value v = Value::object();
    v.set("ok", Value::boolean(true));
    v.set("engine", Value::string(engineVersion()));
    v.set("request", fleetRequestToValue(request));
    Value totals = Value::object();
    totals.set("requests", count(t.requests));
    totals.set("succeeded", count(t.succeeded));
    Value failed = Value::object();
    // FLEET.md §8's reasons in its order; local-throttle (docs/throttling.md §5) before unfinished, and
    // only with gates.local, so that every result without it is as before.
    for (int i = 1; i < kEndReasons; ++i) {
        const auto reason = static_cast<EndReason>(i);
        if (reason == EndReason::LocalThrottle) continue;
        if (reason == EndReason::Unfinished && request.gates.local)
            failed.set(endReasonName(EndReason::LocalThrottle), count(t.failed[static_cast<int>(EndReason::LocalThrottle)]));
        failed.set(endReasonName(reason), count(t.failed[i]));
    }
    totals.set("failed", std::move(failed));
    totals.set("successRate", num(t.requests ? static_cast<double>(t.succeeded) / static_cast<double>(t.requests) : 0));
    totals.set("attempts", count(t.attempts));
    totals.set("firstAttempts", count(t.firstAttempts));
    totals.set("retries", count(t.retries));
    totals.set("load", num(t.firstAttempts ? static_cast<double>(t.attempts) / static_cast<double>(t.firstAttempts) : 0));
    if (!request.policy.layers.empty()) {  // docs/layers.md §9.2
        totals.set("attemptsPerRequest",
                   num(t.requests ? static_cast<double>(t.attempts) / static_cast<double>(t.requests) : 0));
        Value rows = Value::array();
        for (std::size_t i = 0; i < t.layers.size(); ++i) {
            const ServiceTotals::LayerRow& l = t.layers[i];
            Value row = Value::object();
            row.set("name", Value::string(request.policy.layers[i].name));
            row.set("calls", count(l.calls));
            row.set("attempts", count(l.attempts));
            row.set("retries", count(l.retries));
            row.set("cancelled", count(l.cancelled));
            row.set("orphaned", count(l.orphaned));
            rows.push(std::move(row));
        }
        totals.set("layers", std::move(rows));
    }
    totals.set("served", count(t.served));
    totals.set("cancelled", count(t.cancelled));
    totals.set("shed", count(t.shed));
    totals.set("outageRejected", count(t.outageRejected));
    if (request.server.admission) totals.set("throttled", count(t.throttled));  // docs/throttling.md §3
    if (request.gates.admissionControl) totals.set("admissionRejected", count(t.admissionRejected));  // §7
    totals.set("late", count(t.late));
    totals.set("wastedServiceMs", num(t.wastedServiceMs));
    totals.set("charges", count(t.charges));
    totals.set("replays", count(t.replays));
    totals.set("duplicateCharges", count(t.duplicateCharges));
    Value latency = Value::object();
    latency.set("p50", t.latencyMs ? num(t.latencyMs->p50) : Value::null());
    latency.set("p90", t.latencyMs ? num(t.latencyMs->p90) : Value::null());
    latency.set("p99", t.latencyMs ? num(t.latencyMs->p99) : Value::null());
    latency.set("max", t.latencyMs ? num(t.latencyMs->max) : Value::null());
    totals.set("latencyMs", std::move(latency));
    totals.set("endMs", num(t.endMs));
    const bool perServer = !t.servers.empty();  // docs/servers.md §8.3: with servers or faults
    if (perServer) {
        totals.set("refused", count(t.refused));
        totals.set("partitioned", count(t.partitioned));
        totals.set("aborted", count(t.aborted));
        totals.set("answersLost", count(t.answersLost));
        Value rows = Value::array();
        for (const ServerTotals& s : t.servers) rows.push(serverTotalsValue(s));
        totals.set("servers", std::move(rows));
    }
    v.set("totals", std::move(totals));
    Value timeline = Value::object();
    timeline.set("binMs", count(request.binMs));
    Value::Array bins;
    bins.reserve(result.bins.size());
    for (const ServiceBin& b : result.bins) {
        Value x = Value::object();
        x.set("created", count(b.created));
        x.set("firstAttempts", count(b.firstAttempts));
        x.set("retries", count(b.retries));
        if (!request.policy.layers.empty()) {  // docs/layers.md §9.2
            Value each = Value::array();
            for (std::uint64_t a : b.layerAttempts) each.push(count(a));
            x.set("layerAttempts", std::move(each));
        }
        x.set("succeeded", count(b.succeeded));
        x.set("failed", count(b.failed));
        x.set("timeouts", count(b.timeouts));
        x.set("shed", count(b.shed));
        x.set("outageRejected", count(b.outageRejected));
        x.set("served", count(b.served));
        if (request.server.admission) x.set("throttled", count(b.throttled));
        if (request.gates.admissionControl) x.set("admissionRejected", count(b.admissionRejected));
        x.set("late", count(b.late));
        if (request.gates.adaptive) {  // docs/throttling.md §4, §4.1
            x.set("gateWaitMs", num(b.gateWaitMs));
            x.set("limiting", count(b.limiting));
            x.set("sendRate", orNull(b.sendRate));
        }
        x.set("queue", count(b.queue));
        x.set("inService", count(b.inService));
        x.set("tokens", orNull(b.tokens));
        if (perServer) {
            Value rows = Value::array();
            for (const ServerBin& s : b.servers) rows.push(serverBinValue(s));
            x.set("servers", std::move(rows));
        }
        bins.push_back(std::move(x));
    }
    timeline.set("bins", Value::array(std::move(bins)));
    v.set("timeline", std::move(timeline));
    if (result.recovery) {
        Value rec = Value::object();
        rec.set("triggerEndMs", num(result.recovery->triggerEndMs));
        rec.set("recoveredAtMs", orNull(result.recovery->recoveredAtMs));
        rec.set("metastable", Value::boolean(result.recovery->metastable));
        rec.set("disrupted", Value::boolean(result.recovery->disrupted));
        if (perServer) {  // docs/servers.md §8.3
            Value rows = Value::array();
            for (const Recovery& own : result.serverRecovery) {
                Value row = Value::object();
                row.set("recoveredAtMs", orNull(own.recoveredAtMs));
                row.set("metastable", Value::boolean(own.metastable));
                row.set("disrupted", Value::boolean(own.disrupted));
                rows.push(std::move(row));
            }
            rec.set("servers", std::move(rows));
        }
        v.set("recovery", std::move(rec));
    } else {
        v.set("recovery", Value::null());
    }
    return v;
}

namespace {
Value occRunValue(const OccRun& run) {
    Value v = Value::object();
    v.set("makespanMs", num(run.makespanMs));
    v.set("writes", num(run.writes));
    v.set("failures", num(run.failures));
    return v;
}
}  // namespace

Value fleetToValue(const FleetRequest& request, const OccResult& result) {
    Value v = Value::object();
    v.set("ok", Value::boolean(true));
    v.set("engine", Value::string(engineVersion()));
    v.set("request", fleetRequestToValue(request));
    Value::Array runs;
    runs.reserve(result.runs.size());
    for (const OccRun& run : result.runs) runs.push_back(occRunValue(run));
    v.set("runs", Value::array(std::move(runs)));
    v.set("mean", occRunValue(result.mean));
    return v;
}

// FLEET.md §8 (v3): windows of five bins judged together, so that which bin an answer falls in
// cannot fail a healthy fleet.
Recovery recoveryOf(const FleetRequest& request, const std::vector<ServiceBin>& bins) {
    Recovery rec;
    rec.triggerEndMs = request.trigger->endMs;
    const double binMs = request.binMs;
    // L: the last bin ending at or before durationMs (−1 when none does).
    double last = std::floor(request.durationMs / binMs) - 1;
    if ((last + 1) * binMs > request.durationMs) last -= 1;
    if ((last + 2) * binMs <= request.durationMs) last += 1;
    // The first bin starting at or after the trigger's end.
    double first = std::ceil(rec.triggerEndMs / binMs);
    if ((first - 1) * binMs >= rec.triggerEndMs) first -= 1;
    if (first * binMs < rec.triggerEndMs) first += 1;
    // The window ending at bin e: bins e − 4 … e, those before 0 or past the timeline empty.
    auto healthy = [&bins](double e) {
        std::uint64_t succeeded = 0, created = 0;
        for (double b = std::max(0.0, e - 4); b <= e; b += 1) {
            const auto i = static_cast<std::size_t>(b);
            if (i >= bins.size()) break;
            succeeded += bins[i].succeeded;
            created += bins[i].created;
        }
        return static_cast<double>(succeeded) >= 0.9 * static_cast<double>(created);
    };
    // Walk back from L while the windows are healthy, down to the window of the earliest b.
    double e = last;
    while (e >= first + 4 && healthy(e)) e -= 1;
    if (e < last) rec.recoveredAtMs = (e - 3) * binMs;
    rec.metastable = request.durationMs - rec.triggerEndMs >= 5 * binMs && !rec.recoveredAtMs;
    // Disrupted: some window ending at e ≤ L, after the trigger's start, is not healthy.
    double from = std::floor(request.trigger->startMs / binMs);  // (from + 1) × binMs > startMs
    if ((from + 1) * binMs <= request.trigger->startMs) from += 1;
    if (from * binMs > request.trigger->startMs) from -= 1;
    for (double w = std::max(0.0, from); w <= last && !rec.disrupted; w += 1) rec.disrupted = !healthy(w);
    return rec;
}

Value fleet(const Value& rawRequest, const FleetOptions& options) {
    FleetParsed parsed = parseFleetRequest(rawRequest, options);
    if (!parsed.request) return toValue(parsed.errors);
    const FleetRequest& r = *parsed.request;
    Value result = r.workload == FleetWorkload::Occ ? fleetToValue(r, simulateOcc(r)) : fleetToValue(r, simulateService(r));
    // The echo as the field table normalized it.
    Value::Object members = result.asObject();
    for (Value::Member& m : members)
        if (m.key == "request") m.value = std::move(parsed.echo);
    return Value::object(std::move(members));
}

}  // namespace retrylab
