// docs/layers.md §9: the layered fleet run's one knob beyond FleetRequest, for tests only.
#pragma once

#include "retrylab/fleet.hpp"

namespace retrylab {

// How the run keeps its call and request records: a released record's slot is reused (the
// engine's, bounding memory by the live calls), or every record gets a new slot (a test's way to
// check that no result depends on when a record is released).
enum class RecordReuse { Reuse, Fresh };

ServiceResult simulateLayeredService(const FleetRequest& request, FleetTrace* trace, FleetWork* work,
                                     RecordReuse reuse);

}  // namespace retrylab
