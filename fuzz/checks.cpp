// The fuzz target's checks (checks.hpp). Written against the result as a Value, the way every
// binding sees it, not against the engine's own structs.
#include "checks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#include "retrylab/engine.hpp"
#include "retrylab/fleet.hpp"
#include "retrylab/json.hpp"
#include "../tests/core/fleet_support.hpp"

namespace retrylab::fuzz {
namespace {

[[noreturn]] void violated(const std::string& what) {
    std::fprintf(stderr, "\nretrylab fuzz: invariant violated: %s\n", what.c_str());
    std::fflush(stderr);
    std::abort();
}

void require(bool holds, const std::string& what) {
    if (!holds) violated(what);
}

std::string show(double x) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", x);
    return buffer;
}

const Value& member(const Value& object, const char* key) {
    require(object.kind() == Value::Kind::Object, std::string("an object holding ") + key);
    const Value* found = object.find(key);
    require(found != nullptr, std::string("a member ") + key);
    return *found;
}

double number(const Value& object, const char* key) {
    const Value& v = member(object, key);
    require(v.kind() == Value::Kind::Number, std::string(key) + " is a number");
    require(std::isfinite(v.asNumber()), std::string(key) + " is finite");
    return v.asNumber();
}

const std::string& text(const Value& object, const char* key) {
    const Value& v = member(object, key);
    require(v.kind() == Value::Kind::String, std::string(key) + " is a string");
    return v.asString();
}

const Value::Array& list(const Value& object, const char* key) {
    const Value& v = member(object, key);
    require(v.kind() == Value::Kind::Array, std::string(key) + " is a list");
    return v.asArray();
}

bool isOk(const Value& result) {
    const Value& ok = member(result, "ok");
    require(ok.kind() == Value::Kind::Bool, "ok is a boolean");
    return ok.asBool();
}

// Every number of a result is finite (JSON has no infinity: nlohmann would print null) and no
// Unsupported value leaks out of the core.
void requireWellFormed(const Value& v, const std::string& path) {
    switch (v.kind()) {
        case Value::Kind::Number: require(std::isfinite(v.asNumber()), path + " is finite"); break;
        case Value::Kind::Unsupported: violated(path + " is an unsupported value in a result"); break;
        case Value::Kind::Array:
            for (std::size_t i = 0; i < v.asArray().size(); ++i)
                requireWellFormed(v.asArray()[i], path + "[" + std::to_string(i) + "]");
            break;
        case Value::Kind::Object:
            for (const Value::Member& m : v.asObject()) requireWellFormed(m.value, path + "." + m.key);
            break;
        default: break;
    }
}

// What retrysim prints reads back as the same value.
void requireJsonRoundTrip(const Value& result) {
    json::Parsed back = json::parse(json::dump(result, -1));
    require(back.value.has_value(), "the result's JSON parses: " + back.error);
    require(sameValue(*back.value, result), "the result's JSON reads back as the same value");
}

// SPEC §7: { ok: false, errors: [{ field, message }] }, at least one, each with a sentence.
void requireErrors(const Value& result) {
    const Value::Array& errors = list(result, "errors");
    require(!errors.empty(), "an { ok: false } result names at least one error");
    require(errors.size() <= 2000, "the error list is bounded");
    for (const Value& e : errors) {
        text(e, "field");
        require(!text(e, "message").empty(), "every error has a message");
    }
}

// The object with `key` set to `value` (replaced in place, or appended).
Value with(const Value& object, const std::string& key, Value value) {
    Value out = Value::object();
    bool replaced = false;
    for (const Value::Member& m : object.asObject()) {
        if (m.key == key) {
            out.set(m.key, value);
            replaced = true;
        } else {
            out.set(m.key, m.value);
        }
    }
    if (!replaced) out.set(key, std::move(value));
    return out;
}

// docs/layers.md §7's invariants on one { ok: true } run with layers.
void checkLayeredRun(const Value& result) {
    const Value& inputs = member(result, "inputs");
    const Value::Array& layers = list(inputs, "layers");
    const Value& metrics = member(result, "metrics");
    const Value::Array& attempts = list(result, "attempts");
    const Value::Array& events = list(result, "events");
    const Value::Array& rows = list(metrics, "layers");
    const bool write = text(inputs, "operation") != "read";
    require(!layers.empty() && layers.size() <= 5 && rows.size() == layers.size(), "one metrics row per layer");
    require(result.find("herd") == nullptr, "a stack has no herd");
    double product = 1;
    for (const Value& l : layers) product *= number(l, "maxRetries") + 1;
    require(product <= 1000, "a stack makes at most 1,000 server attempts");

    double previousT = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        double t = number(events[i], "tMs");
        require(i == 0 || t >= previousT, "events in time order");
        require(!text(events[i], "text").empty(), "every event has a sentence");
        const double layer = number(events[i], "layer");
        require(layer >= 1 && layer <= static_cast<double>(layers.size()), "every event names its layer");
        previousT = t;
    }
    require(number(metrics, "lastWorkMs") >= previousT, "lastWorkMs is at least the last event's time");

    const auto k = static_cast<double>(layers.size());
    std::vector<double> perLayer(layers.size(), 0);
    double bottom = 0, waited = 0;
    const Value* lastTop = nullptr;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const Value& a = attempts[i];
        const double layer = number(a, "layer");
        require(layer >= 1 && layer <= k, "every row names its layer");
        const Value& policy = layers[static_cast<std::size_t>(layer) - 1];
        perLayer[static_cast<std::size_t>(layer) - 1] += 1;
        if (layer == k)
            ++bottom;
        else
            require(member(a, "server").isNull() && member(a, "commitMs").isNull(), "an upper row has no server");
        const double start = number(a, "startMs"), end = number(a, "endMs");
        require(start >= 0 && end >= start, "a row ends after it starts");
        require(end <= start + number(policy, "clientTimeoutMs"), "a row ends within its layer's timeout");
        const Value& deadline = member(a, "callDeadlineMs");
        if (!deadline.isNull()) require(end <= deadline.asNumber(), "a row ends by its call's deadline");
        if (layer == 1) {
            if (lastTop) {
                require(!member(*lastTop, "waitAfterMs").isNull(), "layer 1 waited before its next attempt");
                require(start == number(*lastTop, "endMs") + number(*lastTop, "waitAfterMs"),
                        "layer 1's next attempt starts when its wait ends");
                waited += number(*lastTop, "waitAfterMs");
            }
            require(number(a, "n") == (lastTop ? number(*lastTop, "n") + 1 : 1),
                    "layer 1's attempts are numbered in order");
            lastTop = &a;
        }
    }
    for (std::size_t i = 0; i < rows.size(); ++i)
        require(number(rows[i], "attempts") == perLayer[i], "a layer's row counts its attempts");
    const double attemptCount = number(metrics, "attempts");
    require(attemptCount == bottom, "metrics.attempts counts the bottom rows");
    require(attemptCount <= product, "the server attempts are at most the product");
    const double charges = number(metrics, "charges");
    if (write)
        require(charges <= attemptCount, "charges <= attempts for a write");
    else
        require(charges == 0, "a read never charges");
    require(number(metrics, "replays") <= attemptCount, "replays <= attempts");
    require(number(metrics, "duplicates") == std::max(0.0, charges - 1), "duplicates are the charges beyond the first");
    require(number(metrics, "orphanCharges") <= charges, "orphan charges are charges");
    require(number(metrics, "orphanAttempts") <= attemptCount, "orphan attempts are attempts");
    require(number(metrics, "waitingMs") == waited, "waitingMs is layer 1's waits");
    const std::string& outcome = text(metrics, "outcome");
    if (!lastTop) {
        require(number(metrics, "elapsedMs") == 0 && outcome == "failed", "nothing sent: failed at 0");
    } else {
        require(member(*lastTop, "waitAfterMs").isNull(), "no wait after layer 1's last attempt");
        require(number(metrics, "elapsedMs") == number(*lastTop, "endMs"), "elapsed is layer 1's last attempt's end");
        const std::string& saw = text(*lastTop, "clientSaw");
        const char* expected = saw == "timeout" ? "unknown" : saw[0] == '2' ? "success" : "failed";
        require(outcome == expected, "the outcome follows layer 1's last attempt");
    }
    require(member(metrics, "lookupNeeded").asBool() == (write && outcome == "unknown"),
            "a lookup is needed exactly for a write whose outcome is unknown");
    require((text(metrics, "stopReason") == "wait-budget") == !member(metrics, "refusedWaitMs").isNull(),
            "a refused wait exactly at a wait-budget stop");
}

// docs/throttling.md §6.1 and §8's invariants on one hedged { ok: true } run. Copies overlap and a
// per-try timeout is soft (§8: the attempt stays in flight past it), so SPEC's one-at-a-time rules
// (an attempt within its timeout, the next one after the wait) are not asked here.
void checkHedgedRun(const Value& result) {
    const Value& inputs = member(result, "inputs");
    const Value& hedging = member(inputs, "hedging");
    const Value& metrics = member(result, "metrics");
    const Value::Array& attempts = list(result, "attempts");
    const Value::Array& events = list(result, "events");
    const bool write = text(inputs, "operation") != "read";
    const Value* kind = hedging.find("kind");
    const bool perTry = kind != nullptr && kind->kind() == Value::Kind::String && kind->asString() == "per-try-timeout";
    const double most = perTry ? number(inputs, "maxRetries") + 1 : number(hedging, "maxAttempts");
    require(static_cast<double>(attempts.size()) <= most,
            "a hedged run sends at most its copies (A6's maxAttempts; §8: maxRetries + 1)");
    require(number(metrics, "attempts") == static_cast<double>(attempts.size()),
            "metrics.attempts counts the attempt rows");
    double previousT = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        double t = number(events[i], "tMs");
        require(t >= 0 && (i == 0 || t >= previousT), "a hedged run's events in time order");
        require(!text(events[i], "text").empty(), "every event has a sentence");
        previousT = t;
    }
    double previousStart = 0;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const Value& a = attempts[i];
        double start = number(a, "startMs"), end = number(a, "endMs");
        require(number(a, "n") == static_cast<double>(i + 1), "a hedged run's attempts numbered in order");
        require(start >= 0 && start >= previousStart && end >= start, "copies start in order and end after they start");
        previousStart = start;
    }
    const double charges = number(metrics, "charges");
    if (write)
        require(charges <= static_cast<double>(attempts.size()), "charges <= copies for a write");
    else
        require(charges == 0, "a read never charges");
    require(number(metrics, "replays") <= static_cast<double>(attempts.size()), "replays <= copies");
    require(number(metrics, "duplicates") == std::max(0.0, charges - 1), "duplicates are the charges beyond the first");
    const Value& deadline = member(inputs, "deadlineMs");
    if (!deadline.isNull())
        require(number(metrics, "elapsedMs") <= number(inputs, "deadlineMs"), "a hedged run ends by its deadline");
    const std::string& outcome = text(metrics, "outcome");
    require(member(metrics, "lookupNeeded").asBool() == (write && outcome == "unknown"),
            "a lookup is needed exactly for a write whose outcome is unknown");
}

// Issue 8's invariants on one { ok: true } run.
void checkRun(const Value& result) {
    const Value& inputs = member(result, "inputs");
    // The echo leaves layers out when null (docs/layers.md §2: every one-layer result is today's).
    const Value* layers = inputs.find("layers");
    require(layers == nullptr || !layers->isNull(), "the echo gives layers only when they are a stack");
    if (layers != nullptr) {
        checkLayeredRun(result);
        return;
    }
    const Value* hedging = inputs.find("hedging");
    if (hedging != nullptr && !hedging->isNull()) {
        checkHedgedRun(result);
        return;
    }
    const Value& metrics = member(result, "metrics");
    const Value::Array& attempts = list(result, "attempts");
    const Value::Array& events = list(result, "events");

    const Value& deadlineValue = member(inputs, "deadlineMs");
    const bool hasDeadline = !deadlineValue.isNull();
    const double deadline = hasDeadline ? number(inputs, "deadlineMs") : 0;
    const double responseMs = number(inputs, "responseMs");
    const double timeoutMs = number(inputs, "clientTimeoutMs");
    const bool write = text(inputs, "operation") != "read";
    const bool beforeDeadline = text(inputs, "attemptStart") == "before-deadline";

    const double attemptCount = number(metrics, "attempts");
    const double charges = number(metrics, "charges");
    const double replays = number(metrics, "replays");
    require(attemptCount == static_cast<double>(attempts.size()), "metrics.attempts counts the attempt rows");
    require(attemptCount <= number(inputs, "maxRetries") + 1, "attempts <= maxRetries + 1");
    if (write)
        require(charges <= attemptCount, "charges <= attempts for a write");
    else
        require(charges == 0, "a read never charges");
    require(replays <= attemptCount, "replays <= attempts");
    require(number(metrics, "duplicates") == std::max(0.0, charges - 1), "duplicates are the charges beyond the first");

    double previousT = 0;
    for (std::size_t i = 0; i < events.size(); ++i) {
        double t = number(events[i], "tMs");
        require(t >= 0, "event times are >= 0");
        require(i == 0 || t >= previousT, "events in time order: event " + std::to_string(i) + " at " + show(t) +
                                              " ms after one at " + show(previousT) + " ms");
        require(!text(events[i], "text").empty(), "every event has a sentence");
        previousT = t;
    }

    double waited = 0;
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        const Value& a = attempts[i];
        const std::string row = "attempt " + std::to_string(i + 1);
        require(number(a, "n") == static_cast<double>(i + 1), row + " is numbered in order");
        double start = number(a, "startMs"), end = number(a, "endMs");
        require(start >= 0 && end >= start, row + " ends after it starts");
        require(end <= start + timeoutMs, row + " ends within the client timeout");
        if (hasDeadline) {
            // attemptStart "before-deadline" also sends an attempt that starts before the deadline.
            const bool fits = start + responseMs <= deadline;
            if (beforeDeadline)
                require(fits || start < deadline,
                        row + " starts before the deadline: " + show(start) + " >= " + show(deadline));
            else
                require(fits, row + " starts no later than the deadline minus the response time: " + show(start) +
                                  " + " + show(responseMs) + " > " + show(deadline));
            require(end <= deadline, row + " ends by the deadline");
        }
        const Value& wait = member(a, "waitAfterMs");
        if (i + 1 == attempts.size()) {
            require(wait.isNull(), "no wait after the last attempt");
        } else {
            double w = number(a, "waitAfterMs");  // a number and finite
            require(w >= 0, row + "'s wait is >= 0: " + show(w));
            require(number(attempts[i + 1], "startMs") == end + w, "the next attempt starts when the wait ends");
            waited += w;
        }
    }
    require(number(metrics, "waitingMs") == waited, "waitingMs is the sum of the waits");
    const Value& budget = member(inputs, "waitBudgetMs");
    if (!budget.isNull()) require(waited <= number(inputs, "waitBudgetMs"), "the waits fit the wait budget");

    const double elapsed = number(metrics, "elapsedMs");
    if (hasDeadline) require(elapsed <= deadline, "elapsed <= deadline: " + show(elapsed) + " > " + show(deadline));
    const std::string& outcome = text(metrics, "outcome");
    if (attempts.empty()) {
        require(elapsed == 0, "nothing sent: elapsed 0");
        require(outcome == "failed", "nothing sent: outcome failed");
        require(text(metrics, "agentReport") == "not-sent", "nothing sent: the client reports not-sent");
    } else {
        const Value& last = attempts.back();
        require(elapsed == number(last, "endMs"), "elapsed is the end of the last attempt");
        const std::string& saw = text(last, "clientSaw");
        require(!saw.empty(), "the last attempt says what the client saw");
        const char* expected = saw == "timeout" ? "unknown" : saw[0] == '2' ? "success" : "failed";
        require(outcome == expected, "the outcome (" + outcome + ") follows the last attempt (" + saw + ")");
    }
    require(member(metrics, "lookupNeeded").kind() == Value::Kind::Bool &&
                member(metrics, "lookupNeeded").asBool() == (write && outcome == "unknown"),
            "a lookup is needed exactly for a write whose outcome is unknown");
    require((text(metrics, "stopReason") == "wait-budget") == !member(metrics, "refusedWaitMs").isNull(),
            "a refused wait exactly at a wait-budget stop");

    const double callers = number(inputs, "callers");
    if (callers > 1) {
        const Value& herd = member(result, "herd");
        double total = number(herd, "notRetried");
        const Value::Array& buckets = list(herd, "buckets");
        require(!buckets.empty() && buckets.size() <= 100, "the herd has 1 to 100 buckets");
        for (const Value& b : buckets) {
            require(b.kind() == Value::Kind::Number && b.asNumber() >= 0, "bucket counts are >= 0");
            total += b.asNumber();
        }
        require(total == callers, "every caller is in a bucket or not retried");
        // SPEC §6: a herd's events, attempts and metrics are those of the same inputs with one caller.
        Value single = compute(with(inputs, "callers", Value::number(1)));
        require(isOk(single), "the herd's inputs with one caller are valid");
        for (const char* part : {"events", "attempts", "metrics"})
            require(sameValue(member(single, part), member(result, part)),
                    std::string("a herd's ") + part + " are one caller's");
    }
}

// compute() on the sweep's inputs with one field set: the behaviour a sweep point reports.
Value computeAt(const Value& inputs, const std::string& field, double x) {
    Value at = with(with(inputs, field, Value::number(x)), "callers", Value::number(1));
    Value result = compute(at);
    require(isOk(result), "a sweep's inputs at " + field + " = " + show(x) + " are valid");
    return result;
}

bool sameBehaviour(const Value& point, const Value& metrics) {
    return number(point, "attempts") == number(metrics, "attempts") &&
           number(point, "charges") == number(metrics, "charges") && text(point, "outcome") == text(metrics, "outcome");
}

}  // namespace

void checkParseError(const std::string& error) {
    require(!error.empty() && error.size() < 2000, "a parse error is a short message");
    // "malformed JSON at byte 7: ...", "the JSON nests deeper than 512 levels at byte 513", "the
    // JSON holds a string longer than 65,536 bytes, from byte 16 ...": every refusal names its
    // byte, except the one of an input too large to read ("... larger than 64 MiB ...").
    std::size_t at = error.find("byte ");
    bool namesByte = at != std::string::npos && at + 5 < error.size() && error[at + 5] >= '1' && error[at + 5] <= '9';
    bool tooLarge = error.find(" is larger than 64 MiB") != std::string::npos;
    require(namesByte || tooLarge, "a parse error names the byte: " + error);
    require(error.rfind("malformed JSON at byte ", 0) == 0 || error.rfind("the JSON ", 0) == 0 || tooLarge,
            "a parse error says what was wrong with the JSON: " + error);
}

void checkCompute(const Value& inputs) {
    Value first = compute(inputs);
    require(sameValue(first, compute(inputs)), "compute() gives the identical result on a second call");
    requireWellFormed(first, "result");
    requireJsonRoundTrip(first);
    if (!isOk(first)) {
        requireErrors(first);
        return;
    }
    checkRun(first);
    // SPEC §5: the echo of the inputs, every default filled in, reproduces the run.
    require(sameValue(compute(member(first, "inputs")), first), "the result's inputs reproduce the result");
}

void checkSweep(const Value& request) {
    Value first = sweep(request);
    require(sameValue(first, sweep(request)), "sweep() gives the identical result on a second call");
    requireWellFormed(first, "sweep");
    requireJsonRoundTrip(first);
    if (!isOk(first)) {
        requireErrors(first);
        return;
    }
    const std::string& vary = text(first, "vary");
    const Value& inputs = member(first, "inputs");
    const Value::Array& points = list(first, "points");
    const Value::Array& boundaries = list(first, "boundaries");
    require(points.size() >= 2 && points.size() <= 1000, "a sweep has 2 to 1000 points");

    std::size_t next = 0;  // the boundary expected at the next change of behaviour
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Value& p = points[i];
        double x = number(p, "value");
        require(number(p, "charges") <= number(p, "attempts") || text(inputs, "operation") == "read",
                "a point's charges <= attempts");
        require(number(p, "replays") <= number(p, "attempts"), "a point's replays <= attempts");
        number(p, "elapsedMs");
        if (i == 0 || i + 1 == points.size()) {
            // The ends against compute() itself (every point would cost too much per input).
            Value atX = computeAt(inputs, vary, x);
            const Value& m = member(atX, "metrics");
            require(sameBehaviour(p, m) && number(p, "elapsedMs") == number(m, "elapsedMs") &&
                        text(p, "stopReason") == text(m, "stopReason"),
                    "sweep point " + std::to_string(i) + " is what compute() gives at " + show(x));
        }
        if (i == 0) continue;
        const Value& before = points[i - 1];
        double previousX = number(before, "value");
        require(x >= previousX, "sweep points in order");
        bool changed = number(before, "attempts") != number(p, "attempts") ||
                       number(before, "charges") != number(p, "charges") ||
                       text(before, "outcome") != text(p, "outcome");
        if (!changed) continue;
        require(next < boundaries.size(), "a boundary for every change of behaviour");
        const Value& b = boundaries[next++];
        double edge = number(b, "value");
        require(edge > previousX && edge <= x,
                "boundary " + show(edge) + " lies in (" + show(previousX) + ", " + show(x) + "]");
        require(text(b, "before") == text(before, "outcome") && text(b, "after") == text(p, "outcome") &&
                    number(b, "chargesBefore") == number(before, "charges") &&
                    number(b, "chargesAfter") == number(p, "charges"),
                "a boundary names the points it separates");
        require(!text(b, "text").empty(), "a boundary has a sentence");
        require(sameBehaviour(p, member(computeAt(inputs, vary, edge), "metrics")),
                "the input at boundary " + show(edge) + " behaves as the point after it");
    }
    require(next == boundaries.size(), "no boundary without a change of behaviour");
}

namespace {

// Roughly how many attempts a fleet request may make: small ones are run and traced.
double fleetWork(const FleetRequest& r) {
    if (r.workload == FleetWorkload::Occ) return static_cast<double>(r.clients) * r.clients * r.runs;
    const double retries = r.policy.maxRetries ? *r.policy.maxRetries + 1 : 1;
    if (r.arrivals == Arrivals::Once) return r.clients * retries;
    const double factor = r.spike ? std::max(1.0, r.spike->factor) : 1.0;
    return r.clients * r.ratePerClient * factor * r.durationMs / 1000 * retries;
}

void checkService(const FleetRequest& r, const Value& result) {
    FleetTrace trace;
    const ServiceResult run = simulateService(r, &trace);
    require(sameValue(member(fleetToValue(Value::null(), r, run), "totals"), member(result, "totals")),
            "the traced run is the run fleet() reported");
    const ServiceTotals& t = run.totals;
    const double horizon = 2 * r.durationMs + 60000;
    for (std::size_t i = 1; i < trace.events.size(); ++i)
        require(trace.events[i - 1].tMs <= trace.events[i].tMs, "fleet events in time order");
    for (const FleetTraceEvent& e : trace.events) {
        require(std::isfinite(e.tMs) && e.tMs >= 0 && e.tMs <= horizon, "every event inside [0, H]: " + show(e.tMs));
        require(e.kind >= 1 && e.kind <= 5, "event kinds 1 to 5");
        require(e.client < r.clients, "events of real clients");
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> ended;
    for (const FleetTraceEnd& e : trace.ends) ended.push_back({e.client, e.request});
    std::sort(ended.begin(), ended.end());
    require(std::adjacent_find(ended.begin(), ended.end()) == ended.end(), "every request ends once");
    require(ended.size() == t.requests, "every request created ends");
    std::uint64_t endings = t.succeeded;
    for (int i = 1; i < kEndReasons; ++i) endings += t.failed[i];
    require(endings == t.requests, "succeeded + failed = requests");
    require(t.attempts == t.firstAttempts + t.retries, "attempts = first attempts + retries");
    require(t.firstAttempts <= t.requests, "at most one first attempt per request");
    require(t.served + t.cancelled + t.shed + t.outageRejected + t.throttled <= t.attempts,
            "each attempt handled at most once");
    if (!r.server.admission) require(t.throttled == 0, "no 429 without an admission limit");
    if (!r.gates.admissionControl) require(t.admissionRejected == 0, "no rejection without the admission filter");
    require(t.late <= t.attempts, "late answers at most the attempts");
    if (r.operation == Operation::Read)
        require(t.charges == 0 && t.replays == 0, "reads commit nothing");
    else
        require(t.charges + t.replays >= t.succeeded, "every success a commit");
    require(t.charges + t.replays <= t.served, "commits only from service");
    if (r.idempotencyKey) require(t.duplicateCharges == 0, "a key leaves no duplicate charge");
    // docs/throttling.md §4.1: the limiters enabled never fall (none is disabled), at most one an owner; a
    // send rate exactly while one is, never below the bucket's 0.5 a second; no 429 answered, none enabled.
    const std::uint64_t limiters = r.gates.adaptive ? (r.gates.adaptive->scope == GateScope::Fleet ? 1 : r.clients) : 0;
    std::uint64_t limiting = 0;
    for (const ServiceBin& b : run.bins) {
        require(b.gateWaitMs >= 0 && (r.gates.adaptive || b.gateWaitMs == 0),
                "the limiter's waits: only with it, never negative");
        require(b.limiting >= limiting && b.limiting <= limiters,
                "the limiters enabled: never fewer, at most one an owner");
        limiting = b.limiting;
        require(b.sendRate.has_value() == (b.limiting > 0) && (!b.sendRate || *b.sendRate >= 0.5),
                "a send rate exactly while a limiter is enabled, at least 0.5 a second");
    }
    using test::sumOf;
    require(sumOf(run.bins, &ServiceBin::created) == t.requests &&
                sumOf(run.bins, &ServiceBin::succeeded) == t.succeeded &&
                sumOf(run.bins, &ServiceBin::failed) == t.requests - t.succeeded,
            "the bins hold the requests' creations and ends");
    require(sumOf(run.bins, &ServiceBin::served) == t.served && sumOf(run.bins, &ServiceBin::late) == t.late &&
                sumOf(run.bins, &ServiceBin::shed) == t.shed &&
                sumOf(run.bins, &ServiceBin::outageRejected) == t.outageRejected &&
                sumOf(run.bins, &ServiceBin::throttled) == t.throttled,
            "the bins hold the server's counts");
    // docs/throttling.md §7, by the send's time.
    require(sumOf(run.bins, &ServiceBin::admissionRejected) == t.admissionRejected,
            "the bins hold the admission filter's rejections");
    // docs/throttling.md §6 and §8: a request sends at most A6's maxAttempts copies, or (§8's hedge on
    // per-try timeout, whose attempts overlap) maxRetries + 1 attempts; a key, one charge a request.
    if (r.policy.layers.empty()) {
        const bool a6 = r.policy.hedging && r.policy.hedging->kind == HedgeKind::A6;
        const double most = a6 ? r.policy.hedging->maxAttempts : r.policy.maxRetries ? *r.policy.maxRetries + 1 : 1e9;
        for (const auto& [client, request, attempt] : test::sendsOf(trace))
            require(attempt <= most, "a request sends at most maxRetries + 1 attempts (A6: maxAttempts)");
        if (r.idempotencyKey) require(t.charges <= t.requests, "a key: at most one charge a request");
    }
    require(!run.bins.empty(), "at least one bin");
    require(t.throttled > 0 || limiting == 0, "a limiter is enabled only by a 429");
    require(t.endMs <= horizon, "endMs at most the horizon");
    if (!trace.events.empty()) require(t.endMs >= trace.events.back().tMs, "endMs is the last event's");
}

void checkOcc(const FleetRequest& r, const Value& result) {
    const Value::Array& runs = list(result, "runs");
    require(runs.size() == r.runs, "one result per run");
    for (const Value& run : runs) {
        const double writes = number(run, "writes"), failures = number(run, "failures");
        require(failures <= writes, "failures among the writes");
        const double successes = writes - failures;
        if (!r.policy.maxRetries) require(successes == r.clients, "without a limit every client writes once");
        require(successes >= 1 && successes <= r.clients, "at least one write succeeds, at most one per client");
        require(number(run, "makespanMs") >= 0, "a makespan >= 0");
    }
}

}  // namespace

void checkFleet(const Value& request) {
    const FleetParsed parsed = parseFleetRequest(request);
    // A valid request that would take long is only validated: fuzz inputs must stay quick.
    if (parsed.request && fleetWork(*parsed.request) > 20000) return;
    const Value result = fleet(request);
    requireWellFormed(result, "fleet");
    requireJsonRoundTrip(result);
    require(isOk(result) == parsed.request.has_value(), "fleet() and its parser agree on validity");
    if (!isOk(result)) {
        requireErrors(result);
        return;
    }
    const FleetRequest& r = *parsed.request;
    require(sameValue(fleet(request), result), "fleet() is deterministic");
    require(sameValue(fleet(member(result, "request")), result), "the fleet echo reproduces the result");
    if (r.workload == FleetWorkload::Occ)
        checkOcc(r, result);
    else
        checkService(r, result);
}

}  // namespace retrylab::fuzz
