// The metrics a comparison lists (compare_metrics.hpp): the one description of them.
#include "retrylab/compare_metrics.hpp"

#include <cstddef>
#include <string_view>
#include <utility>

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
const std::pair<const char*, const char* CompareMetric::*> kMembers[] = {
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

}  // namespace

CompareMetrics runCompareMetrics() { return {kRows, kRows + fleetStart()}; }
CompareMetrics fleetCompareMetrics() { return {kRows + fleetStart(), kRows + kCount}; }

Value compareMetrics() {
    Value v = Value::object();
    v.set("engine", Value::string(engineVersion()));
    v.set("run", rowsToValue(runCompareMetrics()));
    v.set("fleet", rowsToValue(fleetCompareMetrics()));
    return v;
}

}  // namespace retrylab
