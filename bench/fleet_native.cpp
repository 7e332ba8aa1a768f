// retrylab-fleet-bench: the fleet (FLEET.md) timed natively, the reference bench/fleet.mjs
// sets WebAssembly (node, Chromium) beside. Prints one JSON object:
//   { opening: {ms}, openingLayers: {ms}, openingAdaptive: {ms}, openingServers: {ms}, sweep: {ms, writes}, big: {ms, peakHeapBytes, requests, attempts},
//     growth: [{requests, ms}] }
// The requests are bench/fleet-requests.json's, the same that the WebAssembly side runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "support.hpp"
#include "retrylab/fleet.hpp"

namespace {

using retrylab::Value;
using bench::Clock;
using bench::liveBytes;
using bench::msSince;
using bench::peakBytes;
using bench::toValue;

// The median of `rounds` calls.
template <class F>
double median(int rounds, F call) {
    std::vector<double> times;
    for (int i = 0; i < rounds; ++i) {
        const auto start = Clock::now();
        call();
        times.push_back(msSince(start));
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// A member's member of a fleet result; a refused request (an error result, as the cost bound of
// docs/robustness.md gives one) stops the bench with the engine's words instead of reading nothing.
double number(const Value& v, const char* a, const char* b) {
    const Value* outer = v.find(a);
    const Value* inner = outer ? outer->find(b) : nullptr;
    if (!inner || inner->kind() != Value::Kind::Number) {
        const Value* errors = v.find("errors");
        const Value* first = errors && errors->kind() == Value::Kind::Array && !errors->asArray().empty()
                                 ? errors->asArray().front().find("message") : nullptr;
        std::fprintf(stderr, "retrylab-fleet-bench: the engine refused a bench request: %s\n",
                     first && first->kind() == Value::Kind::String ? first->asString().c_str() : "(no message)");
        std::exit(1);
    }
    return inner->asNumber();
}

}  // namespace

int main(int argc, char** argv) {
    std::ifstream file(argc > 1 ? argv[1] : "bench/fleet-requests.json");
    std::stringstream text;
    text << file.rdbuf();
    const nlohmann::json requests = nlohmann::json::parse(text.str());
    nlohmann::json out;

    const Value opening = toValue(requests["opening"]);
    out["opening"] = {{"ms", median(15, [&] { retrylab::fleet(opening); })}};
    // docs/layers.md §9: the opening run with three layers of its policy (issue 33: ≤ 3× the above).
    const Value openingLayers = toValue(requests["openingLayers"]);
    out["openingLayers"] = {{"ms", median(15, [&] { retrylab::fleet(openingLayers); })}};
    // docs/throttling.md §4: the opening run with AWS adaptive mode's limiter on every client (issue 34: ≤ 2×).
    const Value openingAdaptive = toValue(requests["openingAdaptive"]);
    out["openingAdaptive"] = {{"ms", median(15, [&] { retrylab::fleet(openingAdaptive); })}};
    // docs/servers.md: the opening run over 10 replicas behind round robin (issue 39: ≤ 1.5×).
    const Value openingServers = toValue(requests["openingServers"]);
    out["openingServers"] = {{"ms", median(15, [&] { retrylab::fleet(openingServers); })}};

    std::vector<Value> sweep;
    for (const auto& r : requests["sweep"]) sweep.push_back(toValue(r));
    double writes = 0;
    const double sweepMs = median(3, [&] {
        writes = 0;
        for (const Value& r : sweep) writes += number(retrylab::fleet(r), "mean", "writes");
    });
    out["sweep"] = {{"ms", sweepMs}, {"writes", writes}};

    const Value big = toValue(requests["big"]);
    peakBytes = liveBytes;
    const std::size_t before = liveBytes;
    const auto start = Clock::now();
    const Value result = retrylab::fleet(big);
    out["big"] = {{"ms", msSince(start)},
                  {"peakHeapBytes", peakBytes - before},
                  {"requests", number(result, "totals", "requests")},
                  {"attempts", number(result, "totals", "attempts")}};

    out["growth"] = nlohmann::json::array();
    for (const auto& r : requests["growth"]) {
        const Value request = toValue(r);
        double requestsMade = 0;
        const double ms = median(3, [&] { requestsMade = number(retrylab::fleet(request), "totals", "requests"); });
        out["growth"].push_back({{"requests", requestsMade}, {"ms", ms}});
    }
    std::printf("%s\n", out.dump().c_str());
    return 0;
}
