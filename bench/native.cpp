// retrylab-bench: the core's compute() and sweep() timed natively, the reference that
// scripts/bench sets WebAssembly (node, Chromium) against. Reads bench/cases.json, prints one
// JSON object per case on stdout:
//
//   { "name", "ms" (median per call), "rounds", "callsPerRound", "warmupRounds", "peakHeapBytes", "check" }
//
// The timing rule is bench/cases.json's "rounds", which bench/measure.js follows too: each round
// runs the call enough times to take at least roundMs (once for slow calls); after a warm-up of
// such rounds, the figure is the median of `measured` rounds' (slowMeasured for calls over
// slowCallMs) time per call. peakHeapBytes is the most the call held on the
// heap at once beyond what was held before it (support.cpp counts every operator new and delete).
// `check` summarises the result so scripts/bench can see that every side computed the same.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support.hpp"
#include "retrylab/engine.hpp"

namespace {

using retrylab::Value;
using bench::Clock;
using bench::liveBytes;
using bench::msSince;
using bench::peakBytes;
using bench::toValue;

double number(const Value& v, const char* key) {
    const Value* m = v.find(key);
    return m && m->kind() == Value::Kind::Number ? m->asNumber() : -1;
}

std::string str(double x) {
    std::ostringstream out;
    out << x;
    return out.str();
}

// The same summary bench/measure.js makes of a JS result.
std::string check(const Value& result) {
    const Value* ok = result.find("ok");
    if (!ok || !ok->asBool()) return "not ok";
    if (const Value* points = result.find("points")) {
        return "points " + str(static_cast<double>(points->asArray().size())) + ", boundaries " +
               str(static_cast<double>(result.find("boundaries")->asArray().size()));
    }
    const Value& m = *result.find("metrics");
    std::string out = "attempts " + str(number(m, "attempts")) + ", charges " + str(number(m, "charges"));
    if (const Value* herd = result.find("herd")) {
        out += ", not retried " + str(number(*herd, "notRetried")) + ", fullest " + str(number(*herd, "fullest")) +
               ", buckets " + str(static_cast<double>(herd->find("buckets")->asArray().size()));
    }
    return out;
}

double median(std::vector<double> list) {
    std::sort(list.begin(), list.end());
    return list[list.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: retrylab-bench bench/cases.json\n");
        return 2;
    }
    std::ifstream file(argv[1]);
    if (!file) {
        std::fprintf(stderr, "retrylab-bench: cannot read %s\n", argv[1]);
        return 2;
    }
    const nlohmann::json bench = nlohmann::json::parse(file);
    const nlohmann::json& cases = bench["cases"];
    // The timing rule, bench/cases.json's "rounds" (bench/measure.js follows the same).
    const nlohmann::json& rule = bench["rounds"];
    const nlohmann::json& warmRule = rule["warmup"];
    const double roundMs = rule["roundMs"], slowCallMs = rule["slowCallMs"];
    const std::size_t span = warmRule["window"], minRounds = warmRule["minRounds"], maxRounds = warmRule["maxRounds"];
    const double minMs = warmRule["minMs"], maxMs = warmRule["maxMs"], fasterBy = warmRule["fasterBy"];
    for (const auto& c : cases) {
        const Value inputs = toValue(c["inputs"]);
        const bool isSweep = c["entry"] == "sweep";
        auto call = [&] { return isSweep ? retrylab::sweep(inputs) : retrylab::compute(inputs); };

        // The heap's peak during one call, beyond what was held before it.
        const std::size_t before = liveBytes;
        peakBytes = liveBytes;
        std::string summary = check(call());
        const std::size_t peak = peakBytes - before;

        // How many calls make a round of at least roundMs.
        Clock::time_point start = Clock::now();
        call();
        const double once = std::max(msSince(start), 1e-6);
        const int rounds = once > slowCallMs ? rule["slowMeasured"].get<int>() : rule["measured"].get<int>();
        int perRound = static_cast<int>(std::max(1.0, std::ceil(roundMs / once)));
        auto round = [&] {
            const Clock::time_point at = Clock::now();
            for (int i = 0; i < perRound; ++i) call();
            return msSince(at) / perRound;
        };
        // The same warm-up as bench/measure.js's: rounds until the median of the last `span` is
        // no more than fasterBy under the median of the `span` before, within the rule's bounds
        // (none for slow calls); then the rounds sized from its last `span`.
        std::vector<double> warm;
        if (once <= slowCallMs) {
            const Clock::time_point warmStart = Clock::now();
            for (;;) {
                warm.push_back(round());
                const std::size_t w = warm.size();
                const double spent = msSince(warmStart);
                if (w >= maxRounds || spent >= maxMs) break;
                if (w >= minRounds && w >= 2 * span && spent >= minMs &&
                    median({warm.end() - span, warm.end()}) >= (1 - fasterBy) * median({warm.end() - 2 * span, warm.end() - span}))
                    break;
            }
            perRound = static_cast<int>(std::max(1.0, std::ceil(roundMs / std::max(median({warm.end() - span, warm.end()}), 1e-6))));
        }
        std::vector<double> times;
        for (int r = 0; r < rounds; ++r) times.push_back(round());
        nlohmann::json out = {{"name", c["name"]},
                              {"ms", median(times)},
                              {"rounds", rounds},
                              {"callsPerRound", perRound},
                              {"warmupRounds", warm.size()},
                              {"peakHeapBytes", peak},
                              {"check", summary}};
        std::printf("%s\n", out.dump().c_str());
        std::fflush(stdout);
    }
    return 0;
}
