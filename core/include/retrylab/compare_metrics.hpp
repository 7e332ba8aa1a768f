// The metrics a comparison of two runs lists (issue 17, docs/compare.md §2): one table, read by
// retrysim --compare (bindings/cli/compare.cpp) and, through the engine's compareMetrics()
// entry (bindings/wasm), by the page's compare mode (web/compare/model.js), so the two list the
// same rows in the same order with the same words.
#pragma once

#include "retrylab/value.hpp"

namespace retrylab {

// One metric: `path` in the result ("metrics.charges", "totals.latencyMs.p99"; alternatives
// joined by "|", the first one the result holds: "totals.attemptsPerRequest|totals.load"), `name` the
// comparison's name for it ("charges"; a fleet metric's is its path), `label` words for a
// table, `flag` "side-effect", "outcome" or "" (what a change of it is), `unit` "ms" or "",
// `none` the words for a null value ("never" for a recovery that never comes), `when` the
// member of a result (a dotted path) whose presence in either run lists the row ("metrics" for
// single runs, "totals" for the fleet's service workload, "mean" for its occ workload,
// "totals.attemptsPerRequest" for a fleet run through a stack of layers).
struct CompareMetric {
    const char* path;
    const char* name;
    const char* label;
    const char* flag;
    const char* unit;
    const char* none;
    const char* when;
};

// A run of the table's rows (for range-for).
struct CompareMetrics {
    const CompareMetric* first;
    const CompareMetric* last;
    const CompareMetric* begin() const { return first; }
    const CompareMetric* end() const { return last; }
};

// Single runs (SPEC §5), in the order a comparison lists them.
CompareMetrics runCompareMetrics();
// Fleet runs (FLEET.md §8): the service workload's recovery and totals, then the occ workload's means.
CompareMetrics fleetCompareMetrics();

// The table as data: `{ engine, run: [row...], fleet: [row...] }`, each row
// `{ path, name, label, flag, unit, none, when }`.
Value compareMetrics();

// Two results of the engine compared (docs/compare.md §2), as retrysim --compare lists them:
// `{ of, inputs: [{ name, before?, after? }], metrics: [{ name, label, before, after, delta,
// changed, flag }], sideEffectChanged, outcomeChanged }`. `fleet`: two fleet() results (their
// requests' leaves as dotted paths, the fleet's rows), else two compute() results (their inputs
// by name, the single run's rows). Values are equal as sameJson() says.
Value compareResults(const Value& before, const Value& after, bool fleet);

// The engine's entry (bindings' compareResults()): `{ before, after, of? }`, `of` "run" (the
// default) or "fleet", each side an ok result of compute() or fleet(); `{ ok: true, engine,
// of, inputs, metrics, sideEffectChanged, outcomeChanged }`, or `{ ok: false, errors }` naming
// `before`, `after`, `of` or a member that is not one of these.
Value compareResults(const Value& request);

}  // namespace retrylab
