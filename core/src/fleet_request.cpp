// FLEET.md §3: the fleet request as a second field table (fields.hpp), read by the same
// normalize() as the single run's inputs; then the rules across fields a table cannot say
// (lo ≤ hi, startMs ≤ endMs, the occ-only maxRetries null, durationMs ≤ 10,000 bins), the
// work bounds, and the short typed reader from the normalized value to FleetRequest.
//
// The workload chooses the defaults of network and policy (§7), so there are two tables from
// one declaration: the service workload's and the occ workload's.
#include <algorithm>
#include <cmath>
#include <string>

#include "format.hpp"
#include "retrylab/fields.hpp"
#include "retrylab/fleet.hpp"
#include "failure_classes.hpp"
#include "servers.hpp"

namespace retrylab {

namespace {

constexpr double kMaxMs = 86400000;
constexpr double kMaxSafeInteger = 9007199254740991.0;  // 2^53 - 1
constexpr double kBillion = 1000000000;
constexpr const char* kA6Only = "maxAttempts, delayMs and nonFatal belong to gRPC A6's hedging";

Field ms(const char* name, const char* group, const char* description, double lo, double hi) {
    return Field::number(name, group, "ms", description).range(lo, hi);
}
Field amount(const char* name, const char* group, const char* unit, const char* description, double def) {
    return Field::number(name, group, unit, description).range(0, kBillion).defaults(def);
}
Field scope() {
    return Field::choice("scope", "gates", "one gate per client (a real SDK's), or one shared by the whole fleet",
                         {
                             {"client", static_cast<int>(GateScope::Client), "one per client"},
                             {"fleet", static_cast<int>(GateScope::Fleet), "one shared by all clients"},
                         })
        .defaults("client");
}
// docs/engine.md §7.1's rule choices: echoed only when given and not the default (FLEET.md's
// rule), so that every request without them echoes exactly as before.
Field refund() {
    return Field::choice(
               "refund", "gates", "what a request that succeeds gives back",
               {
                   {"cost-or-increment", static_cast<int>(QuotaRefund::CostOrIncrement),
                    "its last cost, or successIncrement if it paid none (FLEET.md; botocore, the JavaScript SDK)"},
                   {"cost-and-increment", static_cast<int>(QuotaRefund::CostAndIncrement),
                    "its last cost and then successIncrement (aws-sdk-go-v2)"},
               })
        .defaults("cost-or-increment")
        .echoSparse();
}
Field depositOn() {
    return Field::choice("depositOn", "gates", "what adds the deposit",
                         {
                             {"first-attempt", static_cast<int>(BucketDeposit::FirstAttempt),
                              "each first attempt sent (FLEET.md; Brooker's simulator)"},
                             {"success", static_cast<int>(BucketDeposit::Success),
                              "each request that succeeds (Brooker's 2022 post)"},
                         })
        .defaults("first-attempt")
        .echoSparse();
}
Field allowWhen() {
    return Field::choice("allowWhen", "gates", "how many tokens a retry needs",
                         {
                             {"more-than-cost", static_cast<int>(BucketAllow::MoreThanCost),
                              "more than cost (FLEET.md; Brooker's simulator)"},
                             {"at-least-cost", static_cast<int>(BucketAllow::AtLeastCost),
                              "at least cost: a whole token (Brooker's 2022 post)"},
                         })
        .defaults("more-than-cost")
        .echoSparse();
}
Field countFailures() {
    return Field::choice(
               "countFailures", "gates", "which failures take a token",
               {
                   {"all", static_cast<int>(ThrottleCount::All), "every failure, a timeout included (FLEET.md)"},
                   {"retryable", static_cast<int>(ThrottleCount::Retryable),
                    "only a failure whose class is in policy.retryOn (gRPC A6)"},
               })
        .defaults("all")
        .echoSparse();
}

Field gate(const char* name, const char* description, std::vector<Field> members) {
    members.insert(members.begin(), scope());
    return Field::object(name, "gates", description, std::move(members)).orNull().defaults(Literal::null());
}
// docs/layers.md §9.3: the layer a FLEET.md §5 gate acts on; null (the default, echoed only when
// given and not null) the bottom one, so that every request without it echoes as before. Its group
// is the stack's, "layers": a control for it belongs where the stack is built (web/fleet/model.js).
Field layer() {
    return Field::number("layer", "layers", "",
                         "the layer whose retries it gates (policy.layers), 1 the top; null: the bottom")
        .wholeNumber()
        .range(1, 5)
        .orNull()
        .defaults(Literal::null())
        .echoSparse();
}
Field layeredGate(const char* name, const char* description, std::vector<Field> members) {
    members.push_back(layer());
    return gate(name, description, std::move(members));
}
// docs/throttling.md §3–§5's additions: null by default and echoed only when given (not null),
// so that every request without them echoes exactly as before.
Field admission() {
    return Field::object(
               "admission", "server",
               "the server's admission limit: a token bucket per client or for the fleet; "
               "null: none",
               {
                   Field::choice("scope", "server", "one limit per client (a per-caller quota), or one for all",
                                 {
                                     {"client", static_cast<int>(GateScope::Client), "one per client"},
                                     {"fleet", static_cast<int>(GateScope::Fleet), "one shared by all clients"},
                                 })
                       .defaults("client"),
                   Field::number("ratePerSecond", "server", "tokens/s", "tokens added a second")
                       .range(0.001, 1000000)
                       .defaults(10),
                   Field::number("burst", "server", "tokens", "the most tokens, and the start")
                       .range(1, kBillion)
                       .defaults(10),
                   ms("answerMs", "server", "how long the 429 takes to give (no worker, no queue)", 0, 60000)
                       .defaults(0),
                   ms("retryAfterMs", "server", "the 429's Retry-After; null: none", 0, kMaxMs)
                       .orNull()
                       .defaults(Literal::null()),
               })
        .orNull()
        .defaults(Literal::null())
        .echoSparse();
}
Field adaptive() {
    return gate("adaptive", "AWS adaptive retry mode's client rate limiter (every send waits for its token bucket)", {})
        .echoSparse();
}
Field local() {
    return gate("local", "client-side throttling (the SRE book; grpc-go's adaptive throttler) before every send",
                {
                    ms("windowMs", "gates", "the lookback the accepts and throttles are counted over", 1, kMaxMs)
                        .defaults(30000),
                    Field::number("bins", "gates", "bins", "the lookback's bins")
                        .wholeNumber()
                        .range(1, 10000)
                        .defaults(100),
                    Field::number("ratio", "gates", "×", "K: requests beyond ratio × accepts are throttled")
                        .range(1, 100)
                        .defaults(2),
                    Field::number("padding", "gates", "requests", "added to the requests in the probability's divisor")
                        .range(0, 1000000)
                        .defaults(8),
                })
        .echoSparse();
}

// docs/throttling.md §7: Envoy's admission control, its defaults.
Field admissionControl() {
    return gate("admissionControl",
                "Envoy's admission control in the client's sidecar: rejects an attempt with a "
                "503 by the window's success rate",
                {
                    ms("windowMs", "gates",
                       "the window the requests and successes are counted over, in buckets of 1 s "
                       "(a whole number of seconds)",
                       1000, kMaxMs)
                        .defaults(30000),
                    Field::number("srThreshold", "gates", "%", "the success rate below which attempts are rejected")
                        .range(0, 100)
                        .defaults(95),
                    Field::number("aggression", "gates", "",
                                  "the rejection probability is raised to the power 1 / aggression")
                        .range(1, 100)
                        .defaults(1),
                    Field::number("rpsThreshold", "gates", "requests/s",
                                  "below this average rate in the window, nothing is rejected")
                        .wholeNumber()
                        .range(0, 1000000)
                        .defaults(0),
                    Field::number("maxRejectionProbability", "gates", "%", "the rejection probability's cap")
                        .range(0, 100)
                        .defaults(80),
                })
        .echoSparse();
}

// docs/servers.md §2's rows. Each is echoed only when given and not its default, so that every
// request without them echoes exactly as before (§9).
Field serviceDist() {
    return Field::choice(
               "serviceDist", "server", "how an attempt's service time is drawn (docs/servers.md §3.3)",
               {
                   {"fixed", static_cast<int>(servers::ServiceDist::Fixed), "serviceMs itself (FLEET.md)"},
                   {"exponential", static_cast<int>(servers::ServiceDist::Exponential), "a draw of mean serviceMs"},
                   {"lognormal", static_cast<int>(servers::ServiceDist::Lognormal),
                    "a draw of median serviceMs and shape serviceSigma"},
               })
        .defaults("fixed")
        .echoSparse();
}
Field serviceSigma() {
    return Field::number("serviceSigma", "server", "", "σ of the log-normal service time (serviceDist \"lognormal\")")
        .range(0, 4)
        .defaults(1)
        .echoSparse();
}
// The members an override may replace (docs/servers.md §2): the server's rows but admission, with
// no default (an absent one is the server object's), after the override's `index`.
Field serverOverride(const std::vector<Field>& serverRows) {
    std::vector<Field> rows;
    rows.push_back(Field::number("index", "servers", "", "the server this override changes, 0 … count − 1")
                       .wholeNumber()
                       .range(0, 999)
                       .needed());
    for (const Field& m : serverRows) {
        if (m.name == "admission") continue;
        Field copy = m;
        copy.defaultValue = Literal::none();
        copy.onlyWhen = Presence{};
        copy.sparseMember = false;
        rows.push_back(std::move(copy));
    }
    return Field::object("", "servers", "one server's own fields", std::move(rows))
        .objectWords("{ \"index\": 0, \"failureRate\": 1 }",
                     "is not a field a server may override; an override may have");
}
Field serversRow(const std::vector<Field>& serverRows) {
    return Field::object("servers", "servers",
                         "K replicas behind a balancer, each the server object changed by its "
                         "override (docs/servers.md §2); null: one server",
                         {
                             Field::number("count", "servers", "servers", "K, the replicas")
                                 .wholeNumber()
                                 .range(1, 1000)
                                 .defaults(2),
                             Field::list("overrides", "servers", "", "per-server changes to the server object",
                                         serverOverride(serverRows))
                                 .length(0, 1000)
                                 .words("override objects", "override")
                                 .defaults(Literal::list({})),
                         })
        .orNull()
        .defaults(Literal::null())
        .echoSparse();
}
Field balancerRow() {
    return Field::object(
               "balancer", "servers", "how each attempt's server is chosen (docs/servers.md §4)",
               {
                   Field::choice(
                       "kind", "servers", "the balancer's rule",
                       {
                           {"round-robin", static_cast<int>(servers::BalancerKind::RoundRobin), "each server in turn"},
                           {"random", static_cast<int>(servers::BalancerKind::Random), "a uniform draw"},
                           {"least-outstanding", static_cast<int>(servers::BalancerKind::LeastOutstanding),
                            "the fewest outstanding attempts, ties by a draw (Envoy's least request, full scan)"},
                           {"two-choices", static_cast<int>(servers::BalancerKind::TwoChoices),
                            "the less loaded of two drawn (Envoy's least request, its default)"},
                       })
                       .defaults("round-robin"),
                   Field::choice("scope", "servers", "one balancer per client (a sidecar), or one for the fleet",
                                 {
                                     {"client", static_cast<int>(GateScope::Client), "one per client"},
                                     {"fleet", static_cast<int>(GateScope::Fleet), "one shared by all clients"},
                                 })
                       .defaults("client"),
               })
        .defaults(Literal::filled())
        .echoSparse();
}
Field indexList(const char* name, const char* group, const char* description) {
    return Field::list(name, group, "", description,
                       Field::number("", group, "", "a server index").wholeNumber().range(0, 999))
        .length(1, 1000)
        .distinctItems()
        .words("server indices (whole numbers from 0 to 999)", "server")
        .orNull()
        .defaults(Literal::null());
}
Field faultsRow() {
    Field item = Field::object("", "faults", "a crash or a partition of some servers",
                               {
                                   Field::choice("kind", "faults", "what goes wrong",
                                                 {
                                                     {"crash", static_cast<int>(FaultKind::Crash),
                                                      "the server refuses connections; work at it is aborted"},
                                                     {"partition", static_cast<int>(FaultKind::Partition),
                                                      "nothing reaches the server or comes back from it"},
                                                 })
                                       .needed(),
                                   indexList("servers", "faults", "the servers it acts on; null: every one"),
                                   ms("startMs", "faults", "the fault's start", 0, kMaxMs).needed(),
                                   ms("endMs", "faults", "the fault's end (at least startMs)", 0, kMaxMs).needed(),
                               })
                     .objectWords("{ \"kind\": \"crash\", \"servers\": [0], \"startMs\": 10000, \"endMs\": 20000 }",
                                  "is not a fault field; a fault may have");
    return Field::list("faults", "faults", "", "crashes and partitions of servers (docs/servers.md §5)",
                       std::move(item))
        .length(0, 100)
        .words("fault objects", "fault")
        .defaults(Literal::list({}))
        .echoSparse();
}
Field keyStoreRow() {
    return Field::object(
               "keyStore", "request", "where the idempotency records live (docs/servers.md §6)",
               {
                   Field::choice("scope", "request", "one store, one per server, or one replicated with a lag",
                                 {
                                     {"shared", static_cast<int>(servers::KeyScope::Shared),
                                      "one store every server reads at once"},
                                     {"per-server", static_cast<int>(servers::KeyScope::PerServer),
                                      "each server its own: never seen by another"},
                                     {"replicated", static_cast<int>(servers::KeyScope::Replicated),
                                      "other servers see a write lagMs later"},
                                 })
                       .defaults("shared"),
                   ms("lagMs", "request", "the replication lag (scope \"replicated\" only)", 0, kMaxMs).defaults(0),
               })
        .defaults(Literal::filled())
        .echoSparse();
}

// docs/layers.md §9: policy's members and, after them, `layers`: a list of 1–5 layer objects, each
// with §2's own rows around a copy of every policy row but hedging (from the same declarations),
// without its default: an absent one is the policy's. Null (the default) is FLEET.md's one layer,
// echoed only when given, so that every request without it echoes as before.
std::vector<Field> policyMembers(bool occ, std::vector<Field> members) {
    (void)occ;
    std::vector<Field> layerRows;
    layerRows.push_back(Field::string("name", "policy", "shown in the totals; default \"layer i\"").length(1, 64));
    for (const Field& m : members) {
        if (m.name == "hedging" || m.name == "retryHost" || m.name == "hostSelectionRetryMaxAttempts") continue;
        Field copy = m;
        copy.defaultValue = Literal::none();
        if (copy.name == "maxRetries") copy.nullable = false;
        layerRows.push_back(std::move(copy));
    }
    layerRows.push_back(
        Field::choice("key", "policy", "default: layer 1 mint when idempotencyKey, else none; below it pass",
                      {
                          {"none", static_cast<int>(LayerKey::None), "its attempts carry no key"},
                          {"mint", static_cast<int>(LayerKey::Mint), "one new key for each call it receives"},
                          {"pass", static_cast<int>(LayerKey::Pass), "the key its call was given"},
                      }));
    layerRows.push_back(
        Field::choice(
            "giveUp", "policy", "what a call that ends without a 2xx relays",
            {
                {"last-failure", static_cast<int>(GiveUp::LastFailure), "its last attempt's answer"},
                {"do-not-retry", static_cast<int>(GiveUp::DoNotRetry), "given-up, which no layer above retries"},
            })
            .defaults("last-failure"));
    layerRows.push_back(
        Field::choice("cancel", "policy", "what the call below does when this layer stops waiting for it",
                      {
                          {"propagate", static_cast<int>(Cancel::Propagate), "it is cancelled, and all beneath it"},
                          {"orphan", static_cast<int>(Cancel::Orphan), "it runs on; its result reaches no one"},
                      })
            .defaults("propagate"));
    layerRows.push_back(Field::boolean("inheritDeadline", "policy",
                                       "a call ends no later than its caller's cutoff less "
                                       "deadlineMarginMs")
                            .defaults(false));
    layerRows.push_back(ms("deadlineMarginMs", "policy", "taken off an inherited deadline", 0, kMaxMs).defaults(0));
    Field item = Field::object("", "policy", "one retry layer", std::move(layerRows))
                     .objectWords("{ \"name\": \"SDK\", \"maxRetries\": 2 }", "is not a layer field; a layer may have");
    members.push_back(Field::list("layers", "policy", "",
                                  "retry layers stacked, top first (docs/layers.md §9); null: the "
                                  "policy's own one",
                                  std::move(item))
                          .length(1, 5)
                          .words("layer objects", "layer")
                          .orNull()
                          .defaults(Literal::null())
                          .echoSparse());
    return members;
}

Variant networkVariant(NetworkDist dist, bool occ) {
    const bool first = occ ? dist == NetworkDist::Normal : dist == NetworkDist::Fixed;
    auto leg = [first](const char* name, const char* description, double def) {
        Field f = ms(name, "network", description, 0, 60000);
        if (first) f.defaults(def);
        return f;
    };
    switch (dist) {
        case NetworkDist::Fixed:
            return {"fixed", static_cast<int>(dist), "every leg takes ms", {leg("ms", "every leg's delay", 5)}};
        case NetworkDist::Uniform:
            return {"uniform",
                    static_cast<int>(dist),
                    "lo + (hi − lo) × draw",
                    {leg("lo", "the shortest leg", 0), leg("hi", "the longest leg (at least lo)", 0)}};
        case NetworkDist::Exponential:
            return {"exponential", static_cast<int>(dist), "−mean × ln(1 − draw)", {leg("mean", "the mean leg", 0)}};
        case NetworkDist::Normal:
            return {"normal",
                    static_cast<int>(dist),
                    "|mean + sd × z|, z from four draws",
                    {leg("mean", "the mean leg", 10), leg("sd", "the spread", 2)}};
    }
    return {};
}

// FLEET.md §3 and docs/throttling.md §3: one server's members, with docs/servers.md §3.3's service
// distribution: the server object's, and what a replica's override may replace (serversRow).
std::vector<Field> serverMembers() {
    return {
        Field::number("workers", "server", "attempts", "attempts in service at once; null: no limit")
            .wholeNumber()
            .range(1, 100000)
            .orNull()
            .defaults(10),
        Field::number("queueLimit", "server", "attempts", "most attempts waiting; null: no limit")
            .wholeNumber()
            .range(0, 10000000)
            .orNull()
            .defaults(Literal::null()),
        Field::choice("queueOrder", "server", "which waiting attempt is served next",
                      {
                          {"fifo", static_cast<int>(QueueOrder::Fifo), "the oldest"},
                          {"lifo", static_cast<int>(QueueOrder::Lifo), "the newest"},
                      })
            .defaults("fifo"),
        ms("serviceMs", "server", "time to serve one attempt", 0, 600000).defaults(50),
        ms("serviceMsPerInFlight", "server", "added per attempt in service (itself included) when service starts", 0,
           60000)
            .defaults(0),
        Field::number("failureRate", "server", "", "a served attempt fails (500) with this probability")
            .range(0, 1)
            .defaults(0),
        Field::choice(
            "dropStale", "server", "which stale attempts a worker drops unserved",
            {
                {"never", static_cast<int>(DropStale::Never), "none"},
                {"expired", static_cast<int>(DropStale::Expired), "those whose client has stopped waiting"},
                {"unfinishable", static_cast<int>(DropStale::Unfinishable), "also those that cannot finish in time"},
            })
            .defaults("never"),
        ms("rejectRetryAfterMs", "server", "the Retry-After of a 503 from an outage or a full queue; null: none", 0,
           kMaxMs)
            .orNull()
            .defaults(Literal::null()),
        admission(),
        serviceDist(),
        serviceSigma().only("serviceDist", Literal::string("lognormal"), "σ shapes the log-normal only"),
    };
}

// FLEET.md §3: the fleet itself: its workload, seed and clients.
std::vector<Field> fleetRows() {
    return {
        Field::choice("workload", "fleet", "what the fleet does",
                      {
                          {"service", static_cast<int>(FleetWorkload::Service),
                           "requests to one server with workers and a queue"},
                          {"occ", static_cast<int>(FleetWorkload::Occ),
                           "clients contending for one row (the AWS 2015 experiment)"},
                      })
            .defaults("service"),
        Field::number("seed", "fleet", "", "the seed of every addressed random stream")
            .wholeNumber()
            .range(0, kMaxSafeInteger)
            .defaults(1),
        Field::number("clients", "fleet", "clients", "callers sharing the server (occ: 1–1,000)")
            .wholeNumber()
            .range(1, 10000)
            .defaults(100),
    };
}

// FLEET.md §3: how each client creates its requests.
std::vector<Field> arrivalRows() {
    return {
        Field::choice("arrivals", "arrivals", "how each client creates its requests",
                      {
                          {"poisson", static_cast<int>(Arrivals::Poisson), "gaps exponential(1000 / rate)"},
                          {"uniform", static_cast<int>(Arrivals::Uniform), "gaps uniform(0, 2000 / rate)"},
                          {"serial", static_cast<int>(Arrivals::Serial), "one request at a time, gaps as poisson"},
                          {"once", static_cast<int>(Arrivals::Once), "one request per client at time 0"},
                      })
            .defaults("poisson"),
        Field::number("ratePerClient", "arrivals", "requests/s", "requests per second per client")
            .range(0.001, 1000)
            .defaults(1),
        ms("durationMs", "arrivals", "requests are created in [0, durationMs)", 1, 600000).defaults(60000),
        Field::object("spike", "arrivals", "the rate × factor for gaps drawn in [startMs, endMs)",
                      {
                          ms("startMs", "arrivals", "the spike's start", 0, kMaxMs).needed(),
                          ms("endMs", "arrivals", "the spike's end (at least startMs)", 0, kMaxMs).needed(),
                          Field::number("factor", "arrivals", "×", "the rate's factor").range(0.01, 100).needed(),
                      })
            .orNull()
            .defaults(Literal::null()),
    };
}

// FLEET.md §3: one leg's delay; the occ workload's default is the normal one (§7).
std::vector<Field> networkRows(bool occ) {
    std::vector<Variant> networks;
    for (NetworkDist d : {NetworkDist::Fixed, NetworkDist::Uniform, NetworkDist::Exponential, NetworkDist::Normal})
        networks.push_back(networkVariant(d, occ));
    if (occ) std::rotate(networks.begin(), networks.end() - 1, networks.end());  // normal first: the default
    return {
        Field::variant("network", "network", "one leg's delay", "dist", networks).defaults(Literal::filled()),
    };
}

// FLEET.md §3 and docs/throttling.md §3: the one server; docs/servers.md §2: its replicas and the balancer.
std::vector<Field> serverRows() {
    const std::vector<Field> members = serverMembers();
    return {
        Field::object("server", "server", "one server: workers, a queue, a failure rate", members)
            .defaults(Literal::filled()),
        serversRow(members),
        balancerRow(),
    };
}

// FLEET.md §3: what goes wrong.
std::vector<Field> triggerRows() {
    return {
        Field::variant(
            "trigger", "trigger", "what goes wrong; null: nothing", "kind",
            {
                {"slowdown",
                 static_cast<int>(TriggerKind::Slowdown),
                 "service starting in [startMs, endMs) takes factor times as long",
                 {
                     ms("startMs", "trigger", "the trigger's start", 0, kMaxMs).defaults(10000),
                     ms("endMs", "trigger", "the trigger's end (at least startMs)", 0, kMaxMs).defaults(20000),
                     Field::number("factor", "trigger", "×", "how many times as long").range(1, 1000).defaults(4),
                     indexList("servers", "trigger", "the servers it acts on (docs/servers.md §5); null: every one")
                         .echoSparse(),
                 }},
                {"outage",
                 static_cast<int>(TriggerKind::Outage),
                 "every attempt arriving in [startMs, endMs) gets 503 at once",
                 {
                     ms("startMs", "trigger", "the trigger's start", 0, kMaxMs),
                     ms("endMs", "trigger", "the trigger's end (at least startMs)", 0, kMaxMs),
                     indexList("servers", "trigger", "the servers it acts on (docs/servers.md §5); null: every one")
                         .echoSparse(),
                 }},
            })
            .orNull()
            .defaults(Literal::filled()),
        faultsRow(),
    };
}

// A failure class a policy may retry (policy.retryOn, policy.hedging.nonFatal): docs/servers.md §5's refused and reset
// too.
const char* const kClassWords = "failure classes (\"timeout\", \"5xx\", \"429\", \"refused\", \"reset\")";

Field failureClass() {
    std::vector<Choice> classes = {
        {"timeout", static_cast<int>(FailureClass::Timeout), "no answer in time"},
        {"5xx", static_cast<int>(FailureClass::ServerError), "a 500 or a 503 (and a refusal or a reset)"},
        {"429", static_cast<int>(FailureClass::TooManyRequests), "a 429 of server.admission (docs/throttling.md §3)"},
    };
    for (const FaultClass& c : kFaultClasses) classes.push_back({c.name, static_cast<int>(c.value), c.description});
    return Field::choice("", "", "a failure class", std::move(classes));
}

// docs/throttling.md §6 and §8: null by default and echoed only when given; its kind
// echoed only when not "a6", so that every §6 request echoes as before.
Field hedging() {
    const Field retryClass = failureClass();
    return Field::object(
               "hedging", "policy",
               "hedging: gRPC A6's copies of a request delayMs apart (needs "
               "maxRetries 0), or Envoy's hedge on per-try timeout; null: none",
               {
                   Field::choice("kind", "policy", "which hedging: gRPC A6's or Envoy's per-try timeout",
                                 {
                                     {"a6", static_cast<int>(HedgeKind::A6),
                                      "gRPC A6: copies delayMs apart, the first 200 wins (needs maxRetries 0)"},
                                     {"per-try-timeout", static_cast<int>(HedgeKind::PerTryTimeout),
                                      "Envoy: a per-try timeout sends the next retry and keeps the attempt in flight "
                                      "(needs deadlineMs)"},
                                 })
                       .defaults("a6")
                       .echoSparse(),
                   Field::number("maxAttempts", "policy", "copies", "the most copies sent, the first included")
                       .wholeNumber()
                       .range(2, 5)
                       .only("kind", Literal::string("a6"), kA6Only)
                       .requiredIf("kind", Literal::string("a6"),
                                   "gRPC A6's hedging needs maxAttempts, a whole number from 2 to 5"),
                   ms("delayMs", "policy", "between one copy and the next", 0, kMaxMs)
                       .defaults(0)
                       .only("kind", Literal::string("a6"), kA6Only),
                   Field::list("nonFatal", "policy", "", "the failure classes after which the next copy goes at once",
                               retryClass)
                       .length(0, 5)
                       .distinctItems()
                       .words(kClassWords, "class")
                       .defaults(Literal::strings({}))
                       .only("kind", Literal::string("a6"), kA6Only),
               })
        .orNull()
        .defaults(Literal::null())
        .echoSparse();
}

// FLEET.md §3's policy (its occ defaults, §7), with docs/throttling.md's hedging and docs/layers.md §9's layers.
std::vector<Field> policyRows(bool occ) {
    Field maxRetries = Field::number("maxRetries", "policy", "retries",
                                     "retries after the first attempt (occ: null, no limit, is the default)")
                           .wholeNumber()
                           .range(0, 100)
                           .orNull();
    if (occ)
        maxRetries.defaults(Literal::null());
    else
        maxRetries.defaults(3);
    Field cap = ms("maxBackoffMs", "policy", "the cap on the backoff ceiling; null: none", 0, kMaxMs).orNull();
    if (occ)
        cap.defaults(2000);
    else
        cap.defaults(Literal::null());
    const Field retryClass = failureClass();

    return {
        Field::object(
            "policy", "policy", "each client's retry policy",
            policyMembers(
                occ,
                {
                    maxRetries,
                    ms("baseBackoffMs", "policy", "the backoff's base", 0, kMaxMs).defaults(occ ? 10 : 100),
                    Field::number("backoffMultiplier", "policy", "×", "the backoff's growth per failure")
                        .range(1, 10)
                        .defaults(2),
                    cap,
                    Field::choice("jitter", "policy", "how a draw spreads the backoff wait",
                                  {
                                      {"none", static_cast<int>(Jitter::None), "the ceiling itself"},
                                      {"full", static_cast<int>(Jitter::Full), "ceiling × draw"},
                                      {"equal", static_cast<int>(Jitter::Equal), "ceiling/2 + ceiling/2 × draw"},
                                      {"decorrelated", static_cast<int>(Jitter::Decorrelated),
                                       "base + draw × (3 × previous − base), capped"},
                                  })
                        .defaults(occ ? "full" : "none"),
                    ms("clientTimeoutMs", "policy", "each attempt's waiting limit", 1, kMaxMs).defaults(1000),
                    ms("deadlineMs", "policy", "per request, from its creation; null: none", 0, kMaxMs)
                        .orNull()
                        .defaults(Literal::null()),
                    Field::list("retryOn", "policy", "", "the failure classes retried", retryClass)
                        .length(0, 5)
                        .distinctItems()
                        .words(kClassWords, "class")
                        .defaults(Literal::strings({"timeout", "5xx"})),
                    Field::boolean("honourRetryAfter", "policy", "a 503's Retry-After replaces the backoff wait")
                        .defaults(true),
                    Field::choice("retryHost", "policy", "which server a retry may go to (docs/servers.md §4.2)",
                                  {
                                      {"any", static_cast<int>(HostRule::Any), "the balancer's pick"},
                                      {"previous-hosts", static_cast<int>(HostRule::PreviousHosts),
                                       "not a server the request tried, if a pick finds one (Envoy's previous_hosts)"},
                                  })
                        .defaults("any")
                        .echoSparse(),
                    Field::number("hostSelectionRetryMaxAttempts", "policy", "picks",
                                  "picks a retry makes after its first under previous-hosts (Envoy's; its default 1)")
                        .wholeNumber()
                        .range(0, 100)
                        .defaults(1)
                        .echoSparse(),
                    hedging(),
                }))
            .defaults(Literal::filled()),
    };
}

// FLEET.md §5's gates, docs/layers.md §9.3's layer of each, docs/throttling.md §4, §5 and §7's send gates.
std::vector<Field> gateRows() {
    return {
        Field::object(
            "gates", "gates", "client-side retry gates, each null (off) or an object",
            {
                layeredGate("quota", "the AWS SDKs' retry quota",
                            {
                                amount("capacity", "gates", "tokens", "the quota when full, its start", 500),
                                amount("retryCost", "gates", "tokens", "a retry after a 5xx costs this", 5),
                                amount("timeoutCost", "gates", "tokens", "a retry after a timeout costs this", 10),
                                amount("successIncrement", "gates", "tokens",
                                       "a success that paid nothing adds this (and one that paid: refund)", 1),
                                refund(),
                            }),
                layeredGate("bucket", "Brooker's adaptive retry token bucket",
                            {
                                amount("capacity", "gates", "tokens", "the bucket when full, its start", 5),
                                amount("deposit", "gates", "tokens",
                                       "each first attempt sent (or each success: depositOn) adds this", 0.1),
                                amount("cost", "gates", "tokens",
                                       "a retry needs more than this (or at least this: allowWhen), and takes it", 1),
                                depositOn(),
                                allowWhen(),
                            }),
                layeredGate("throttle", "gRPC's retry throttling",
                            {
                                Field::number("maxTokens", "gates", "tokens", "the start and the most tokens")
                                    .range(1, 1000)
                                    .defaults(10),
                                Field::number("tokenRatio", "gates", "tokens", "each success adds this")
                                    .range(0.001, 1)
                                    .defaults(0.1),
                                countFailures(),
                            }),
                layeredGate(
                    "budget", "a retry budget (Finagle, Linkerd)",
                    {
                        Field::number("percent", "gates", "%", "retries allowed per hundred first attempts")
                            .range(0, 100)
                            .defaults(20),
                        amount("minPerSecond", "gates", "retries/s", "retries allowed besides the percentage", 10),
                        ms("ttlMs", "gates", "the window the budget counts over", 1, kMaxMs).defaults(10000),
                    }),
                layeredGate(
                    "breaker", "a count-based circuit breaker (resilience4j)",
                    {
                        Field::number("window", "gates", "outcomes", "the last outcomes a closed breaker counts")
                            .wholeNumber()
                            .range(1, 10000000)
                            .defaults(100),
                        Field::number("minCalls", "gates", "outcomes", "outcomes needed before it may open")
                            .wholeNumber()
                            .range(1, 10000000)
                            .defaults(100),
                        Field::number("failurePercent", "gates", "%", "it opens at this share of failures")
                            .range(0, 100)
                            .defaults(50),
                        ms("openMs", "gates", "how long it stays open", 0, kMaxMs).defaults(60000),
                        Field::number("halfOpenCalls", "gates", "attempts", "trial attempts when half-open")
                            .wholeNumber()
                            .range(1, 10000000)
                            .defaults(10),
                    }),
                adaptive(),
                local(),
                admissionControl(),
            })
            .defaults(Literal::filled()),
    };
}

// FLEET.md §3: what a request does, the timeline's bins and the occ workload's runs.
std::vector<Field> requestRows() {
    return {
        Field::choice("operation", "request", "what a request does",
                      {
                          {"charge", static_cast<int>(Operation::Charge), "a 200 commits a charge"},
                          {"read", static_cast<int>(Operation::Read), "no side effect"},
                      })
            .defaults("charge"),
        Field::boolean("idempotencyKey", "request", "a request's commits after its first are replays, not charges")
            .defaults(false),
        keyStoreRow(),
        Field::number("binMs", "result", "ms", "the timeline's bin width")
            .wholeNumber()
            .range(1, 600000)
            .defaults(1000),
        Field::number("runs", "occ", "runs", "occ only: independent runs, run r with seed + r")
            .wholeNumber()
            .range(1, 1000)
            .defaults(100),
    };
}

FieldTable makeFleet(bool occ) {
    FieldTable t;
    t.name = "fleet";
    t.subject = "The fleet request";
    t.example = "{ \"clients\": 100 }";
    t.unknownWords = "is not a field of the fleet request (check its spelling).";

    for (const std::vector<Field>& rows : {fleetRows(), arrivalRows(), networkRows(occ), serverRows(), triggerRows(),
                                           policyRows(occ), gateRows(), requestRows()})
        t.fields.insert(t.fields.end(), rows.begin(), rows.end());
    return t;
}

double numberAt(const Value& object, const char* name) {
    const Value* v = object.find(name);
    return v && v->kind() == Value::Kind::Number ? v->asNumber() : 0;
}
std::optional<double> optionalAt(const Value& object, const char* name) {
    const Value* v = object.find(name);
    if (!v || v->isNull()) return std::nullopt;
    return v->asNumber();
}
// A choice's engine number, from the row that declares it.
template <class E>
E choiceAt(const Field& row, const Value& object) {
    return static_cast<E>(row.valueOf(object.find(row.name)->asString()));
}
GateScope scopeAt(const Value& gate) {
    static const Field row = scope();
    return choiceAt<GateScope>(row, gate);
}
// A sparse member (absent from the normalized value at its default) as its engine number.
template <class E>
E sparseChoiceAt(const Field& row, const Value& gate) {
    const Value* v = gate.find(row.name);
    return static_cast<E>(v ? row.valueOf(v->asString()) : row.valueOf(row.defaultValue.text));
}

const Field& member(const Field& object, const char* name) { return *object.member(name); }
// docs/layers.md §9.3: a gate's layer (sparse: absent at its default, null).
std::optional<int> gateLayerAt(const Value& gate) {
    const std::optional<double> at = optionalAt(gate, "layer");
    return at ? std::optional<int>(static_cast<int>(*at)) : std::nullopt;
}

// FLEET.md §3's server members present in `s` over `base` (every member, for the server object;
// the members given, for an override: docs/servers.md §2).
Server readServer(const Field& server, const Value& s, Server out) {
    if (const Value* w = s.find("workers"))
        out.workers =
            w->isNull() ? std::nullopt : std::optional<std::uint32_t>(static_cast<std::uint32_t>(w->asNumber()));
    if (const Value* q = s.find("queueLimit"))
        out.queueLimit =
            q->isNull() ? std::nullopt : std::optional<std::uint32_t>(static_cast<std::uint32_t>(q->asNumber()));
    if (s.find("queueOrder")) out.queueOrder = choiceAt<QueueOrder>(member(server, "queueOrder"), s);
    if (s.find("serviceMs")) out.serviceMs = numberAt(s, "serviceMs");
    if (s.find("serviceMsPerInFlight")) out.serviceMsPerInFlight = numberAt(s, "serviceMsPerInFlight");
    if (s.find("failureRate")) out.failureRate = numberAt(s, "failureRate");
    if (s.find("dropStale")) out.dropStale = choiceAt<DropStale>(member(server, "dropStale"), s);
    if (s.find("rejectRetryAfterMs")) out.rejectRetryAfterMs = optionalAt(s, "rejectRetryAfterMs");
    if (const Value* a = s.find("admission"); a && !a->isNull())  // sparse: absent at its default
        out.admission = Admission{scopeAt(*a), numberAt(*a, "ratePerSecond"), numberAt(*a, "burst"),
                                  numberAt(*a, "answerMs"), optionalAt(*a, "retryAfterMs")};
    if (s.find("serviceDist")) out.serviceDist = choiceAt<servers::ServiceDist>(member(server, "serviceDist"), s);
    if (s.find("serviceSigma")) out.serviceSigma = numberAt(s, "serviceSigma");
    return out;
}
// docs/servers.md §2: K copies of the server object, each changed by its override.
FleetServers readServers(const Field& server, const Value& k, const Server& base) {
    FleetServers out;
    out.count = static_cast<std::uint32_t>(numberAt(k, "count"));
    out.each.assign(out.count, base);
    for (const Value& o : k.find("overrides")->asArray()) {
        FleetServerOverride given;
        given.index = static_cast<std::uint32_t>(numberAt(o, "index"));
        for (const Value::Member& m : o.asObject())
            if (m.key != "index") given.given.push_back(m.key);
        if (given.index < out.count) out.each[given.index] = readServer(server, o, out.each[given.index]);
        out.overrides.push_back(std::move(given));
    }
    return out;
}
// A list of server indices (faults[i].servers, trigger.servers); absent or null: none (every server).
std::optional<std::vector<std::uint32_t>> indicesAt(const Value& object, const char* name) {
    const Value* v = object.find(name);
    if (!v || v->isNull()) return std::nullopt;
    std::vector<std::uint32_t> out;
    for (const Value& i : v->asArray()) out.push_back(static_cast<std::uint32_t>(i.asNumber()));
    return out;
}

// FLEET.md §3's policy members of a normalized policy object (or of a filled layer over it).
FleetPolicy readPolicy(const Field& policy, const Value& p) {
    FleetPolicy out;
    if (auto m = optionalAt(p, "maxRetries"))
        out.maxRetries = static_cast<int>(*m);
    else
        out.maxRetries.reset();
    out.baseBackoffMs = numberAt(p, "baseBackoffMs");
    out.backoffMultiplier = numberAt(p, "backoffMultiplier");
    out.maxBackoffMs = optionalAt(p, "maxBackoffMs");
    out.jitter = choiceAt<Jitter>(member(policy, "jitter"), p);
    out.clientTimeoutMs = numberAt(p, "clientTimeoutMs");
    out.deadlineMs = optionalAt(p, "deadlineMs");
    out.retryOn.clear();
    out.retryTimeout = out.retry5xx = out.retry429 = false;
    for (const Value& c : p.find("retryOn")->asArray()) {
        out.retryOn.push_back(c.asString());
        if (c.asString() == "timeout") out.retryTimeout = true;
        if (c.asString() == "5xx") out.retry5xx = true;
        if (c.asString() == "429") out.retry429 = true;
        if (c.asString() == "refused") out.retryRefused = true;
        if (c.asString() == "reset") out.retryReset = true;
    }
    out.honourRetryAfter = p.find("honourRetryAfter")->asBool();
    static const Field retryHost = member(policy, "retryHost");
    out.retryHost = sparseChoiceAt<HostRule>(retryHost, p);
    const std::optional<double> picks = optionalAt(p, "hostSelectionRetryMaxAttempts");
    out.hostSelectionRetryMaxAttempts = picks ? static_cast<std::uint32_t>(*picks) : 1;
    if (const Value* h = p.find("hedging"); h && !h->isNull()) {
        Hedging hedging;
        static const Field kind = *member(policy, "hedging").member("kind");
        hedging.kind = sparseChoiceAt<HedgeKind>(kind, *h);
        hedging.maxAttempts = static_cast<int>(numberAt(*h, "maxAttempts"));
        hedging.delayMs = numberAt(*h, "delayMs");
        static const Value none = Value::array();
        const Value* nonFatal = h->find("nonFatal");  // a6's only (docs/throttling.md §8)
        for (const Value& c : (nonFatal ? *nonFatal : none).asArray()) {
            hedging.nonFatal.push_back(c.asString());
            if (c.asString() == "timeout") hedging.nonFatalTimeout = true;
            if (c.asString() == "5xx") hedging.nonFatal5xx = true;
            if (c.asString() == "429") hedging.nonFatal429 = true;
            if (c.asString() == "refused") hedging.nonFatalRefused = true;
            if (c.asString() == "reset") hedging.nonFatalReset = true;
        }
        out.hedging = hedging;
    }
    return out;
}

// docs/layers.md §9: the filled layers (fillLayers) as typed layers, each over the policy.
std::vector<FleetLayer> readLayers(const Field& policy, const Value& p) {
    std::vector<FleetLayer> out;
    const Value* layers = p.find("layers");
    if (!layers || layers->kind() != Value::Kind::Array) return out;
    const Field& row = member(policy, "layers").item.front();
    for (const Value& l : layers->asArray()) {
        Value merged = Value::object();
        for (const Value::Member& m : l.asObject()) merged.set(m.key, m.value);
        for (const Value::Member& m : p.asObject())
            if (!l.find(m.key) && m.key != "layers") merged.set(m.key, m.value);
        FleetLayer layer;
        layer.policy = readPolicy(policy, merged);
        layer.name = l.find("name")->asString();
        layer.key = choiceAt<LayerKey>(member(row, "key"), l);
        layer.giveUp = choiceAt<GiveUp>(member(row, "giveUp"), l);
        layer.cancel = choiceAt<Cancel>(member(row, "cancel"), l);
        layer.inheritDeadline = l.find("inheritDeadline")->asBool();
        layer.deadlineMarginMs = numberAt(l, "deadlineMarginMs");
        out.push_back(std::move(layer));
    }
    return out;
}

// docs/layers.md §9 (§2's rule): each layer with every field filled in, top first: a member given
// is the layer's, an absent policy field the policy's, `name` "layer i", `key` by position. The
// normalized request with its policy.layers so filled (unchanged when null or absent).
Value fillLayers(const FieldTable& t, const Value& normalized) {
    const Value* policy = normalized.find("policy");
    const Value* layers = policy ? policy->find("layers") : nullptr;
    if (!layers || layers->kind() != Value::Kind::Array) return normalized;
    const Field& row = member(t.field("policy"), "layers").item.front();
    const bool idempotencyKey = normalized.find("idempotencyKey")->asBool();
    Value filled = Value::array();
    for (std::size_t i = 0; i < layers->asArray().size(); ++i) {
        const Value& given = layers->asArray()[i];
        Value layer = Value::object();
        for (const Field& m : row.members) {
            if (const Value* v = given.find(m.name)) {
                layer.set(m.name, *v);
            } else if (m.name == "name") {
                layer.set("name", Value::string("layer " + formatInt(static_cast<std::int64_t>(i + 1))));
            } else if (m.name == "key") {
                layer.set("key", Value::string(i > 0 ? "pass" : idempotencyKey ? "mint" : "none"));
            } else if (const Value* own = policy->find(m.name)) {
                layer.set(m.name, *own);
            }
        }
        filled.push(std::move(layer));
    }
    Value p = Value::object();
    for (const Value::Member& m : policy->asObject()) p.set(m.key, m.key == "layers" ? filled : m.value);
    Value out = Value::object();
    for (const Value::Member& m : normalized.asObject()) out.set(m.key, m.key == "policy" ? p : m.value);
    return out;
}

// The normalized request (every field valid) as the typed request.
FleetRequest typed(const FieldTable& table, const Value& v) {
    FleetRequest r;
    r.workload = choiceAt<FleetWorkload>(table.field("workload"), v);
    r.seed = static_cast<std::uint64_t>(numberAt(v, "seed"));
    r.clients = static_cast<std::uint32_t>(numberAt(v, "clients"));
    r.arrivals = choiceAt<Arrivals>(table.field("arrivals"), v);
    r.ratePerClient = numberAt(v, "ratePerClient");
    r.durationMs = numberAt(v, "durationMs");
    if (const Value& s = *v.find("spike"); !s.isNull())
        r.spike = Spike{numberAt(s, "startMs"), numberAt(s, "endMs"), numberAt(s, "factor")};
    const Value& n = *v.find("network");
    const Field& network = table.field("network");
    for (const Variant& option : network.variants)
        if (option.name == n.find("dist")->asString()) r.network.dist = static_cast<NetworkDist>(option.value);
    r.network.ms = numberAt(n, "ms");
    r.network.lo = numberAt(n, "lo");
    r.network.hi = numberAt(n, "hi");
    r.network.mean = numberAt(n, "mean");
    r.network.sd = numberAt(n, "sd");
    const Value& s = *v.find("server");
    const Field& server = table.field("server");
    r.server = readServer(server, s, Server{});
    if (const Value* k = v.find("servers"); k && !k->isNull()) r.servers = readServers(server, *k, r.server);
    if (const Value* b = v.find("balancer")) {
        const Field& row = table.field("balancer");
        r.balancer.kind = choiceAt<servers::BalancerKind>(member(row, "kind"), *b);
        r.balancer.scope = choiceAt<GateScope>(member(row, "scope"), *b);
    }
    if (const Value* f = v.find("faults")) {
        const Field& row = table.field("faults").item.front();
        for (const Value& item : f->asArray()) {
            Fault fault;
            fault.kind = choiceAt<FaultKind>(member(row, "kind"), item);
            if (const std::optional<std::vector<std::uint32_t>> named = indicesAt(item, "servers")) {
                fault.allServers = false;
                fault.servers.assign(named->begin(), named->end());
            }
            fault.startMs = numberAt(item, "startMs");
            fault.endMs = numberAt(item, "endMs");
            r.faults.push_back(std::move(fault));
        }
    }
    if (const Value* k = v.find("keyStore")) {
        r.keyStore.scope = choiceAt<servers::KeyScope>(member(table.field("keyStore"), "scope"), *k);
        r.keyStore.lagMs = numberAt(*k, "lagMs");
    }
    const Value& t = *v.find("trigger");
    if (t.isNull()) {
        r.trigger.reset();
    } else {
        Trigger trigger;
        trigger.kind = t.find("kind")->asString() == "outage" ? TriggerKind::Outage : TriggerKind::Slowdown;
        trigger.startMs = numberAt(t, "startMs");
        trigger.endMs = numberAt(t, "endMs");
        trigger.factor = trigger.kind == TriggerKind::Slowdown ? numberAt(t, "factor") : 1;
        r.triggerServers = indicesAt(t, "servers");
        r.trigger = trigger;
    }
    const Value& p = *v.find("policy");
    const Field& policy = table.field("policy");
    r.policy = readPolicy(policy, p);
    r.policy.layers = readLayers(policy, p);
    const Value& g = *v.find("gates");
    if (const Value& q = *g.find("quota"); !q.isNull()) {
        static const Field row = refund();
        r.gates.quota = QuotaGate{scopeAt(q),
                                  numberAt(q, "capacity"),
                                  numberAt(q, "retryCost"),
                                  numberAt(q, "timeoutCost"),
                                  numberAt(q, "successIncrement"),
                                  sparseChoiceAt<QuotaRefund>(row, q)};
        r.gates.layer.quota = gateLayerAt(q);
    }
    if (const Value& b = *g.find("bucket"); !b.isNull()) {
        static const Field deposit = depositOn(), allow = allowWhen();
        r.gates.bucket = BucketGate{scopeAt(b),
                                    numberAt(b, "capacity"),
                                    numberAt(b, "deposit"),
                                    numberAt(b, "cost"),
                                    sparseChoiceAt<BucketDeposit>(deposit, b),
                                    sparseChoiceAt<BucketAllow>(allow, b)};
        r.gates.layer.bucket = gateLayerAt(b);
    }
    if (const Value& th = *g.find("throttle"); !th.isNull()) {
        static const Field row = countFailures();
        r.gates.throttle = ThrottleGate{scopeAt(th), numberAt(th, "maxTokens"), numberAt(th, "tokenRatio"),
                                        sparseChoiceAt<ThrottleCount>(row, th)};
        r.gates.layer.throttle = gateLayerAt(th);
    }
    if (const Value& b = *g.find("budget"); !b.isNull()) {
        r.gates.budget =
            BudgetGate{scopeAt(b), numberAt(b, "percent"), numberAt(b, "minPerSecond"), numberAt(b, "ttlMs")};
        r.gates.layer.budget = gateLayerAt(b);
    }
    if (const Value& b = *g.find("breaker"); !b.isNull()) {
        r.gates.layer.breaker = gateLayerAt(b);
        r.gates.breaker = BreakerGate{scopeAt(b),
                                      static_cast<std::uint32_t>(numberAt(b, "window")),
                                      static_cast<std::uint32_t>(numberAt(b, "minCalls")),
                                      numberAt(b, "failurePercent"),
                                      numberAt(b, "openMs"),
                                      static_cast<std::uint32_t>(numberAt(b, "halfOpenCalls"))};
    }
    if (const Value* a = g.find("adaptive"); a && !a->isNull()) r.gates.adaptive = AdaptiveGate{scopeAt(*a)};
    if (const Value* l = g.find("local"); l && !l->isNull())
        r.gates.local =
            LocalGate{scopeAt(*l), numberAt(*l, "windowMs"), static_cast<std::uint32_t>(numberAt(*l, "bins")),
                      numberAt(*l, "ratio"), numberAt(*l, "padding")};
    if (const Value* a = g.find("admissionControl"); a && !a->isNull())
        r.gates.admissionControl = AdmissionControlGate{scopeAt(*a),
                                                        numberAt(*a, "windowMs"),
                                                        numberAt(*a, "srThreshold"),
                                                        numberAt(*a, "aggression"),
                                                        numberAt(*a, "rpsThreshold"),
                                                        numberAt(*a, "maxRejectionProbability")};
    r.operation = choiceAt<Operation>(table.field("operation"), v);
    r.idempotencyKey = v.find("idempotencyKey")->asBool();
    r.binMs = static_cast<std::uint32_t>(numberAt(v, "binMs"));
    r.runs = static_cast<std::uint32_t>(numberAt(v, "runs"));
    return r;
}

std::string grouped(double value);

void fail(std::vector<InputError>& errors, const std::string& field, const char* code, const std::string& detail) {
    errors.push_back({field, code, field + " " + detail, detail});
}

// docs/layers.md §9: policy.layers with the rest of the request; the gates' layers; the work
// bound of §9.4 (FLEET.md §3's with the product of the layers' maxRetries + 1).
void layerChecks(const FleetRequest& r, std::vector<InputError>& errors) {
    const std::size_t k = r.policy.layers.size();
    const std::size_t bottom = k ? k : 1;
    auto checkGate = [&](const char* name, const std::optional<int>& at) {
        if (at && static_cast<std::size_t>(*at) > bottom)
            fail(errors, std::string("gates.") + name + ".layer", "no-such-layer",
                 "must name a layer of policy.layers, from 1 to " + formatInt(static_cast<std::int64_t>(bottom)) +
                     (k ? "" : " (without policy.layers the policy is the one layer)") + "; got " + formatInt(*at) +
                     ".");
    };
    if (r.gates.quota) checkGate("quota", r.gates.layer.quota);
    if (r.gates.bucket) checkGate("bucket", r.gates.layer.bucket);
    if (r.gates.throttle) checkGate("throttle", r.gates.layer.throttle);
    if (r.gates.budget) checkGate("budget", r.gates.layer.budget);
    if (r.gates.breaker) checkGate("breaker", r.gates.layer.breaker);
    if (!k) return;
    // What a stack cannot be run with (docs/layers.md §9.6): each a one-layer model of its own.
    const char* other = r.workload == FleetWorkload::Occ ? "workload \"occ\""
                        : r.policy.hedging               ? "policy.hedging"
                        : r.server.admission             ? "server.admission"
                        : r.gates.adaptive               ? "gates.adaptive"
                        : r.gates.local                  ? "gates.local"
                        : r.gates.admissionControl       ? "gates.admissionControl"
                                                         : nullptr;
    if (other) {
        fail(errors, "policy.layers", "layers-excluded",
             std::string("must be null with ") + other +
                 " (docs/layers.md §9.6: a stack of layers runs FLEET.md's "
                 "service workload, its §5 gates and no other one-layer model).");
        return;
    }
    double product = 1;
    for (const FleetLayer& l : r.policy.layers) product *= *l.policy.maxRetries + 1.0;
    const bool once = r.arrivals == Arrivals::Once;
    const double factor = r.spike ? std::max(1.0, r.spike->factor) : 1.0;
    const double requests = once ? r.clients : r.clients * r.ratePerClient * factor * r.durationMs / 1000;
    const double work = requests * product;
    if (work > 20000000)
        fail(errors, once ? "policy.layers" : "durationMs", "too-much-work",
             std::string("makes too long a run: ") +
                 (once ? "clients"
                       : "clients × ratePerClient × spike factor × "
                         "durationMs / 1000") +
                 " × the product over policy.layers of (maxRetries + 1) must be at most 20,000,000 "
                 "bottom attempts (docs/layers.md §9.4); got " +
                 formatMs(std::floor(work), 0) + ".");
}

// docs/servers.md's fields that are not at their defaults, by the name an error gives: what a run
// of one server (the occ workload, a stack of layers) cannot take.
const char* serversFieldGiven(const FleetRequest& r) {
    if (r.servers) return "servers";
    if (!r.faults.empty()) return "faults";
    if (r.balancer.kind != servers::BalancerKind::RoundRobin || r.balancer.scope != GateScope::Client)
        return "balancer";
    if (r.keyStore.scope != servers::KeyScope::Shared || r.keyStore.lagMs != 0) return "keyStore";
    if (r.policy.retryHost != HostRule::Any) return "policy.retryHost";
    if (r.policy.hostSelectionRetryMaxAttempts != 1) return "policy.hostSelectionRetryMaxAttempts";
    if (r.trigger && r.triggerServers) return "trigger.servers";
    if (r.server.serviceDist != servers::ServiceDist::Fixed) return "server.serviceDist";
    return nullptr;
}

std::string indexPath(const std::string& list, std::size_t i) {
    return list + "[" + formatInt(static_cast<std::int64_t>(i)) + "]";
}

// Indices of a list naming servers (faults[i].servers, trigger.servers) below K.
void indicesBelow(const std::optional<std::vector<std::uint32_t>>& list, std::size_t k, const std::string& path,
                  std::vector<InputError>& errors) {
    if (!list) return;
    for (std::size_t m = 0; m < list->size(); ++m)
        if ((*list)[m] >= k)
            fail(errors, indexPath(path, m), "no-such-server",
                 "must name a server, a whole number from 0 to " + formatInt(static_cast<std::int64_t>(k - 1)) +
                     (k == 1 ? " (without servers there is one server, 0)" : " (servers.count − 1)") + "; got " +
                     formatInt((*list)[m]) + ".");
}

// Whether two faults' server lists (all, or those named) share a server.
bool shareServer(const Fault& a, const Fault& b) {
    if (a.allServers || b.allServers) return true;
    for (std::size_t x : a.servers)
        if (b.names(x)) return true;
    return false;
}

// docs/servers.md §2's rules across its fields, and §10's bounds (errors on servers.count).
void serverChecks(const FleetRequest& r, std::vector<InputError>& errors) {
    const std::size_t k = r.servers ? r.servers->count : 1;
    if (r.servers) {
        const std::vector<FleetServerOverride>& o = r.servers->overrides;
        if (o.size() > k)
            fail(errors, "servers.overrides", "too-many",
                 "must hold at most servers.count (" + formatInt(static_cast<std::int64_t>(k)) +
                     ") overrides, one a server; got " + formatInt(static_cast<std::int64_t>(o.size())) + ".");
        std::vector<std::size_t> first(k, o.size());
        for (std::size_t i = 0; i < o.size(); ++i) {
            const std::string path = indexPath("servers.overrides", i);
            const std::uint32_t j = o[i].index;
            if (j >= k) {
                fail(errors, path + ".index", "no-such-server",
                     "must name a server, a whole number from 0 to " + formatInt(static_cast<std::int64_t>(k - 1)) +
                         " (servers.count − 1); got " + formatInt(j) + ".");
                continue;
            }
            if (first[j] < o.size()) {
                fail(errors, path + ".index", "duplicate",
                     "names server " + formatInt(j) + " a second time (" + indexPath("servers.overrides", first[j]) +
                         " names it first); one override a server.");
                continue;
            }
            first[j] = i;
            const bool sigma = std::find(o[i].given.begin(), o[i].given.end(), "serviceSigma") != o[i].given.end();
            if (sigma && r.servers->each[j].serviceDist != servers::ServiceDist::Lognormal)
                fail(errors, path + ".serviceSigma", "only-with",
                     "is used only with serviceDist \"lognormal\" (the override's, else server.serviceDist): σ shapes "
                     "the log-normal only.");
        }
    }
    if (r.trigger) indicesBelow(r.triggerServers, k, "trigger.servers", errors);
    for (std::size_t i = 0; i < r.faults.size(); ++i) {
        const Fault& f = r.faults[i];
        const std::string path = indexPath("faults", i);
        if (f.endMs < f.startMs) {
            fail(errors, path + ".endMs", "out-of-order",
                 "must be at least " + path + ".startMs (" + formatMs(f.startMs, 6) + "); got " + formatMs(f.endMs, 6) +
                     ".");
            continue;
        }
        if (!f.allServers)
            indicesBelow(std::vector<std::uint32_t>(f.servers.begin(), f.servers.end()), k, path + ".servers", errors);
        for (std::size_t j = 0; j < i; ++j) {
            const Fault& g = r.faults[j];
            const bool overlap =
                f.startMs < f.endMs && g.startMs < g.endMs && f.startMs < g.endMs && g.startMs < f.endMs;
            if (overlap && g.startMs <= g.endMs && shareServer(f, g)) {
                fail(errors, path + ".servers", "overlapping-faults",
                     "names a server that " + indexPath("faults", j) +
                         " also names over an overlapping window: a server "
                         "is under one fault at a time (docs/servers.md §2).");
                break;
            }
        }
    }
    if (r.keyStore.lagMs != 0 && r.keyStore.scope != servers::KeyScope::Replicated)
        fail(errors, "keyStore.lagMs", "only-with",
             "must be 0 unless keyStore.scope is \"replicated\" (only a replicated store has a lag); got " +
                 formatMs(r.keyStore.lagMs, 6) + ".");
    if (!r.servers) return;
    // §10: the per-server bin cells, and a count per client and server for a client-scoped balancer
    // that reads counts (or a client-scoped admission limit on every server).
    const double horizon = 2 * r.durationMs + 60000;
    const double cells = static_cast<double>(k) * (std::floor(horizon / r.binMs) + 1);
    if (cells > 1000000)
        fail(errors, "servers.count", "too-much-work",
             "× the bins to the horizon (floor((2 × durationMs + 60,000) / binMs) + 1) must be at most 1,000,000 "
             "per-server bin cells (docs/servers.md §10); got " +
                 grouped(cells) + ".");
    const bool counts =
        r.balancer.scope == GateScope::Client && (r.balancer.kind == servers::BalancerKind::LeastOutstanding ||
                                                  r.balancer.kind == servers::BalancerKind::TwoChoices);
    const bool limits = r.server.admission && r.server.admission->scope == GateScope::Client;
    if ((counts || limits) && static_cast<double>(r.clients) * static_cast<double>(k) > 1000000)
        fail(errors, "servers.count", "too-much-work",
             std::string("× clients must be at most 1,000,000 with ") +
                 (counts ? "a client-scoped least-outstanding or two-choices balancer (a count per client and server)"
                         : "a client-scoped server.admission (a limit per client and server)") +
                 " (docs/servers.md §10); got " + grouped(static_cast<double>(r.clients) * static_cast<double>(k)) +
                 ".");
}

// The rules across fields, on a normalized request whose every field is valid.
void crossChecks(const FleetRequest& r, std::vector<InputError>& errors) {
    const bool occ = r.workload == FleetWorkload::Occ;
    if (r.network.dist == NetworkDist::Uniform && r.network.lo > r.network.hi)
        fail(errors, "network.hi", "out-of-order",
             "must be at least network.lo (" + formatMs(r.network.lo, 6) + "); got " + formatMs(r.network.hi, 6) + ".");
    if (r.spike && r.spike->startMs > r.spike->endMs)
        fail(errors, "spike.endMs", "out-of-order",
             "must be at least spike.startMs (" + formatMs(r.spike->startMs, 6) + "); got " +
                 formatMs(r.spike->endMs, 6) + ".");
    if (r.trigger && r.trigger->startMs > r.trigger->endMs)
        fail(errors, "trigger.endMs", "out-of-order",
             "must be at least trigger.startMs (" + formatMs(r.trigger->startMs, 6) + "); got " +
                 formatMs(r.trigger->endMs, 6) + ".");
    if (!r.policy.maxRetries) {
        if (!occ)
            fail(errors, "policy.maxRetries", "occ-only",
                 "must be a whole number from 0 to 100; null (no limit) is for the occ workload only.");
        else if (!r.policy.maxBackoffMs)
            fail(errors, "policy.maxBackoffMs", "needs-cap",
                 "must be a number from 0 to 86400000 when policy.maxRetries is null (no limit); got null.");
    }
    const bool perTry = r.policy.hedging && r.policy.hedging->kind == HedgeKind::PerTryTimeout;
    if (!occ && perTry && !r.policy.deadlineMs)
        fail(errors, "policy.hedging.kind", "needs-deadline",
             "cannot be \"per-try-timeout\" with policy.deadlineMs null: without an overall deadline nothing ends an "
             "attempt whose answer never comes (Envoy's route timeout; docs/throttling.md §8).");
    if (!occ && r.policy.hedging && !perTry && r.policy.maxRetries && *r.policy.maxRetries != 0)
        fail(errors, "policy.hedging", "needs-no-retries",
             "must be null when policy.maxRetries is not 0 (gRPC A6: a retry policy and a hedging policy exclude each "
             "other); got policy.maxRetries " +
                 formatInt(*r.policy.maxRetries) + ".");
    // docs/throttling.md §7: Envoy reads sampling_window in whole seconds.
    if (r.gates.admissionControl && std::fmod(r.gates.admissionControl->windowMs, 1000) != 0)
        fail(errors, "gates.admissionControl.windowMs", "whole-seconds",
             "must be a whole number of seconds (a multiple of 1000: Envoy's sampling_window is in seconds); got " +
                 formatMs(r.gates.admissionControl->windowMs, 6) + ".");
    if (r.durationMs > 10000.0 * r.binMs)
        fail(errors, "durationMs", "too-many-bins",
             "must be at most 10,000 × binMs (" + formatMs(10000.0 * r.binMs, 6) + "): at most 10,000 bins; got " +
                 formatMs(r.durationMs, 6) + ".");
    if (const char* given = serversFieldGiven(r); given && (occ || !r.policy.layers.empty()))
        return fail(
            errors, given, "servers-excluded",
            occ ? std::string("is for the service workload only: the occ workload has no server (docs/servers.md).")
                : std::string("must be left at its default with policy.layers: a stack of layers runs one server "
                              "for now (docs/servers.md §8.4)."));
    serverChecks(r, errors);
    if (occ && !r.policy.layers.empty()) return layerChecks(r, errors);
    if (occ) {
        if (r.clients > 1000)
            fail(errors, "clients", "out-of-range",
                 "must be a whole number from 1 to 1000 for the occ workload; got " + formatInt(r.clients) + ".");
        else if (static_cast<double>(r.clients) * r.runs > 200000)
            fail(errors, "clients", "too-much-work",
                 "× runs must be at most 200,000 for the occ workload; got " +
                     formatInt(static_cast<std::int64_t>(r.clients) * r.runs) + ".");
        return;
    }
    layerChecks(r, errors);
    if (!r.policy.layers.empty()) return;
    if (r.arrivals == Arrivals::Once || !r.policy.maxRetries) return;
    const double factor = r.spike ? std::max(1.0, r.spike->factor) : 1.0;
    // A6's hedged request sends up to maxAttempts copies (maxRetries is then 0); §8's per-try timeout at
    // most maxRetries + 1 attempts, as an unhedged one.
    const double tries = r.policy.hedging && !perTry ? r.policy.hedging->maxAttempts : *r.policy.maxRetries + 1;
    const double work = r.clients * r.ratePerClient * factor * r.durationMs / 1000 * tries;
    if (work > 20000000)
        fail(errors, "durationMs", "too-much-work",
             "makes too long a run: clients × ratePerClient × spike factor × durationMs / 1000 × (maxRetries + 1) "
             "must be at most 20,000,000 attempts; got " +
                 formatMs(std::floor(work), 0) + ".");
}

// 12345678.9 -> "12,345,679": a whole number with thousands separated.
std::string grouped(double value) {
    std::string digits = formatMs(std::round(value), 0);
    for (auto at = static_cast<std::ptrdiff_t>(digits.size()) - 3; at > 0; at -= 3)
        digits.insert(static_cast<std::size_t>(at), ",");
    return digits;
}

// The cost bound (fleet_cost.cpp, docs/robustness.md), on a request within every bound of §3:
// the estimated time and peak bytes, each over its limit an error on the field that drives it,
// naming the estimate, the limit and the fields that lower it.
void costChecks(const FleetRequest& r, std::vector<InputError>& errors) {
    const FleetCost c = fleetCost(r);
    const bool occ = r.workload == FleetWorkload::Occ;
    const char* traffic = "lower durationMs, clients, ratePerClient, spike.factor or policy.maxRetries";
    const std::string where = " (retrysim --fleet --no-limits runs it on purpose; docs/robustness.md).";
    if (c.ms > kFleetCostMs) {
        if (occ)
            fail(errors, "clients", "too-much-work",
                 "makes too long a run: an estimated " + grouped(c.events) + " writes (clients × runs × " +
                     "writes a client, at most clients or policy.maxRetries + 1), " + grouped(c.ms) +
                     " ms of the engine's work, over the limit of " + grouped(kFleetCostMs) +
                     " ms; lower clients, runs or policy.maxRetries" + where);
        else if (c.throttlerMs * 2 > c.ms)
            fail(errors, "gates.local.bins", "too-much-work",
                 "makes too long a run: the local throttlers' lookbacks empty up to " + grouped(c.clearedBins) +
                     " bins as time moves (at most gates.local.bins at each send and answer), an estimated " +
                     grouped(c.ms) + " ms of the engine's work, over the limit of " + grouped(kFleetCostMs) +
                     " ms; lower gates.local.bins or raise gates.local.windowMs" + where);
        else if (c.binMs * 2 > c.ms)
            fail(errors, "binMs", "too-much-work",
                 "makes too long a run: " + grouped(c.bins) + " bins and " + grouped(c.events) +
                     " events at most, an estimated " + grouped(c.ms) + " ms of the engine's work, over the limit of " +
                     grouped(kFleetCostMs) + " ms; raise binMs or lower durationMs" + where);
        else
            fail(errors, "durationMs", "too-much-work",
                 "makes too long a run: up to " + grouped(c.attempts) + " attempts of " + grouped(c.requests) +
                     " requests, 5 events each, an estimated " + grouped(c.ms) +
                     " ms of the engine's work, over the limit of " + grouped(kFleetCostMs) + " ms; " + traffic +
                     where);
    }
    if (c.bytes > kFleetCostBytes) {
        const double mb = 1024 * 1024;
        std::string what = grouped(c.records) + " request records, " + grouped(c.queue) + " queued attempts, " +
                           grouped(c.pending) + " events waiting and " + grouped(c.bins) + " bins at most";
        std::string lower = traffic;
        if (c.queue > 0) lower += ", or set server.queueLimit";
        if (r.gates.budget) lower += ", or lower gates.budget.ttlMs";
        if (r.gates.breaker) lower += ", or lower gates.breaker.window";
        if (r.gates.local) lower += ", or lower gates.local.bins";
        const bool bins = c.binBytes * 2 > c.bytes;
        const char* field = bins ? "binMs" : "durationMs";
        if (bins) lower = "raise binMs or lower durationMs";
        fail(errors, field, "too-much-memory",
             "makes too large a run: " + what + ", an estimated " + grouped(c.bytes / mb) +
                 " MB at its peak, over the limit of " + grouped(kFleetCostBytes / mb) + " MB; " + lower + where);
    }
}

}  // namespace

const FieldTable& fleetFields() {
    static const FieldTable table = makeFleet(false);
    return table;
}

const FieldTable& occFleetFields() {
    static const FieldTable table = makeFleet(true);
    return table;
}

FleetRequest occDefaults() {
    Value raw = Value::object();
    raw.set("workload", Value::string("occ"));
    return *parseFleetRequest(raw).request;
}

FleetParsed parseFleetRequest(const Value& raw, const FleetOptions& options) {
    FleetParsed parsed;
    // The workload first: it chooses the table, whose defaults differ in network and policy.
    bool occ = false;
    if (raw.kind() == Value::Kind::Object)
        if (const Value* w = raw.find("workload"); w && w->kind() == Value::Kind::String && w->asString() == "occ")
            occ = true;
    const FieldTable& table = occ ? occFleetFields() : fleetFields();
    Normalized n = normalize(table, raw);
    parsed.errors = std::move(n.errors);
    if (!parsed.errors.empty()) return parsed;
    n.value = fillLayers(table, n.value);
    FleetRequest request = typed(table, n.value);
    crossChecks(request, parsed.errors);
    if (parsed.errors.empty() && options.costBound) costChecks(request, parsed.errors);
    if (!parsed.errors.empty()) return parsed;
    parsed.request = std::move(request);
    parsed.echo = std::move(n.value);
    return parsed;
}

Value fleetSchema() {
    Value v = Value::object();
    v.set("engine", Value::string(engineVersion()));
    v.set(fleetFields().name, tableToValue(fleetFields()));
    v.set("occ", tableToValue(occFleetFields()));
    return v;
}

}  // namespace retrylab
