// retrylab-fleet-cost: the fleet's cost bound (docs/robustness.md, "The fleet's cost bound")
// against the engine. For each cost dimension a request shape and one field to grow; the field
// is set to the largest value the bound admits (a bisection over parseFleetRequest itself), and
// that request, the worst the bound lets through in that dimension, is run natively: its time
// (wall and CPU), its peak heap (every operator new counted, support.cpp), what it did (events,
// deepest queue, records: FleetWork) beside the model's estimate and the budget (2 s, 256 MB).
// Prints one JSON object a line; bench/fleet-cost.mjs makes the table.
//
//   retrylab-fleet-cost             the worst admitted request of each dimension
//   retrylab-fleet-cost FILE...     each FILE (a fleet request) run without the bound: what the
//                                   model's constants were measured from
//   retrylab-fleet-cost --estimate FILE...   only the estimate and whether the bound admits it
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support.hpp"
#include "retrylab/fleet.hpp"

namespace {

using nlohmann::json;
using retrylab::FleetCost;
using retrylab::FleetOptions;
using retrylab::FleetParsed;
using retrylab::Value;

struct Dimension {
    const char* name;     // what it stresses
    const char* request;  // the shape, as JSON
    const char* field;    // a JSON pointer: the field grown to the bound
    double lo, hi;        // its range (lo admitted)
    bool whole;           // a whole number
};

// The shapes: each the costliest per estimated unit of its dimension found (docs/robustness.md).
const Dimension kDimensions[] = {
    {"events through the heap (exponential legs, a deadline, per-in-flight service, every attempt failing)",
     R"({"clients":10000,"network":{"dist":"exponential","mean":5},"server":{"workers":100000,"serviceMs":1,"serviceMsPerInFlight":0.001,"failureRate":1},"policy":{"baseBackoffMs":0,"deadlineMs":100000,"maxRetries":3},"trigger":null,"durationMs":1})",
     "/durationMs", 1, 600000, false},
    {"events through the lanes (fixed legs, every attempt timing out)",
     R"({"clients":10000,"server":{"workers":1,"serviceMs":0,"queueLimit":0},"policy":{"baseBackoffMs":0,"maxRetries":3},"trigger":{"kind":"outage","startMs":0,"endMs":86400000},"durationMs":1})",
     "/durationMs", 1, 600000, false},
    {"a deep queue (one worker, ten-minute service)",
     R"({"clients":10000,"ratePerClient":1000,"server":{"workers":1,"serviceMs":600000},"policy":{"maxRetries":0},"trigger":null,"durationMs":1})",
     "/durationMs", 1, 600000, false},
    {"records and events held (no worker limit, ten-minute service, long timeouts)",
     R"({"clients":10000,"ratePerClient":1000,"server":{"workers":null,"serviceMs":600000},"policy":{"maxRetries":0,"clientTimeoutMs":86400000},"trigger":null,"durationMs":1})",
     "/durationMs", 1, 600000, false},
    {"bins (binMs 1)",
     R"({"clients":1,"binMs":1,"durationMs":1})", "/durationMs", 1, 10000, false},
    {"per-client gates (a breaker's window and a budget's times per client)",
     R"({"clients":10000,"ratePerClient":1000,"gates":{"breaker":{"window":10000000,"minCalls":10000000},"budget":{"ttlMs":86400000,"percent":100}},"server":{"workers":100000,"serviceMs":0},"trigger":null,"policy":{"maxRetries":0},"durationMs":1})",
     "/durationMs", 1, 600000, false},
    {"occ writes (1,000 clients, no backoff, no retry limit)",
     R"({"workload":"occ","clients":1000,"policy":{"baseBackoffMs":0,"maxBackoffMs":0,"jitter":"none"},"runs":1})",
     "/runs", 1, 200, true},
};

FleetParsed parse(const json& request, bool bound) {
    FleetOptions options;
    options.costBound = bound;
    return retrylab::parseFleetRequest(bench::toValue(request), options);
}

double cpuMs() { return 1000.0 * static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

std::string loadAverage() {
    std::ifstream f("/proc/loadavg");
    std::string a, b, c;
    f >> a >> b >> c;
    return a + " " + b + " " + c;
}

// Runs a parsed request as fleet() does (simulate, then the result as a Value) and measures it.
json measure(const FleetParsed& parsed) {
    const retrylab::FleetRequest& r = *parsed.request;
    const FleetCost cost = retrylab::fleetCost(r);
    retrylab::FleetWork work;
    const std::string loadBefore = loadAverage();
    bench::peakBytes = bench::liveBytes;
    const std::size_t before = bench::liveBytes;
    const auto start = bench::Clock::now();
    const double cpu0 = cpuMs();
    double writes = 0;
    {
        Value result;
        if (r.workload == retrylab::FleetWorkload::Occ) {
            const retrylab::OccResult occ = retrylab::simulateOcc(r);
            for (const retrylab::OccRun& run : occ.runs) writes += run.writes;
            result = retrylab::fleetToValue(parsed.echo, r, occ);
        } else {
            result = retrylab::fleetToValue(parsed.echo, r, retrylab::simulateService(r, nullptr, &work));
        }
    }
    const double cpu = cpuMs() - cpu0;
    const double wall = bench::msSince(start);
    const bool occ = r.workload == retrylab::FleetWorkload::Occ;
    return {{"wallMs", wall},
            {"cpuMs", cpu},
            {"peakHeapBytes", bench::peakBytes - before},
            {"events", occ ? writes : static_cast<double>(work.events)},
            {"queue", work.queue},
            {"records", work.records},
            {"estimate",
             {{"ms", cost.ms},
              {"bytes", cost.bytes},
              {"events", cost.events},
              {"attempts", cost.attempts},
              {"queue", cost.queue},
              {"records", cost.records},
              {"pending", cost.pending},
              {"bins", cost.bins}}},
            {"budget", {{"ms", 2000}, {"bytes", 256.0 * 1024 * 1024}}},
            {"limit", {{"ms", retrylab::kFleetCostMs}, {"bytes", retrylab::kFleetCostBytes}}},
            {"load", {{"before", loadBefore}, {"after", loadAverage()}}}};
}

// The largest value of the dimension's field that the bound admits.
json worstAdmitted(const Dimension& d) {
    json request = json::parse(d.request);
    const json::json_pointer at(d.field);
    auto admitted = [&](double x) {
        request[at] = d.whole ? json(static_cast<std::int64_t>(x)) : json(x);
        return parse(request, true).errors.empty();
    };
    double lo = d.lo, hi = d.hi;
    if (admitted(hi)) {
        lo = hi;
    } else {
        for (int i = 0; i < 60 && hi - lo > (d.whole ? 1 : 1e-6 * hi); ++i) {
            const double mid = d.whole ? std::floor((lo + hi) / 2) : (lo + hi) / 2;
            if (admitted(mid)) lo = mid; else hi = mid;
        }
    }
    request[at] = d.whole ? json(static_cast<std::int64_t>(lo)) : json(lo);
    return request;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1) {
        const bool estimateOnly = std::string(argv[1]) == "--estimate";
        for (int i = estimateOnly ? 2 : 1; i < argc; ++i) {
            std::ifstream file(argv[i]);
            std::stringstream text;
            text << file.rdbuf();
            const json request = json::parse(text.str());
            const FleetParsed parsed = parse(request, false);
            if (!parsed.request) {
                std::fprintf(stderr, "%s: %s\n", argv[i], parsed.errors.front().message.c_str());
                return 2;
            }
            json line;
            if (estimateOnly) {
                const FleetCost c = retrylab::fleetCost(*parsed.request);
                line = {{"estimate", {{"ms", c.ms}, {"bytes", c.bytes}, {"events", c.events}, {"queue", c.queue}}}};
            } else {
                line = measure(parsed);
            }
            line["file"] = argv[i];
            line["request"] = request;
            line["admitted"] = parse(request, true).errors.empty();
            std::printf("%s\n", line.dump().c_str());
            std::fflush(stdout);
        }
        return 0;
    }
    for (const Dimension& d : kDimensions) {
        const json request = worstAdmitted(d);
        json line = measure(parse(request, true));
        line["dimension"] = d.name;
        line["request"] = request;
        std::printf("%s\n", line.dump().c_str());
        std::fflush(stdout);
    }
    return 0;
}
