// docs/servers.md §2 and §5: the failure classes a server fault gives, named once for `retryOn` of
// both entry points (the single run's table, validate.cpp; the fleet's, fleet_request.cpp), and
// the rule that `5xx` covers them, as Envoy's `5xx` covers `connect-failure` and `reset`.
#pragma once

#include "retrylab/engine.hpp"

namespace retrylab {

struct FaultClass {
    const char* name;
    FailureClass value;
    const char* description;
};

constexpr FaultClass kFaultClasses[] = {
    {"refused", FailureClass::Refused,
     "a refused connection: the server is down (a crash, docs/servers.md §5); 5xx covers it"},
    {"reset", FailureClass::Reset,
     "a connection reset: the server crashed while at work (docs/servers.md §5); 5xx covers it"},
};

// Whether a class that `5xx` covers besides the 500–599 statuses: a refusal or a reset.
constexpr bool coveredBy5xx(FailureClass seen) { return seen == FailureClass::Refused || seen == FailureClass::Reset; }

}  // namespace retrylab
