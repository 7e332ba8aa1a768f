// FLEET.md §1 and §8: the fleet's result as a Value, and fleet(), the whole contract. Its
// `request` is the echo the field table made (parseFleetRequest's, as the single run's `inputs`
// is: docs/engine.md §4): no line here names a field of the request.
#include <algorithm>
#include <cmath>

#include "retrylab/fleet.hpp"
#include "servers.hpp"

namespace retrylab {

namespace {

Value num(double x) { return Value::number(x); }
Value count(std::uint64_t x) { return Value::number(static_cast<double>(x)); }
Value orNull(const std::optional<double>& x) { return x ? Value::number(*x) : Value::null(); }

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

// docs/fleet.md "The capacity in each bin": the attempts the servers finish in a bin of binMs with
// every worker busy, at the service times in force at t (the bin's start); none when a server up at
// t has no bound (no worker limit, or a service time of 0).
bool underTrigger(const FleetRequest& r, TriggerKind kind, std::uint32_t j, double t) {
    if (!r.trigger || r.trigger->kind != kind || t < r.trigger->startMs || t >= r.trigger->endMs) return false;
    return !r.triggerServers ||
           std::find(r.triggerServers->begin(), r.triggerServers->end(), j) != r.triggerServers->end();
}
bool crashed(const FleetRequest& r, std::uint32_t j, double t) {
    return std::any_of(r.faults.begin(), r.faults.end(),
                       [&](const Fault& f) { return f.kind == FaultKind::Crash && f.names(j) && f.covers(t); });
}
std::optional<double> capacityAt(const FleetRequest& r, double t) {
    const std::uint32_t k = r.servers ? r.servers->count : 1;
    double sum = 0;
    for (std::uint32_t j = 0; j < k; ++j) {
        const Server& s = r.servers ? r.servers->each[j] : r.server;
        if (underTrigger(r, TriggerKind::Outage, j, t) || crashed(r, j, t)) continue;  // down: 0
        if (!s.workers) return std::nullopt;
        const double mean = s.serviceDist == servers::ServiceDist::Lognormal
                                ? s.serviceMs * streams::exactExp(s.serviceSigma * s.serviceSigma / 2)
                                : s.serviceMs;
        const double workers = *s.workers;
        const double f = underTrigger(r, TriggerKind::Slowdown, j, t) ? r.trigger->factor : 1;
        const double busy = (mean + s.serviceMsPerInFlight * workers) * f;
        if (busy == 0) return std::nullopt;
        sum += (workers * r.binMs) / busy;
    }
    return sum;
}
}  // namespace

Value fleetToValue(Value echo, const FleetRequest& request, const ServiceResult& result) {
    const ServiceTotals& t = result.totals;
    Value v = Value::object();
    v.set("ok", Value::boolean(true));
    v.set("engine", Value::string(engineVersion()));
    v.set("request", std::move(echo));
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
            failed.set(endReasonName(EndReason::LocalThrottle),
                       count(t.failed[static_cast<int>(EndReason::LocalThrottle)]));
        failed.set(endReasonName(reason), count(t.failed[i]));
    }
    totals.set("failed", std::move(failed));
    totals.set("successRate", num(t.requests ? static_cast<double>(t.succeeded) / static_cast<double>(t.requests) : 0));
    totals.set("attempts", count(t.attempts));
    totals.set("firstAttempts", count(t.firstAttempts));
    totals.set("retries", count(t.retries));
    totals.set("load",
               num(t.firstAttempts ? static_cast<double>(t.attempts) / static_cast<double>(t.firstAttempts) : 0));
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
        x.set("capacity", orNull(capacityAt(request, static_cast<double>(bins.size()) * request.binMs)));
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

Value fleetToValue(Value echo, const FleetRequest&, const OccResult& result) {
    Value v = Value::object();
    v.set("ok", Value::boolean(true));
    v.set("engine", Value::string(engineVersion()));
    v.set("request", std::move(echo));
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
    // The echo as the field table normalized it (FLEET.md §1, docs/engine.md §4).
    if (r.workload == FleetWorkload::Occ) return fleetToValue(std::move(parsed.echo), r, simulateOcc(r));
    return fleetToValue(std::move(parsed.echo), r, simulateService(r));
}

}  // namespace retrylab
