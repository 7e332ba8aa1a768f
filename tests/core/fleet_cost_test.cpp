// The fleet's cost bound (docs/robustness.md, "The fleet's cost bound"; core/src/fleet_cost.cpp).
// No clock is read: the budget is asserted on the model's estimate, and the model is held to be
// an upper bound of what runs do (FleetWork's events, deepest queue and records) on every shape
// of the benchmark (bench/fleet_cost.cpp), at sizes a test can afford.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fleet_support.hpp"
#include "json_lite.hpp"
#include "retrylab/fleet.hpp"

using namespace retrylab;
using namespace retrylab::test;

namespace {

const InputError* errorOn(const FleetParsed& parsed, const std::string& code) {
    for (const InputError& e : parsed.errors)
        if (e.code == code) return &e;
    return nullptr;
}

FleetParsed unbounded(const Value& raw) {
    FleetOptions options;
    options.costBound = false;
    return parseFleetRequest(raw, options);
}

// Issue 30's requests.
Value deepQueue() {
    return request({{"clients", num(10000)},
                    {"ratePerClient", num(1000)},
                    {"durationMs", num(2000)},
                    {"policy.maxRetries", num(0)},
                    {"server.workers", num(1)},
                    {"server.serviceMs", num(600000)},
                    {"trigger", Value::null()}});
}
Value longRun() {
    return request({{"clients", num(100)},
                    {"ratePerClient", num(1000)},
                    {"durationMs", num(200000)},
                    {"policy.maxRetries", num(0)}});
}

// The shapes of bench/fleet_cost.cpp: each the costliest of its dimension, `durationMs` (or
// `runs`) its size.
struct Shape {
    const char* name;
    Value request;
    const char* size;
    double most;
};
std::vector<Shape> shapes() {
    return {
        {"events through the heap",
         request({{"clients", num(10000)},
                  {"network.dist", str("exponential")},
                  {"network.mean", num(5)},
                  {"server.workers", num(100000)},
                  {"server.serviceMs", num(1)},
                  {"server.serviceMsPerInFlight", num(0.001)},
                  {"server.failureRate", num(1)},
                  {"policy.baseBackoffMs", num(0)},
                  {"policy.deadlineMs", num(100000)},
                  {"trigger", Value::null()}}),
         "durationMs", 600000},
        {"events through the lanes",
         request({{"clients", num(10000)},
                  {"server.workers", num(1)},
                  {"server.serviceMs", num(0)},
                  {"server.queueLimit", num(0)},
                  {"policy.baseBackoffMs", num(0)},
                  {"trigger.kind", str("outage")},
                  {"trigger.startMs", num(0)},
                  {"trigger.endMs", num(86400000)}}),
         "durationMs", 600000},
        {"a deep queue",
         request({{"clients", num(10000)},
                  {"ratePerClient", num(1000)},
                  {"server.workers", num(1)},
                  {"server.serviceMs", num(600000)},
                  {"policy.maxRetries", num(0)},
                  {"trigger", Value::null()}}),
         "durationMs", 600000},
        {"records and events held",
         request({{"clients", num(10000)},
                  {"ratePerClient", num(1000)},
                  {"server.workers", Value::null()},
                  {"server.serviceMs", num(600000)},
                  {"policy.maxRetries", num(0)},
                  {"policy.clientTimeoutMs", num(86400000)},
                  {"trigger", Value::null()}}),
         "durationMs", 600000},
        {"bins", request({{"clients", num(1)}, {"binMs", num(1)}}), "durationMs", 10000},
        // docs/throttling.md §8: every attempt's per-try timeout passes and sends the next at once; all of them
        // stay in flight (and their soft cutoffs and limits pending) until their answers or the deadline.
        {"per-try timeouts that overlap",
         request({{"clients", num(10000)},
                  {"server.workers", Value::null()},
                  {"server.serviceMs", num(1000)},
                  {"policy.maxRetries", num(10)},
                  {"policy.clientTimeoutMs", num(1)},
                  {"policy.baseBackoffMs", num(0)},
                  {"policy.deadlineMs", num(100000)},
                  {"policy.hedging.kind", str("per-try-timeout")},
                  {"trigger", Value::null()}}),
         "durationMs", 600000},
        {"per-client gates",
         request({{"clients", num(10000)},
                  {"ratePerClient", num(1000)},
                  {"gates.breaker.window", num(10000000)},
                  {"gates.breaker.minCalls", num(10000000)},
                  {"gates.budget.ttlMs", num(86400000)},
                  {"gates.budget.percent", num(100)},
                  {"server.workers", num(100000)},
                  {"server.serviceMs", num(0)},
                  {"trigger", Value::null()},
                  {"policy.maxRetries", num(0)}}),
         "durationMs", 600000},
        {"occ writes",
         request({{"workload", str("occ")},
                  {"clients", num(1000)},
                  {"policy.baseBackoffMs", num(0)},
                  {"policy.maxBackoffMs", num(0)},
                  {"policy.jitter", str("none")}}),
         "runs", 200},
    };
}

Value sized(const Shape& s, double size) {
    Value v = s.request;
    setPath(v, s.size, num(size));
    return v;
}
bool admitted(const Shape& s, double size) { return parseFleetRequest(sized(s, size)).errors.empty(); }

// The largest size the bound admits (a bisection over the bound itself), 1 if none is larger.
double worstAdmitted(const Shape& s) {
    const bool whole = std::string(s.size) == "runs";
    double lo = 1, hi = s.most;
    if (admitted(s, hi)) return hi;
    while (hi - lo > (whole ? 1 : 1e-6 * hi)) {
        const double mid = whole ? std::floor((lo + hi) / 2) : (lo + hi) / 2;
        (admitted(s, mid) ? lo : hi) = mid;
    }
    return lo;
}

}  // namespace

TEST_CASE("the cost bound's limits are within the budget: 2 s natively, 256 MB", "[fleet][cost]") {
    CHECK(kFleetCostMs <= 2000);
    CHECK(kFleetCostBytes <= 256.0 * 1024 * 1024);
}

TEST_CASE("issue 30's requests are refused before they run, naming the estimate, the limit and the fields",
          "[fleet][cost]") {
    const FleetParsed queue = parseFleetRequest(deepQueue());
    REQUIRE_FALSE(queue.request);
    const InputError* time = errorOn(queue, "too-much-work");
    const InputError* memory = errorOn(queue, "too-much-memory");
    REQUIRE(time);
    REQUIRE(memory);
    CHECK(time->field == "durationMs");
    CHECK(memory->field == "durationMs");
    // 10,000 × 1,000 × 2 s = 20,000,000 requests expected, 20,022,361 at most (+ 5 √), one
    // attempt each: 100,121,805 events at most, 200 ns each.
    CHECK(time->message.find("up to 20,022,361 attempts of 20,022,361 requests") != std::string::npos);
    CHECK(time->message.find("an estimated 20,024 ms") != std::string::npos);
    CHECK(time->message.find("over the limit of 2,000 ms") != std::string::npos);
    CHECK(memory->message.find("20,022,361 queued attempts") != std::string::npos);
    CHECK(memory->message.find("over the limit of 192 MB") != std::string::npos);
    for (const char* field : {"durationMs", "clients", "ratePerClient", "spike.factor", "policy.maxRetries"}) {
        CHECK(time->message.find(field) != std::string::npos);
        CHECK(memory->message.find(field) != std::string::npos);
    }
    CHECK(memory->message.find("server.queueLimit") != std::string::npos);
    CHECK(time->message.find("--no-limits") != std::string::npos);

    const FleetParsed run = parseFleetRequest(longRun());
    REQUIRE_FALSE(run.request);
    REQUIRE(errorOn(run, "too-much-work"));
    CHECK(errorOn(run, "too-much-work")->message.find("up to 20,022,361 attempts") != std::string::npos);

    // Without the bound (retrysim --fleet --no-limits) both are valid requests: FLEET.md §3's
    // own bounds admit them.
    CHECK(unbounded(deepQueue()).errors.empty());
    CHECK(unbounded(longRun()).errors.empty());
    // And fleet() says the same as the parse.
    CHECK(errorFields(fleet(deepQueue())) == "durationMs,durationMs");
}

TEST_CASE("the bound names the bins, the gates and occ's fields when they are what costs", "[fleet][cost]") {
    // One client, 60 ms bins over 600 s: 21,001 bins (the horizon, 1,260,000 ms, over 60) are cheap.
    const FleetParsed bins =
        parseFleetRequest(request({{"clients", num(1)}, {"binMs", num(60)}, {"durationMs", num(600000)}}));
    CHECK(bins.errors.empty());
    const FleetParsed occ =
        parseFleetRequest(request({{"workload", str("occ")}, {"clients", num(1000)}, {"runs", num(200)}}));
    REQUIRE(errorOn(occ, "too-much-work"));
    CHECK(errorOn(occ, "too-much-work")->field == "clients");
    CHECK(errorOn(occ, "too-much-work")->message.find("runs") != std::string::npos);
    Value gated = request({{"clients", num(10000)},
                           {"ratePerClient", num(100)},
                           {"durationMs", num(2000)},
                           {"gates.budget.ttlMs", num(86400000)},
                           {"gates.breaker.window", num(10000000)},
                           {"policy.maxRetries", num(0)},
                           {"server.workers", num(1)},
                           {"server.serviceMs", num(600000)}});
    const FleetParsed g = parseFleetRequest(gated);
    REQUIRE(errorOn(g, "too-much-memory"));
    CHECK(errorOn(g, "too-much-memory")->message.find("gates.budget.ttlMs") != std::string::npos);
    CHECK(errorOn(g, "too-much-memory")->message.find("gates.breaker.window") != std::string::npos);
}

TEST_CASE("the worst request the bound admits in each dimension is within the budget, by its estimate",
          "[fleet][cost]") {
    for (const Shape& s : shapes()) {
        INFO(s.name);
        const double size = worstAdmitted(s);
        INFO(s.size << " " << size);
        const FleetParsed worst = parseFleetRequest(sized(s, size));
        REQUIRE(worst.request);
        const FleetCost c = fleetCost(*worst.request);
        CHECK(c.ms <= kFleetCostMs);
        CHECK(c.bytes <= kFleetCostBytes);
        // It is the worst: a little more is refused (unless it is already the field's most).
        if (size < s.most) CHECK_FALSE(admitted(s, std::string(s.size) == "runs" ? size + 1 : size * 1.001));
    }
}

TEST_CASE("the model bounds what a run does: events, the deepest queue and records, on every shape", "[fleet][cost]") {
    for (const Shape& s : shapes()) {
        if (std::string(s.size) == "runs") continue;  // occ: below
        for (double size : {1.0, 200.0, 1000.0}) {
            INFO(s.name << ", " << s.size << " " << size);
            const FleetParsed p = unbounded(sized(s, size));
            REQUIRE(p.request);
            FleetRequest r = *p.request;
            if (r.clients > 200) r.clients = 200;  // a test's size; the shape stays
            const FleetCost c = fleetCost(r);
            FleetWork work;
            simulateService(r, nullptr, &work);
            CHECK(static_cast<double>(work.events) <= c.events);
            CHECK(static_cast<double>(work.queue) <= c.queue);
            CHECK(static_cast<double>(work.records) <= c.records);
        }
    }
    // occ: the writes of every run at most clients × min(clients, maxRetries + 1).
    for (int retries : {-1, 0, 3}) {
        Value v = request({{"workload", str("occ")},
                           {"clients", num(60)},
                           {"runs", num(3)},
                           {"policy.baseBackoffMs", num(0)},
                           {"policy.maxBackoffMs", num(0)},
                           {"policy.jitter", str("none")}});
        if (retries >= 0) setPath(v, "policy.maxRetries", num(retries));
        const FleetParsed p = parseFleetRequest(v);
        REQUIRE(p.request);
        double writes = 0;
        for (const OccRun& run : simulateOcc(*p.request).runs) writes += run.writes;
        CHECK(writes <= fleetCost(*p.request).events);
    }
}

TEST_CASE("the bound admits FLEET.md §9's worked figures, the opening run and the page's stability map",
          "[fleet][cost]") {
    std::vector<Value> admittedRequests = {Value::object(), request({{"clients", num(18)}})};
    // §9.10: Bronson et al.'s retry example, 600 s, and its variants.
    for (double clients : {280.0, 151.0, 149.0}) {
        admittedRequests.push_back(request({{"clients", num(clients)},
                                            {"durationMs", num(600000)},
                                            {"server.workers", num(30)},
                                            {"server.serviceMs", num(100)},
                                            {"policy.clientTimeoutMs", num(1000)},
                                            {"policy.maxRetries", num(1)},
                                            {"policy.baseBackoffMs", num(0)},
                                            {"policy.retryOn", Value::array({str("timeout")})},
                                            {"trigger.startMs", num(10000)},
                                            {"trigger.endMs", num(12000)},
                                            {"trigger.factor", num(20)}}));
    }
    for (double perSecond : {19.0, 25.0}) {
        Value v = admittedRequests.back();
        setPath(v, "clients", num(280));
        setPath(v, "gates.budget",
                request({{"scope", str("fleet")},
                         {"percent", num(0)},
                         {"minPerSecond", num(perSecond)},
                         {"ttlMs", num(10000)}}));
        admittedRequests.push_back(v);
    }
    // §9.7: Brooker 2022, with the bucket and 100 retries; §9.8: the retry collapse.
    admittedRequests.push_back(request({{"clients", num(100)},
                                        {"ratePerClient", num(10)},
                                        {"durationMs", num(10000)},
                                        {"server.workers", Value::null()},
                                        {"server.serviceMs", num(0)},
                                        {"server.failureRate", num(0.5)},
                                        {"network.dist", str("exponential")},
                                        {"network.mean", num(5)},
                                        {"policy.baseBackoffMs", num(0)},
                                        {"policy.maxRetries", num(100)},
                                        {"gates.bucket", Value::object()},
                                        {"trigger", Value::null()}}));
    admittedRequests.push_back(request({{"clients", num(1)},
                                        {"ratePerClient", num(40)},
                                        {"spike.startMs", num(20000)},
                                        {"spike.endMs", num(25000)},
                                        {"spike.factor", num(2)},
                                        {"durationMs", num(80000)},
                                        {"server.workers", Value::null()},
                                        {"server.serviceMs", num(1000)},
                                        {"server.serviceMsPerInFlight", num(10)},
                                        {"network.dist", str("exponential")},
                                        {"network.mean", num(100)},
                                        {"policy.clientTimeoutMs", num(3000)},
                                        {"policy.maxRetries", num(2)},
                                        {"policy.baseBackoffMs", num(0)},
                                        {"policy.retryOn", Value::array({str("timeout")})},
                                        {"trigger", Value::null()}}));
    // §9.6: the 2015 experiment at its largest fleet, each strategy.
    for (const char* jitter : {"none", "equal", "full", "decorrelated"})
        admittedRequests.push_back(
            request({{"workload", str("occ")}, {"clients", num(190)}, {"policy.jitter", str(jitter)}}));
    admittedRequests.push_back(
        request({{"workload", str("occ")}, {"clients", num(190)}, {"policy.baseBackoffMs", num(0)}}));
    // The page's stability map: the opening run at up to 1.5 requests/s, slowdowns up to 20 s.
    admittedRequests.push_back(request({{"ratePerClient", num(1.5)}, {"trigger.endMs", num(30000)}}));
    for (const Value& v : admittedRequests) {
        const FleetParsed p = parseFleetRequest(v);
        INFO((p.errors.empty() ? std::string() : p.errors.front().message));
        CHECK(p.errors.empty());
    }
}

// docs/robustness.md's worked figure for the tickets (docs/servers.md §8.3: with per-server rows an
// attempt in service holds a 16-byte ticket): with a server of unlimited workers among three, the
// tickets are bounded by the events waiting at once, P = 90, not by the other servers' 20 workers;
// with all three limited, by their 30 workers. Each figure summed by hand from the doc's terms.
TEST_CASE("the cost bound counts a ticket for every pending event when a server's workers are unlimited",
          "[fleet][cost]") {
    const std::string base = R"({"clients":10,"arrivals":"once","durationMs":1000,"trigger":null,)"
                             R"("server":{"queueLimit":0},"servers":{"count":3)";
    const FleetParsed unlimited = parseFleetRequest(json(base + R"(,"overrides":[{"index":1,"workers":null}]}})"));
    const FleetParsed limited = parseFleetRequest(json(base + "}}"));
    REQUIRE(unlimited.request);
    REQUIRE(limited.request);
    const double common = 262144 + 3 * (40 * 10 + 24 * 0 + 32 * 90) + 3 * 8 * 10 + 1200 * 3 + 3 * 8 * 10 + 16 * 10 +
                          800 * 63 + 700 * 189 + 8 * 10 + 200 * 1;
    const FleetCost u = fleetCost(*unlimited.request);
    CHECK(u.records == 10);
    CHECK(u.pending == 90);
    CHECK(u.bytes == common + 3 * 16 * 90);
    CHECK(u.bytes == 463524);
    const FleetCost l = fleetCost(*limited.request);
    CHECK(l.records == 10);
    CHECK(l.pending == 90);
    CHECK(l.bytes == common + 3 * 16 * 30);
    CHECK(l.bytes == 460644);
}
