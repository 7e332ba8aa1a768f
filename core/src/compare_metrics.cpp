// The metrics a comparison lists and two results compared by them (compare_metrics.hpp,
// docs/compare.md §2).
#include "retrylab/compare_metrics.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "retrylab/engine.hpp"

namespace retrylab {

namespace {

// Every metric, the single run's (SPEC §5, `when` "metrics") first, then the fleet's (FLEET.md §8).
const CompareMetric kRows[] = {
    {"metrics.outcome", "outcome", "outcome", "outcome", "", "none", "metrics"},
    {"metrics.charges", "charges", "charges", "side-effect", "", "none", "metrics"},
    {"metrics.duplicates", "duplicates", "duplicate charges", "side-effect", "", "none", "metrics"},
    {"metrics.replays", "replays", "replays", "", "", "none", "metrics"},
    {"metrics.attempts", "attempts", "attempts", "", "", "none", "metrics"},
    {"metrics.elapsedMs", "elapsedMs", "elapsed", "", "ms", "none", "metrics"},
    {"metrics.waitingMs", "waitingMs", "waiting", "", "ms", "none", "metrics"},
    {"metrics.stopReason", "stopReason", "stop reason", "", "", "none", "metrics"},
    {"metrics.agentReport", "agentReport", "agent report", "", "", "none", "metrics"},
    {"metrics.lookupNeeded", "lookupNeeded", "lookup needed", "", "", "none", "metrics"},
    {"metrics.refusedWaitMs", "refusedWaitMs", "refused wait", "", "ms", "none", "metrics"},
#ifdef RETRYLAB_SCRATCH_METRIC
    // Only in the scratch build of tests/CMakeLists.txt (retrysim_scratch_metric): a row
    // added to the table, which tests/node/compare-metrics.test.js finds in retrysim's
    // comparison (JSON and Markdown) and, through the table, in the page's.
    {"inputs.maxRetries", "scratchRetries", "retries allowed (scratch)", "side-effect", "", "none", "metrics"},
#endif
    {"recovery.recoveredAtMs", "recovery.recoveredAtMs", "recovers at", "outcome", "ms", "never", "totals"},
    {"recovery.metastable", "recovery.metastable", "metastable", "outcome", "", "none", "totals"},
    {"totals.charges", "totals.charges", "charges", "side-effect", "", "none", "totals"},
    {"totals.duplicateCharges", "totals.duplicateCharges", "duplicate charges", "side-effect", "", "none", "totals"},
    {"totals.requests", "totals.requests", "requests", "", "", "none", "totals"},
    {"totals.succeeded", "totals.succeeded", "succeeded", "", "", "none", "totals"},
    {"totals.successRate", "totals.successRate", "success rate", "", "", "none", "totals"},
    {"totals.attempts", "totals.attempts", "attempts", "", "", "none", "totals"},
    {"totals.retries", "totals.retries", "retries", "", "", "none", "totals"},
    {"totals.load", "totals.load", "load", "", "", "none", "totals"},
    // Only when either run holds a stack (docs/compare.md §2, docs/layers.md §9.2): the load a
    // request makes through every layer; a run without a stack says its `load`.
    {"totals.attemptsPerRequest|totals.load", "totals.attemptsPerRequest", "load through the stack", "", "", "none",
     "totals.attemptsPerRequest"},
    {"totals.latencyMs.p50", "totals.latencyMs.p50", "p50 latency", "", "ms", "none", "totals"},
    {"totals.latencyMs.p90", "totals.latencyMs.p90", "p90 latency", "", "ms", "none", "totals"},
    {"totals.latencyMs.p99", "totals.latencyMs.p99", "p99 latency", "", "ms", "none", "totals"},
    {"totals.latencyMs.max", "totals.latencyMs.max", "max latency", "", "ms", "none", "totals"},
    {"totals.endMs", "totals.endMs", "last event", "", "ms", "none", "totals"},
    {"mean.writes", "mean.writes", "writes (mean)", "", "", "none", "mean"},
    {"mean.failures", "mean.failures", "failed writes (mean)", "", "", "none", "mean"},
    {"mean.makespanMs", "mean.makespanMs", "makespan (mean)", "", "ms", "none", "mean"},
};
constexpr std::size_t kCount = sizeof(kRows) / sizeof(kRows[0]);

// Where the fleet's rows start: the first row whose `when` is not "metrics".
std::size_t fleetStart() {
    std::size_t i = 0;
    while (i < kCount && std::string_view(kRows[i].when) == "metrics") ++i;
    return i;
}

// A row's members as the table writes them, in this order.
const std::pair<const char*, const char * CompareMetric::*> kMembers[] = {
    {"path", &CompareMetric::path}, {"name", &CompareMetric::name}, {"label", &CompareMetric::label},
    {"flag", &CompareMetric::flag}, {"unit", &CompareMetric::unit}, {"none", &CompareMetric::none},
    {"when", &CompareMetric::when},
};

Value rowsToValue(CompareMetrics rows) {
    Value list = Value::array();
    for (const CompareMetric& m : rows) {
        Value row = Value::object();
        for (const auto& [key, member] : kMembers) row.set(key, Value::string(m.*member));
        list.push(std::move(row));
    }
    return list;
}

// The value at a dotted path ("totals.latencyMs.p99"), or nullptr.
const Value* valueAt(const Value& v, std::string_view path) {
    const Value* here = &v;
    while (here && here->kind() == Value::Kind::Object) {
        const std::size_t dot = path.find('.');
        here = here->find(path.substr(0, dot));
        if (dot == std::string_view::npos) return here;
        path.remove_prefix(dot + 1);
    }
    return nullptr;
}

// A row's value: the first of its path's alternatives ("a.b|c") the result holds, or nullptr.
const Value* metricAt(const Value& v, std::string_view path) {
    for (;;) {
        const std::size_t bar = path.find('|');
        if (const Value* found = valueAt(v, path.substr(0, bar))) return found;
        if (bar == std::string_view::npos) return nullptr;
        path.remove_prefix(bar + 1);
    }
}

using Leaves = std::vector<std::pair<std::string, const Value*>>;

// A fleet request's leaves as "a.b.c" paths in its order (a list, an empty object or a null is
// one leaf); a single run's inputs by name (an object input, such as hedging, whole).
void leavesOf(const Value& v, const std::string& prefix, bool deep, Leaves& out) {
    for (const Value::Member& m : v.asObject()) {
        std::string path = prefix.empty() ? m.key : prefix + "." + m.key;
        if (deep && m.value.kind() == Value::Kind::Object && !m.value.asObject().empty())
            leavesOf(m.value, path, deep, out);
        else
            out.emplace_back(std::move(path), &m.value);
    }
}

const Value* leafNamed(const Leaves& list, const std::string& path) {
    for (const auto& [name, value] : list)
        if (name == path) return value;
    return nullptr;
}

// The inputs that differ: each of the before side's leaves in its order, then the after side's
// the before side lacks; a side without the leaf has no member for it.
Value inputsThatDiffer(const Value& before, const Value& after, bool fleet) {
    Leaves b, a;
    const char* echo = fleet ? "request" : "inputs";
    const Value* be = before.find(echo);
    const Value* ae = after.find(echo);
    if (be && be->kind() == Value::Kind::Object) leavesOf(*be, "", fleet, b);
    if (ae && ae->kind() == Value::Kind::Object) leavesOf(*ae, "", fleet, a);
    Value inputs = Value::array();
    auto add = [&](const std::string& path, const Value* x, const Value* y) {
        if (x && y && sameJson(*x, *y)) return;
        Value row = Value::object();
        row.set("name", Value::string(path));
        if (x) row.set("before", *x);
        if (y) row.set("after", *y);
        inputs.push(std::move(row));
    };
    for (const auto& [path, x] : b) add(path, x, leafNamed(a, path));
    for (const auto& [path, y] : a)
        if (!leafNamed(b, path)) add(path, nullptr, y);
    return inputs;
}

}  // namespace

CompareMetrics runCompareMetrics() { return {kRows, kRows + fleetStart()}; }
CompareMetrics fleetCompareMetrics() { return {kRows + fleetStart(), kRows + kCount}; }

Value compareResults(const Value& before, const Value& after, bool fleet) {
    Value rows = Value::array();
    bool sideEffect = false, outcome = false;
    for (const CompareMetric& m : fleet ? fleetCompareMetrics() : runCompareMetrics()) {
        if (!valueAt(before, m.when) && !valueAt(after, m.when)) continue;  // another workload's row
        const Value* x = metricAt(before, m.path);
        const Value* y = metricAt(after, m.path);
        const bool changed = (x || y) && !(x && y && sameJson(*x, *y));
        const std::string_view flag = changed ? m.flag : "";
        Value row = Value::object();
        row.set("name", Value::string(m.name));
        row.set("label", Value::string(m.label));
        row.set("before", x ? *x : Value::null());
        row.set("after", y ? *y : Value::null());
        const bool numbers = x && y && x->kind() == Value::Kind::Number && y->kind() == Value::Kind::Number;
        row.set("delta", numbers ? Value::number(y->asNumber() - x->asNumber()) : Value::null());
        row.set("changed", Value::boolean(changed));
        row.set("flag", flag.empty() ? Value::null() : Value::string(std::string(flag)));
        sideEffect = sideEffect || flag == "side-effect";
        outcome = outcome || flag == "outcome";
        rows.push(std::move(row));
    }
    Value out = Value::object();
    out.set("of", Value::string(fleet ? "fleet" : "run"));
    out.set("inputs", inputsThatDiffer(before, after, fleet));
    out.set("metrics", std::move(rows));
    out.set("sideEffectChanged", Value::boolean(sideEffect));
    out.set("outcomeChanged", Value::boolean(outcome));
    return out;
}

Value compareResults(const Value& request) {
    std::vector<InputError> errors;
    auto problem = [&](const std::string& field, const char* code, const std::string& detail) {
        errors.push_back({field, code, field + " " + detail, detail});
    };
    if (request.kind() != Value::Kind::Object) {
        errors.push_back({"", "wrong-type", "The comparison must be an object { before, after, of }.",
                          "must be an object { before, after, of }"});
        return toValue(errors);
    }
    for (const Value::Member& m : request.asObject())
        if (m.key != "before" && m.key != "after" && m.key != "of")
            problem(m.key, "unknown-field", "is not a member of a comparison (before, after, of)");
    const Value* of = request.find("of");
    const bool named =
        of && of->kind() == Value::Kind::String && (of->asString() == "run" || of->asString() == "fleet");
    if (of && !named) problem("of", "not-a-choice", "must be \"run\" or \"fleet\"");
    const bool fleet = named && of->asString() == "fleet";
    for (const char* side : {"before", "after"}) {
        const Value* r = request.find(side);
        const Value* ok = r && r->kind() == Value::Kind::Object ? r->find("ok") : nullptr;
        const Value* echo = ok ? r->find(fleet ? "request" : "inputs") : nullptr;
        if (!ok || ok->kind() != Value::Kind::Bool || !ok->asBool() || !echo || echo->kind() != Value::Kind::Object)
            problem(side, r ? "wrong-type" : "required",
                    fleet ? "must be a fleet() result that is ok" : "must be a compute() result that is ok");
    }
    if (!errors.empty()) return toValue(errors);
    Value out = Value::object();
    out.set("ok", Value::boolean(true));
    out.set("engine", Value::string(engineVersion()));
    const Value compared = compareResults(*request.find("before"), *request.find("after"), fleet);
    for (const Value::Member& m : compared.asObject()) out.set(m.key, m.value);
    return out;
}

Value compareMetrics() {
    Value v = Value::object();
    v.set("engine", Value::string(engineVersion()));
    v.set("run", rowsToValue(runCompareMetrics()));
    v.set("fleet", rowsToValue(fleetCompareMetrics()));
    return v;
}

}  // namespace retrylab
