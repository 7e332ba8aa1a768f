// The metrics a comparison of two runs lists (issue 17, docs/compare.md §2): one table, read by
// retrysim --compare (bindings/cli/compare.cpp) and, through the engine's compareMetrics()
// entry (bindings/wasm), by the page's compare mode (web/compare/model.js), so the two list the
// same rows in the same order with the same words.
#pragma once

#include "retrylab/value.hpp"

namespace retrylab {

// One metric: `path` in the result ("metrics.charges", "totals.latencyMs.p99"), `name` the
// comparison's name for it ("charges"; a fleet metric's is its path), `label` words for a
// table, `flag` "side-effect", "outcome" or "" (what a change of it is), `unit` "ms" or "",
// `none` the words for a null value ("never" for a recovery that never comes), `when` the
// member of a result whose presence in either run lists the row ("metrics" for single runs,
// "totals" for the fleet's service workload, "mean" for its occ workload).
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

}  // namespace retrylab
